import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { CancelledError, CliError, ExitCode, UsageError } from '../errors.js';
import { jsonOf } from './depth.js';
import { SEA_ASSET, seaAssetText } from '../runtime/sea-assets.js';
import { OUTPUT_FLAGS, type JqLimits, type JqResult } from './jq-engine.js';
import type { JqJob, JqReply } from './jq-worker.js';

// `--jq EXPR`: a jq filter applied to one JSON document, with the embedded jq
// (jq-engine.ts), loaded only when the flag is used.
//
// jq runs synchronously inside WebAssembly: a filter that never ends
// (`last(range(1e15))`) would hold the thread that runs it, and no signal
// handler could ever run there. So it runs in a worker thread
// (dist/jq-worker.js): the main thread stays free, and Ctrl-C, `kill` or a
// closed terminal terminate the worker ("Cancelled.", exit 130). Each run is
// bounded: the document handed to jq, jq's output and jq's memory (JQ_LIMIT,
// exit 1). One worker serves the check of the filter and the run on the data.

const MiB = 1024 * 1024;
/** The largest document handed to jq: `--all --jq` holds every page in memory (as one document) and jq parses all of it. */
export const MAX_JQ_DOCUMENT_BYTES = 64 * MiB;
/**
 * The bounds of one run of jq on a document of `inputBytes`:
 * - its output: 1 MiB and four times the document, at most 256 MiB (a filter
 *   picks from or reshapes its input; one that prints far more generates
 *   without end, as `repeat(1)`, which the check against `null` before any
 *   request stops after 1 MiB);
 * - its own memory (the WebAssembly heap): jq's parsed document takes several
 *   times its JSON (a 16 MB export needed 64-128 MiB), so 64 MiB and eight
 *   times the document, at most 1 GiB.
 */
export function jqLimits(inputBytes: number): JqLimits {
  return {
    maxOutputBytes: Math.min(256 * MiB, MiB + 4 * inputBytes),
    maxHeapBytes: Math.min(1024 * MiB, 64 * MiB + 8 * inputBytes),
  };
}
/** The worker's JavaScript heap: the document's text and jq's output pass through it as strings. */
const WORKER_HEAP_MB = 768;

/** The signals cli.ts treats as Ctrl-C; jq's callers do not hand us the run's AbortSignal, so a run in flight listens too. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Compiles the filter (against `null`) and throws UsageError with jq's message if it does not compile. Sends nothing. */
export async function checkJqFilter(filter: string, signal?: AbortSignal): Promise<void> {
  if (filter.trim() === '') throw new UsageError('--jq needs a filter, for example --jq ".[].id"', undefined, 'INVALID_JQ');
  const res = await runJq('null', [...OUTPUT_FLAGS, filter], signal);
  // jq exits 3 on a compile error; 5 is a run-time error, which `null` as input may well cause.
  if (res.status === 3 || /compile error/.test(res.stderr)) {
    throw new UsageError(`Invalid --jq filter: ${jqMessage(res.stderr)}`, 'See https://jqlang.org/manual/ for the filter language.', 'INVALID_JQ');
  }
}

