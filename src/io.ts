import { fstatSync, writeSync } from 'node:fs';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { isOutputGone, OutputWriteError } from './errors.js';

/**
 * All terminal I/O goes through one IO object. stdout carries results only;
 * prompts, progress, warnings and errors go to stderr.
 */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** stdout is a pipe or socket: another program reads it, and may be drawing on the same terminal (`| less`). */
  stdoutIsPipe: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout: a terminal (or FORCE_COLOR), no NO_COLOR, no --no-color. */
  color: boolean;
  /** Colour on stderr, decided for stderr itself: `2>file` gets no escapes. */
  stderrColor: boolean;
  /** Terminal width of stdout (tables, prose printed as a result); undefined when not a TTY. See terminalWidth. */
  columns?: number;
  /** Terminal width of stderr (messages, hints, prompts, the progress bar); undefined when not a TTY. See terminalWidth. */
  stderrColumns?: number;
  /** A progress bar may be drawn: stderr is a terminal and not CI. */
  progress: boolean;
  /** Prompts are allowed: stdin and stderr are terminals, not CI, no --no-input. */
  canPrompt: boolean;
}

export interface IOPreferences {
  color?: boolean; // false with --no-color
  input?: boolean; // false with --no-input
}

function isPipe(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * stdout on a file or a device (`> FILE`, `> /dev/full`). Node's own stream
 * for it ignores a short write (the disk filled, or `ulimit -f` was reached,
 * inside a write): the file is cut and the process exits 0. This one finishes
 * every short write, so the next write(2) reports the cause (ENOSPC, EFBIG),
 * and the failure stays on the stream (`errored`) for the entry point to
 * report. Synchronous, as Node's is: written when write() returns.
 */
export class FileOutput extends Writable {
  constructor(private readonly fd: number) {
    super({ decodeStrings: true });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    try {
      for (let at = 0; at < chunk.length; ) {
        const n = writeSync(this.fd, chunk, at, chunk.length - at);
        // write(2) never answers 0 for a regular file or a device unless something is badly wrong: fail rather than spin.
        if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
        at += n;
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  }
}

/** stdout as a stream: our checked writer for a file or a device; Node's for a terminal, a pipe or a socket (those finish every write). */
function stdoutStream(): Writable {
  let stream: Writable = process.stdout;
  try {
    const st = fstatSync(1);
    if (!process.stdout.isTTY && (st.isFile() || st.isCharacterDevice())) stream = new FileOutput(1);
  } catch {
    // No stdout at all (closed fd): Node's stream reports it as it writes.
  }
  // A failed write is read back from the stream (outputFailure) by whoever writes last; it must
  // never crash the process with Node's "Unhandled 'error' event" and a stack.
  if (stream !== process.stdout || process.stdout.listenerCount('error') === 0) stream.on('error', () => undefined);
  return stream;
}

/**
 * Why stdout cannot take more output: OutputWriteError (the disk is full, a
 * file-size limit: the output is cut), or undefined when it is fine or its
 * reader merely went away (`| head`: see OutputClosedError).
 */
export function outputFailure(stream: Writable): OutputWriteError | undefined {
  const err = stream.errored;
  return err && !isOutputGone(err) ? new OutputWriteError(err) : undefined;
}

/**
 * Resolves once what was written to `stream` has left the process (or failed).
 * An empty write's callback comes after every write before it: 'drain' alone
 * is emitted only after a write that was refused (past the high-water mark),
 * so a short last write still in flight to a slow pipe would never end it.
 */
export function outputFlushed(stream: Writable): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const settle = () => {
      stream.off('close', settle).off('error', settle);
      resolve();
    };
    stream.on('close', settle).on('error', settle);
    stream.write('', settle);
  });
}

export function systemIO(env: NodeJS.ProcessEnv, prefs: IOPreferences = {}): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const stdinIsTTY = Boolean(process.stdin.isTTY);
  return {
    stdin: process.stdin,
    stdout: stdoutStream(),
    stderr: process.stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stdoutIsPipe: isPipe(1),
    stderrIsTTY,
    color: streamColor(env, prefs, stdoutIsTTY),
    stderrColor: streamColor(env, prefs, stderrIsTTY),
    // Read when used: a terminal resized while a listener runs wraps its next line to the new width.
    get columns() {
      return terminalWidth(process.stdout, env);
    },
    get stderrColumns() {
      return terminalWidth(process.stderr, env);
    },
    progress: stderrIsTTY && !isCI(env),
    canPrompt: stdinIsTTY && stderrIsTTY && !isCI(env) && prefs.input !== false,
  };
}

/**
 * The width of one stream, each decided for itself (stdout may be piped while
 * stderr is the terminal): undefined when it is not a terminal (nothing is
 * wrapped for a file or a pipe); else what the terminal says of its size. A
 * terminal that says nothing (0: a pseudo-terminal never sized, a serial
 * console) is taken at COLUMNS when exported, else 80, so prose is still
 * broken at spaces by partner rather than inside words by the terminal.
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | undefined {
  if (!stream.isTTY) return undefined;
  if (stream.columns !== undefined && stream.columns > 0) return stream.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/**
 * Colour on one stream. --no-color and a non-empty NO_COLOR (no-color.org)
 * always win; FORCE_COLOR (1-3, or empty) turns it on even when piped, and
 * FORCE_COLOR=0 off; otherwise a terminal that is not TERM=dumb.
 */
export function streamColor(env: NodeJS.ProcessEnv, prefs: IOPreferences, isTTY: boolean): boolean {
  if (prefs.color === false || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

/** An environment switch is on when set to anything but '', '0' or 'false'. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return envFlag(env.CI);
}

export interface TestIO extends IO {
  out(): string;
  err(): string;
}

/** Buffers instead of the terminal, with TTY-ness chosen by the test. */
export function testIO(opts: { stdin?: string | Buffer; keepStdinOpen?: boolean; tty?: boolean; columns?: number; canPrompt?: boolean } = {}): TestIO {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const stdin = new PassThrough();
  // The input, or an empty stdin closed at once (unless the command must wait on it).
  if (opts.stdin !== undefined || !opts.keepStdinOpen) stdin.end(opts.stdin ?? '');
  const tty = opts.tty ?? false;
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stdoutIsPipe: false,
    stderrIsTTY: tty,
    color: false,
    stderrColor: false,
    columns: tty ? (opts.columns ?? 120) : undefined,
    stderrColumns: tty ? (opts.columns ?? 120) : undefined,
    progress: false,
    canPrompt: opts.canPrompt ?? false,
    out: () => Buffer.concat(out).toString('utf8'),
    err: () => Buffer.concat(err).toString('utf8'),
  };
}
