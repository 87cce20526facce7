// The --state file on disk: one run at a time (a pid lock beside it), read
// (a damaged one moved aside, never overwritten), and replaced atomically
// (temp file, fsync, rename: output-file.ts) only once the output is whole.
import { rename, stat } from 'node:fs/promises';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { openOutputFile } from '../output/output-file.js';
import { writeChunk } from '../output/stream.js';
import { takePidLock } from '../pid-lock.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { readBaseline, type Baseline } from './baseline.js';
import { DamagedStateError, StateDamage, stateText, type StateHeader } from './state-format.js';

/** Takes the state's lock, or refuses: two runs never both read and replace one state. */
export function lockState(file: string): () => void {
  const lock = takePidLock(`${file}.lock`);
  if (lock.ok) return lock.release;
  const who = lock.holder ? ` (pid ${lock.holder})` : '';
  const why = lock.error ? `: ${lock.error.code ?? lock.error.message}` : '';
  throw new CliError(`Another partner run${who} is using --state ${sanitizeTerminal(file)}${why}; nothing was sent`, {
    code: 'STATE_BUSY',
    exitCode: ExitCode.FAILURE,
    hint: 'Run the exports that share a state file one after the other (a CI concurrency group), or give each its own --state file.',
  });
}

/** The state as it is, or undefined when there is none yet. A damaged one is moved aside and refused. */
export async function readState(file: string): Promise<Baseline | undefined> {
  try {
    await stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let baseline: Baseline;
  try {
    baseline = await readBaseline(file, '--state');
  } catch (err) {
    if (!(err instanceof StateDamage)) throw err;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, aside);
    throw new DamagedStateError(`${sanitizeTerminal(err.message)}; it was moved to ${sanitizeTerminal(aside)}`, 'Nothing was compared or written. Restore the state from where your job keeps it (the last committed one), or run again without it: every record is then reported as added.');
  }
  if (baseline.kind !== 'state') {
    throw new UsageError(`--state ${sanitizeTerminal(file)} is not a state file (it looks like a ${baseline.kind.toUpperCase()} export); it was left as it is`, 'Give --state a file partner writes (a new path the first time); to compare with this export, pass it as --changes-since.', 'STATE_NOT_STATE');
  }
  return baseline;
}

/** Replaces the state with these records (lines of JSON), atomically. */
export async function writeState(file: string, header: StateHeader, lines: readonly string[], onCleanup: (fn: () => unknown) => void): Promise<void> {
  const sink = await openOutputFile(file);
  onCleanup(() => sink.abort());
  try {
    await writeChunk(sink.stream, stateText(header, lines));
  } catch (err) {
    await sink.abort();
    throw sink.writeError() ?? err;
  }
  await sink.commit();
}