/** Applies the filter to one document; returns jq's output, one result per line (ends with a newline unless empty). */
export async function applyJq(value: unknown, filter: string, signal?: AbortSignal): Promise<string> {
  const input = jsonOf(value ?? null);
  // UTF-16 length: at least a third of the UTF-8 size; the exact size is counted only near the limit.
  if (input.length > MAX_JQ_DOCUMENT_BYTES / 3 && Buffer.byteLength(input, 'utf8') > MAX_JQ_DOCUMENT_BYTES) {
    throw new CliError(`The document for --jq is ${mib(Buffer.byteLength(input, 'utf8'))}, over its limit of ${mib(MAX_JQ_DOCUMENT_BYTES)}: --jq reads the whole output (every page of --all) as one document.`, {
      code: 'JQ_LIMIT',
      exitCode: ExitCode.FAILURE,
      hint: 'For a large export, stream it to jq instead: partner employees list --all -o ndjson | jq \'...\' (one record per line).',
    });
  }
  const res = await runJq(input, [...OUTPUT_FLAGS, filter], signal);
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

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

function limitError(what: 'output' | 'memory', limits: JqLimits): CliError {
  const message =
    what === 'output'
      ? `--jq stopped: the filter printed more than ${mib(limits.maxOutputBytes)}.`
      : `--jq stopped: the filter needed more than ${mib(limits.maxHeapBytes)} of memory.`;
  return new CliError(message, {
    code: 'JQ_LIMIT',
    exitCode: ExitCode.FAILURE,
    hint: 'Check that the filter ends (repeat, recurse and range without a bound do not), or narrow it; for a large export use -o ndjson | jq.',
  });
}

// ---------------------------------------------------------------------------
// Where jq runs

let worker: Worker | undefined;
/** The job in flight on the worker (one at a time: see runJq). */
let pending: { limits: JqLimits; resolve: (r: JqResult) => void; reject: (e: unknown) => void } | undefined;

/** The worker's script: dist/jq-worker.js beside the build, or its text inside the single executable. */
function workerUrl(): URL | string | undefined {
  const code = seaAssetText(SEA_ASSET.jqWorker);
  if (code !== undefined) return code;
  const url = new URL('./jq-worker.js', import.meta.url);
  // Only the build has the worker file (scripts/bundle.mjs); the sources (unit tests) run jq in this thread.
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

async function runJq(input: string, args: string[], signal?: AbortSignal): Promise<JqResult> {
  // input.length: UTF-16 units, within a factor of three of the UTF-8 bytes jq reads.
  const limits = jqLimits(input.length);
  const url = workerUrl();
  if (!url) {
    const { loadJqRunner, JqLimitExceeded } = await import('./jq-engine.js');
    try {
      return await (await loadJqRunner())(input, args, limits);
    } catch (e) {
      throw e instanceof JqLimitExceeded ? limitError(e.what, limits) : e;
    }
  }
  // One job at a time on the one worker (`webhook listen --jq` filters each event as it comes).
  const turn = queue.then(() => runInWorker(url, input, args, limits, signal));
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

/** The end of the last job queued for the worker. */
let queue: Promise<void> = Promise.resolve();

async function runInWorker(url: URL | string, input: string, args: string[], limits: JqLimits, signal?: AbortSignal): Promise<JqResult> {
  signal?.throwIfAborted();
  const w = await startWorker(url);
  return new Promise<JqResult>((resolve, reject) => {
    const stop = () => {
      finish();
      stopWorker();
      reject(new CancelledError());
    };
    const finish = () => {
      pending = undefined;
      for (const s of STOP_SIGNALS) process.off(s, stop);
      signal?.removeEventListener('abort', stop);
      // An idle worker does not keep the process alive.
      worker?.unref();
    };
    pending = {
      limits,
      resolve: (r) => {
        finish();
        resolve(r);
      },
      reject: (e) => {
        finish();
        reject(e);
      },
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
    signal?.addEventListener('abort', stop, { once: true });
    w.ref();
    w.postMessage({ input, args, limits } satisfies JqJob);
  });
}

async function startWorker(url: URL | string): Promise<Worker> {
  if (worker) return worker;
  const { Worker } = await import('node:worker_threads');
  const w = new Worker(url, { eval: typeof url === 'string', resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  w.on('message', (reply: JqReply) => {
    if (reply.ok) pending?.resolve({ stdout: reply.stdout, stderr: reply.stderr, status: reply.status });
    else if ('limit' in reply) pending?.reject(pending && limitError(reply.limit, pending.limits));
    else pending?.reject(new Error(`jq failed: ${reply.error}`));
  });
  w.on('error', (err: Error & { code?: string }) => {
    stopWorker();
    if (pending) pending.reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? limitError('memory', { ...pending.limits, maxHeapBytes: WORKER_HEAP_MB * MiB }) : err);
  });
  w.on('exit', (code) => {
    if (worker === w) worker = undefined;
    pending?.reject(new Error(`the jq worker exited with code ${code}`));
  });
  w.unref();
  worker = w;
  return w;
}

function stopWorker(): void {
  const w = worker;
  worker = undefined;
  void w?.terminate();
}
