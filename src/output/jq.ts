import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { jsonOf } from './depth.js';

// `--jq EXPR`: a jq filter applied to one JSON document, with the embedded
// jq of the jq-wasm package (jq 1.7 compiled to WebAssembly, ~1.3 MB of
// JavaScript with the wasm inlined as base64; no external binary). It is
// loaded only when the flag is used.
//
// jq-wasm's own raw() feeds stdin one byte at a time with a slice() per byte
// and grows its stdout buffer one byte at a time: quadratic, ~9 s for a
// 440 kB document. So we instantiate its Emscripten module ourselves and
// wrap the two WASI calls for stdin (fd 0) and stdout/stderr (fd 1, 2) with
// linear copies; everything else is jq-wasm's code unchanged. If that
// set-up does not fit the installed build, we fall back to its raw().

export interface JqResult {
  /** jq's stdout: one result per line (compact JSON, strings raw). */
  stdout: string;
  stderr: string;
  status: number;
}

type Runner = (input: string, args: string[]) => Promise<JqResult>;

/** Output like `jq -c -r`: one result per line, strings without quotes. */
const OUTPUT_FLAGS = ['-M', '-c', '-r'];

let runner: Promise<Runner> | undefined;

function loadRunner(): Promise<Runner> {
  runner ??= fastRunner().catch(() => fallbackRunner());
  return runner;
}

/** Compiles the filter (against `null`) and throws UsageError with jq's message if it does not compile. Sends nothing. */
export async function checkJqFilter(filter: string): Promise<void> {
  if (filter.trim() === '') throw new UsageError('--jq needs a filter, for example --jq ".[].id"', undefined, 'INVALID_JQ');
  const run = await loadRunner();
  const res = await run('null', [...OUTPUT_FLAGS, filter]);
  // jq exits 3 on a compile error; 5 is a run-time error, which `null` as input may well cause.
  if (res.status === 3 || /compile error/.test(res.stderr)) {
    throw new UsageError(`Invalid --jq filter: ${jqMessage(res.stderr)}`, 'See https://jqlang.org/manual/ for the filter language.', 'INVALID_JQ');
  }
}

/** Applies the filter to one document; returns jq's output, one result per line (ends with a newline unless empty). */
export async function applyJq(value: unknown, filter: string): Promise<string> {
  const run = await loadRunner();
  const res = await run(jsonOf(value ?? null), [...OUTPUT_FLAGS, filter]);
  if (res.status === 3) throw new UsageError(`Invalid --jq filter: ${jqMessage(res.stderr)}`, undefined, 'INVALID_JQ');
  if (res.status !== 0 || /^jq: error/m.test(res.stderr)) {
    throw new CliError(`--jq failed: ${jqMessage(res.stderr) || `jq exited with status ${res.status}`}`, { code: 'JQ_ERROR', exitCode: ExitCode.FAILURE, hint: 'The filter ran on the JSON that `-o json` prints; check it with -o json first.' });
  }
  const out = res.stdout.replace(/\n+$/, '');
  return out === '' ? '' : `${out}\n`;
}

function jqMessage(stderr: string): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^jq: \d+ compile errors?$/.test(l))
    .join(' ')
    .replace(/^jq: error:?\s*/, '');
}

interface EmscriptenModule {
  callMain(args: string[]): number | undefined;
}
type Factory = (moduleArg: Record<string, unknown>) => Promise<EmscriptenModule>;
type WasiFn = (fd: number, iov: number, iovcnt: number, pnum: number) => number;

