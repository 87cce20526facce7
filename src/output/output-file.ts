import { createWriteStream, type Stats } from 'node:fs';
import { chmod, rename, stat, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { CliError, ExitCode, UsageError } from '../errors.js';

/** New export files: owner only, as they hold personal data (names, emails, dates of birth). */
export const NEW_FILE_MODE = 0o600;

export interface OutputFile {
  /** Where the result goes: a temp file beside the target. Pass it to writeList as `out`. */
  stream: Writable;
  readonly path: string;
  readonly tempPath: string;
  /** Flushes to disk and renames the temp file over the target. */
  commit(): Promise<void>;
  /** Removes the temp file; the target is left as it was. Safe to call more than once, and after commit (a no-op). */
  abort(): Promise<void>;
  /** The write error (disk full…) as a CliError, if one happened; undefined otherwise. */
  writeError(): CliError | undefined;
}

/**
 * `--output-file PATH`, written atomically: the result goes to a temp file in
 * the same directory (so the final rename never crosses file systems), which
 * replaces PATH only when everything was written. On a failure or Ctrl-C the
 * caller aborts: the temp file is removed and a previous PATH is untouched.
 * A new file is created 0600; replacing an existing file keeps its mode.
 */
export async function openOutputFile(path: string): Promise<OutputFile> {
  const target = resolve(path);
  const dir = dirname(target);
  let existing: Stats | undefined;
  try {
    existing = await stat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, err);
  }
  if (existing && !existing.isFile()) throw new UsageError(`--output-file ${path} is not a regular file`, 'Give the path of a file to create or replace.', 'OUTPUT_FILE');
  // The global Web Crypto, loaded here when first used: an ES import of node:crypto would build the
  // whole module's facade (Web Crypto included) when every export starts.
  const tempPath = join(dir, `.${basename(target)}.${process.pid}.${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`);
  // 'wx': never follow or reuse something already there; flush: fsync before close.
  const stream = createWriteStream(tempPath, { flags: 'wx', mode: NEW_FILE_MODE, flush: true });
  try {
    await Promise.race([once(stream, 'ready'), once(stream, 'error').then(([err]) => Promise.reject(err))]);
  } catch (err) {
    throw cannotWrite(path, err);
  }
  if (existing) await chmod(tempPath, existing.mode & 0o777).catch(() => undefined);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let failure: Error | undefined;
  stream.on('error', (err) => {
    if (state === 'open') failure ??= err; // not the errors of our own destroy() in abort
  });

  const file: OutputFile = {
    stream,
    path: target,
    tempPath,
    async commit() {
      if (state !== 'open') return;
      try {
        if (!stream.closed && !failure) {
          const closed = closeOf(stream);
          stream.end();
          await closed; // after the data was flushed to disk and the file closed (or an error)
        }
        if (failure) throw failure;
        await rename(tempPath, target);
        state = 'committed';
      } catch (err) {
        await file.abort();
        throw writeFailure(path, err);
      }
    },
    writeError() {
      return failure ? writeFailure(path, failure) : undefined;
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      // Removed at once, without waiting for the descriptor to close: this also
      // runs on Ctrl-C, where the entry point exits within a second.
      stream.destroy();
      await unlink(tempPath).catch(() => undefined);
    },
  };
  return file;
}

function writeFailure(path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  return new CliError(`Could not finish --output-file ${path}: ${code ?? (err as Error).message}; the previous file (if any) is unchanged`, {
    code: 'OUTPUT_FILE_WRITE',
    exitCode: ExitCode.FAILURE,
    hint: code === 'ENOSPC' ? 'The disk is full: free some space and run the export again.' : undefined,
    cause: err,
  });
}

/** Resolves on 'close' (errors are recorded by the stream's error listener). */
function closeOf(stream: Writable): Promise<void> {
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

function cannotWrite(path: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'the directory does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (err as Error).message);
  return new UsageError(`Cannot write --output-file ${path}: ${why}`, 'Choose a path in an existing directory you can write to.', 'OUTPUT_FILE');
}
