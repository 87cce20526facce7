// A command whose work is long and allocates without end (an export of every
// page) runs on a worker thread whose young generation is bounded when the
// thread is made: Node 24 lets a process's young generation grow to 128 MiB
// on a machine with memory to spare (Node 20: 32 MiB), so a 200,000-employee
// export peaked at twice the RSS of a 20,000 one, with a flat live heap. A
// worker's `resourceLimits` is a start-time setting of its own heap, not a V8
// flag changed in a running process. docs/ARCHITECTURE.md,
// "Exports on a worker thread".
//
// The worker is made by the launcher (runtime/command-thread.ts): before it loads
// the CLI when the arguments look like such a command (its start then overlaps
// the main thread's), or when asked here. It loads the CLI, then waits to be told the
// arguments: it runs the CLI's own main() on them, with an IO whose
// stdout and stderr are this process's, reached through the thread's port: each
// write is acknowledged once the main thread's stream has taken it (or failed:
// the worker's stream fails with the same error, so a full disk or a reader
// that left is told as it is without a worker). Ctrl-C and the other stop
// signals reach the worker as they would reach a process. The worker's exit
// code is the command's.
import { Writable } from 'node:stream';
import type { MessagePort, Worker } from 'node:worker_threads';
import { InterruptedError } from './errors.js';
import { outputFlushed, type IO } from './io.js';

/** Main to worker, first: what to run, and the main thread's terminal facts. */
interface Go {
  go: { argv: string[]; io: WorkerIOFacts };
}

type WorkerIOFacts = Omit<IO, 'stdin' | 'stdout' | 'stderr'>;

/** Worker to main: text for stdout (1) or stderr (2); answered by an Ack with the same id. */
interface Chunks {
  id: number;
  fd: 1 | 2;
  chunks: (string | Uint8Array)[];
}
/** Main to worker: a write was taken (or failed, with the main stream's error). */
interface Ack {
  ack: number;
  error?: { message: string; code?: string; errno?: number; syscall?: string };
}
/** Main to worker: a stop signal the process received. */
interface Signal {
  signal: NodeJS.Signals;
}

/**
 * Runs `argv` on a worker thread (`early`, when the launcher started one, or
 * one `start` makes) and gives its exit code, or undefined where the launcher
 * gave neither (the sources run in-process by tests, the single executable).
 * Stop signals (an InterruptedError on `signal`) are passed on.
 */
export async function runInWorker(argv: string[], io: IO, env: NodeJS.ProcessEnv, signal: AbortSignal, workers: { early?: Worker; start?: () => Promise<Worker> }): Promise<number | undefined> {
  const worker = workers.early ?? (await workers.start?.());
  if (!worker) return undefined;
  return runOnThread(worker, { go: { argv, io: ioFacts(io) } }, io, signal);
}

function ioFacts(io: IO): WorkerIOFacts {
  const { stdin: _in, stdout: _out, stderr: _err, ...facts } = io;
  // The worker never prompts: its stdin is not the terminal.
  return { ...facts, canPrompt: false };
}

/** The main thread's side of a command on `worker` (exported for its unit test): its writes, stop signals and exit code. */
export async function runOnThread(worker: Pick<Worker, 'ref' | 'on' | 'once' | 'postMessage'>, go: Go, io: IO, signal: AbortSignal): Promise<number> {
  // The command runs on it now: the process waits for it.
  worker.ref();
  const onAbort = () => {
    const reason: unknown = signal.reason;
    // A stop signal goes on; a stdout that failed is told to the worker by the write's Ack.
    if (reason instanceof InterruptedError) worker.postMessage({ signal: reason.signal ?? 'SIGINT' } satisfies Signal);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  worker.on('message', (m: Chunks) => write(m.fd === 1 ? io.stdout : io.stderr, m.chunks, (err) => worker.postMessage({ ack: m.id, ...(err ? { error: errorFacts(err) } : {}) } satisfies Ack)));
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', resolve);
      worker.postMessage(go);
      // Stopped before it was told (Ctrl-C while the main thread parsed): it stops at once.
      if (signal.aborted) onAbort();
    });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Writes `chunks` in order; `done` once the last is taken or one failed. */
function write(stream: Writable, chunks: (string | Uint8Array)[], done: (err?: Error | null) => void): void {
  let failed = false;
  chunks.forEach((chunk, i) => {
    stream.write(chunk, (err) => {
      if (failed) return;
      if (err) {
        failed = true;
        done(err);
      } else if (i === chunks.length - 1) done();
    });
  });
  if (chunks.length === 0) done();
}

function errorFacts(err: Error): NonNullable<Ack['error']> {
  const e = err as NodeJS.ErrnoException;
  return { message: e.message, code: e.code, errno: e.errno, syscall: e.syscall };
}

/** stdout or stderr of the main thread, as a stream of the worker's: a write's callback waits for the main thread's. */
class PortOutput extends Writable {
  private static nextId = 0;
  private static readonly pending = new Map<number, (err?: Error | null) => void>();

  constructor(
    private readonly port: MessagePort,
    private readonly fd: 1 | 2,
  ) {
    super({ decodeStrings: false });
  }

  static settle(ack: Ack): void {
    const done = PortOutput.pending.get(ack.ack);
    PortOutput.pending.delete(ack.ack);
    done?.(ack.error ? Object.assign(new Error(ack.error.message), ack.error) : null);
  }

  override _writev(chunks: { chunk: string | Uint8Array }[], callback: (err?: Error | null) => void): void {
    const id = PortOutput.nextId++;
    PortOutput.pending.set(id, callback);
    this.port.postMessage({ id, fd: this.fd, chunks: chunks.map((c) => c.chunk) } satisfies Chunks);
  }
}

/** The worker's side: `main` on the main thread's arguments and streams once told them; the thread then ends with its exit code. */
export async function serveWorker(main: (argv: string[], io: IO, env: NodeJS.ProcessEnv) => Promise<number>): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  const port = parentPort!;
  const go = new Promise<Go['go']>((resolve) => {
    port.on('message', (m: Go | Ack | Signal) => {
      if ('go' in m) resolve(m.go);
      // cli.ts listens for stop signals on `process`; a worker receives none of its own.
      else if ('signal' in m) process.emit(m.signal as 'SIGINT', m.signal);
      else PortOutput.settle(m);
    });
  });
  const { argv, io: facts } = await go;
  const io: IO = { ...facts, stdin: process.stdin, stdout: new PortOutput(port, 1), stderr: new PortOutput(port, 2) };
  const code = await main(argv, io, process.env);
  await outputFlushed(io.stderr);
  process.exit(code);
}