async function fastRunner(): Promise<Runner> {
  const require = createRequire(import.meta.url);
  const path = require.resolve('jq-wasm/dist/build/jq.js');
  const factory = require(path) as Factory;
  const source = readFileSync(path, 'latin1');
  const marker = 'data:application/octet-stream;base64,';
  // The payload is the data URI that starts with the wasm magic ("\0asm" is AGFzbQ in base64).
  const start = source.indexOf(`${marker}AGFzbQ`);
  if (start < 0) throw new Error('no inlined wasm');
  const end = source.indexOf('"', start);
  const wasm = await WebAssembly.compile(Buffer.from(source.slice(start + marker.length, end), 'base64'));

  const run: Runner = async (input, args) => {
    const stdin = Buffer.from(input, 'utf8');
    let pos = 0;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let memory: WebAssembly.Memory | undefined;
    let wrapped = 0;
    const mod = await factory({
      instantiateWasm(info: Record<string, Record<string, unknown>>, receive: (i: WebAssembly.Instance) => void) {
        const imports = info.a ?? Object.values(info)[0];
        for (const [key, fn] of Object.entries(imports)) {
          if (typeof fn !== 'function') continue;
          const orig = fn as WasiFn;
          if (fn.name === '_fd_read') {
            wrapped++;
            imports[key] = (fd: number, iov: number, iovcnt: number, pnum: number) => {
              if (fd !== 0 || !memory) return orig(fd, iov, iovcnt, pnum);
              const view = new DataView(memory.buffer);
              const heap = new Uint8Array(memory.buffer);
              let total = 0;
              for (let i = 0; i < iovcnt; i++) {
                const ptr = view.getUint32(iov + i * 8, true);
                const len = view.getUint32(iov + i * 8 + 4, true);
                const n = Math.min(len, stdin.length - pos);
                heap.set(stdin.subarray(pos, pos + n), ptr);
                pos += n;
                total += n;
                if (n < len) break;
              }
              view.setUint32(pnum, total, true);
              return 0;
            };
          } else if (fn.name === '_fd_write') {
            wrapped++;
            imports[key] = (fd: number, iov: number, iovcnt: number, pnum: number) => {
              if ((fd !== 1 && fd !== 2) || !memory) return orig(fd, iov, iovcnt, pnum);
              const view = new DataView(memory.buffer);
              let total = 0;
              for (let i = 0; i < iovcnt; i++) {
                const ptr = view.getUint32(iov + i * 8, true);
                const len = view.getUint32(iov + i * 8 + 4, true);
                (fd === 1 ? out : err).push(Buffer.from(new Uint8Array(memory.buffer, ptr, len)));
                total += len;
              }
              view.setUint32(pnum, total, true);
              return 0;
            };
          }
        }
        if (wrapped !== 2) throw new Error('unexpected jq-wasm build');
        WebAssembly.instantiate(wasm, info as WebAssembly.Imports).then((instance) => {
          memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
          receive(instance);
        });
        return {};
      },
    });
    if (!memory) throw new Error('jq-wasm memory not found');
    // Emscripten's exit sets process.exitCode; the CLI's entry owns it.
    const savedExit = process.exitCode;
    let status: number;
    try {
      status = mod.callMain([...args]) ?? 0;
    } finally {
      process.exitCode = savedExit;
    }
    return { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), status };
  };
  // Prove the set-up on a trivial filter before trusting it.
  const probe = await run('{"a":[1,"x"]}', [...OUTPUT_FLAGS, '.a[]']);
  if (probe.status !== 0 || probe.stdout.trim() !== '1\nx') throw new Error('jq-wasm probe failed');
  return run;
}

/** jq-wasm's own API: correct, but quadratic in the size of the input and output. */
async function fallbackRunner(): Promise<Runner> {
  const jq = await import('jq-wasm');
  return async (input, args) => {
    const savedExit = process.exitCode;
    try {
      const filter = args[args.length - 1];
      return { stdout: await jq.raw(input, filter, args.slice(0, -1)), stderr: '', status: 0 };
    } catch (e) {
      const message = e instanceof Error ? e.message.replace(/^Failed to execute raw query: /, '') : String(e);
      return { stdout: '', stderr: message, status: /compile error/.test(message) ? 3 : 5 };
    } finally {
      process.exitCode = savedExit;
    }
  };
}
