// Read-modify-write of a local file shared by concurrent partner processes
// (the config file, a draft): under FILE.lock (pid-lock.ts), waiting a
// bounded time for another process to finish its (millisecond) update.
import { CliError, ExitCode } from '../errors.js';
import { waitForPidLock } from '../pid-lock.js';
import { errnoText } from './file.js';

/** How long an update waits for another process's: far above any real one, well below "hung". */
export const LOCK_WAIT_MS = 10_000;

/** Runs `fn` holding `${file}.lock`; `what` names the file in the error ("the config file"). The directory must exist. */
export function underLock<T>(file: string, what: string, fn: () => T, timeoutMs = LOCK_WAIT_MS): T {
  const lockPath = `${file}.lock`;
  const r = waitForPidLock(lockPath, timeoutMs);
  if (!r.ok) throw lockError(lockPath, what, r.holder, r.error, timeoutMs);
  try {
    return fn();
  } finally {
    r.release();
  }
}

function lockError(lockPath: string, what: string, holder: number | undefined, error: NodeJS.ErrnoException | undefined, timeoutMs: number): CliError {
  if (error) {
    return new CliError(`Cannot lock ${what}: cannot create ${lockPath}: ${errnoText(error.code ?? error.message)}`, {
      code: 'LOCK_FAILED',
      exitCode: ExitCode.FAILURE,
      hint: `Check that you can write to the directory of ${lockPath} (owner, permissions, free space).`,
    });
  }
  const who = holder === undefined ? 'another process' : `another partner process (pid ${holder})`;
  return new CliError(`Cannot change ${what}: ${who} has held its lock ${lockPath} for more than ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`, {
    code: 'LOCKED',
    exitCode: ExitCode.FAILURE,
    hint: `Wait for that process to finish and try again. If no partner is running, delete ${lockPath}.`,
  });
}
