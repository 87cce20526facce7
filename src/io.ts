import { PassThrough, type Readable, type Writable } from 'node:stream';

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
  stderrIsTTY: boolean;
  /** Colour on stdout/stderr: TTY, no NO_COLOR, no --no-color. */
  color: boolean;
  /** Terminal width, for table truncation; undefined when not a TTY. */
  columns?: number;
  /** Prompts are allowed: stdin and stderr are terminals, not CI, no --no-input. */
  canPrompt: boolean;
}

export interface IOPreferences {
  color?: boolean; // false with --no-color
  input?: boolean; // false with --no-input
}

export function systemIO(env: NodeJS.ProcessEnv, prefs: IOPreferences = {}): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const stdinIsTTY = Boolean(process.stdin.isTTY);
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    color: colorAllowed(env, prefs) && stdoutIsTTY,
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    canPrompt: stdinIsTTY && stderrIsTTY && !isCI(env) && prefs.input !== false,
  };
}

export function colorAllowed(env: NodeJS.ProcessEnv, prefs: IOPreferences): boolean {
  return prefs.color !== false && env.NO_COLOR === undefined && env.TERM !== 'dumb';
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
export function testIO(opts: { stdin?: string; tty?: boolean; columns?: number; canPrompt?: boolean } = {}): TestIO {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const tty = opts.tty ?? false;
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    color: false,
    columns: tty ? (opts.columns ?? 120) : undefined,
    canPrompt: opts.canPrompt ?? false,
    out: () => Buffer.concat(out).toString('utf8'),
    err: () => Buffer.concat(err).toString('utf8'),
  };
}
