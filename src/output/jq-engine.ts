import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { evalCommonJs, SEA_ASSET, seaAssetText } from '../runtime/sea-assets.js';

// The embedded jq itself (jq 1.7 of the jq-wasm package compiled to
// WebAssembly, ~1.3 MB of JavaScript with the wasm inlined as base64; no
// external binary), run in the calling thread. src/output/jq.ts runs it in a
// worker thread (jq-worker.ts) so that a filter that never ends can be
// stopped; it is called directly only where no built worker exists (sources
// run by the unit tests).
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

/** Bounds of one run: jq's output, and the WebAssembly memory it may grow to. */
export interface JqLimits {
  maxOutputBytes: number;
  maxHeapBytes: number;
}

export type JqRunner = (input: string | Uint8Array, args: string[], limits: JqLimits) => Promise<JqResult>;

/** Thrown out of jq (unwinding its WebAssembly) when a run passes one of its limits. */
export class JqLimitExceeded extends Error {
  constructor(readonly what: 'output' | 'memory', readonly limit: number) {
    super(`jq ${what} over ${limit} bytes`);
  }
}

/** Output like `jq -c -r`: one result per line, strings without quotes. */
export const OUTPUT_FLAGS = ['-M', '-c', '-r'];

let runner: Promise<JqRunner> | undefined;

export function loadJqRunner(): Promise<JqRunner> {
  runner ??= fastRunner().catch(() => fallbackRunner());
  return runner;
}

interface EmscriptenModule {
  callMain(args: string[]): number | undefined;
}
type Factory = (moduleArg: Record<string, unknown>) => Promise<EmscriptenModule>;
type WasiFn = (fd: number, iov: number, iovcnt: number, pnum: number) => number;

/** jq-wasm's emscripten module and its source text: from node_modules, or the single executable's asset. */
function jqModule(): { factory: Factory; source: string } {
  const asset = seaAssetText(SEA_ASSET.jqModule);
  if (asset !== undefined) return { factory: evalCommonJs(asset, 'jq-wasm.cjs') as Factory, source: asset };
  const require = createRequire(import.meta.url);
  const path = require.resolve('jq-wasm/dist/build/jq.js');
  return { factory: require(path) as Factory, source: readFileSync(path, 'latin1') };
}

/** jq-wasm's Emscripten factory and its module, compiled from the wasm inlined in the factory's file. */
async function loadJqWasm(): Promise<{ factory: Factory; wasm: WebAssembly.Module }> {
  const { factory, source } = jqModule();
  const marker = 'data:application/octet-stream;base64,';
  // The payload is the data URI that starts with the wasm magic ("\0asm" is AGFzbQ in base64).
  const start = source.indexOf(`${marker}AGFzbQ`);
  if (start < 0) throw new Error('no inlined wasm');
  const end = source.indexOf('"', start);
  return { factory, wasm: await WebAssembly.compile(Buffer.from(source.slice(start + marker.length, end), 'base64')) };
}

/** jq's reads of fd 0, served from `stdin` straight into its memory; other descriptors go to `orig`. */
function stdinReader(stdin: Uint8Array, memory: () => WebAssembly.Memory | undefined, orig: WasiFn): WasiFn {
  let pos = 0;
  return (fd, iov, iovcnt, pnum) => {
    const mem = memory();
    if (fd !== 0 || !mem) return orig(fd, iov, iovcnt, pnum);
    const view = new DataView(mem.buffer);
    const heap = new Uint8Array(mem.buffer);
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
}

async function fastRunner(): Promise<JqRunner> {
  const { factory, wasm } = await loadJqWasm();
  const run: JqRunner = async (input, args, limits) => {
    const stdin = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    // One buffer that doubles (not a Buffer per write: jq may write two bytes at a time, and
    // millions of small objects would cost the heap a hundred times the bytes counted).
    let out = Buffer.allocUnsafe(65_536);
    let outBytes = 0;
    const err: Buffer[] = [];
    let errBytes = 0;
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
            imports[key] = stdinReader(stdin, () => memory, orig);
          } else if (fn.name === '_fd_write') {
            wrapped++;
            imports[key] = (fd: number, iov: number, iovcnt: number, pnum: number) => {
              if ((fd !== 1 && fd !== 2) || !memory) return orig(fd, iov, iovcnt, pnum);
              const view = new DataView(memory.buffer);
              let total = 0;
              for (let i = 0; i < iovcnt; i++) {
                const ptr = view.getUint32(iov + i * 8, true);
                const len = view.getUint32(iov + i * 8 + 4, true);
                // jq's messages are short; only its results can run away (`repeat(1)`).
                if (fd === 1) {
                  if (outBytes + len > limits.maxOutputBytes) throw new JqLimitExceeded('output', limits.maxOutputBytes);
                  if (outBytes + len > out.length) {
                    const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, outBytes + len));
                    out.copy(bigger, 0, 0, outBytes);
                    out = bigger;
                  }
                  out.set(new Uint8Array(memory.buffer, ptr, len), outBytes);
                  outBytes += len;
                } else if (errBytes < 65_536) {
                  errBytes += len;
                  err.push(Buffer.from(new Uint8Array(memory.buffer, ptr, len)));
                }
                total += len;
              }
              view.setUint32(pnum, total, true);
              return 0;
            };
          } else if (fn.name === '_emscripten_resize_heap') {
            wrapped++;
            // Every growth of jq's memory asks here first: refuse past the limit by unwinding the run
            // (jq itself would print "out of memory" and abort, which ends the same way less clearly).
            imports[key] = (requested: number) => {
              if (requested >>> 0 > limits.maxHeapBytes) throw new JqLimitExceeded('memory', limits.maxHeapBytes);
              return (fn as (n: number) => boolean)(requested);
            };
          }
        }
        if (wrapped !== 3) throw new Error('unexpected jq-wasm build');
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
    return { stdout: out.toString('utf8', 0, outBytes), stderr: Buffer.concat(err).toString('utf8'), status };
  };
  // Prove the set-up on a trivial filter before trusting it.
  const probe = await run('{"a":[1,"x"]}', [...OUTPUT_FLAGS, '.a[]'], { maxOutputBytes: 1024, maxHeapBytes: 2 ** 30 });
  if (probe.status !== 0 || probe.stdout.trim() !== '1\nx') throw new Error('jq-wasm probe failed');
  return run;
}

/** jq-wasm's own API: correct, but quadratic in the size of the input and output, and unbounded. */
async function fallbackRunner(): Promise<JqRunner> {
  const jq = await import('jq-wasm');
  return async (input, args) => {
    const savedExit = process.exitCode;
    try {
      const filter = args[args.length - 1];
      const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
      return { stdout: await jq.raw(text, filter, args.slice(0, -1)), stderr: '', status: 0 };
    } catch (e) {
      const message = e instanceof Error ? e.message.replace(/^Failed to execute raw query: /, '') : String(e);
      return { stdout: '', stderr: message, status: /compile error/.test(message) ? 3 : 5 };
    } finally {
      process.exitCode = savedExit;
    }
  };
}
