// The plain parts of what a command is given: its streams, environment,
// global flags, abort signal, clock and logger. The context (context.ts)
// is built on these; services below it take the few of them they use
// (`Pick<RunBasics, 'io' | 'log'>`) rather than the whole context, which
// would make them depend on everything the context builds.
import type { IO } from './io.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  sandbox: boolean;
  debug: boolean;
  /** Per-request time limit, seconds. */
  timeout: number;
  color: boolean;
  input: boolean;
  /** false with --no-pager: output longer than the terminal is written as it is. */
  pager?: boolean;
}

export interface Logger {
  debug(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

export interface Clock {
  now(): number;
}

export interface RunBasics {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  clock: Clock;
  log: Logger;
}
