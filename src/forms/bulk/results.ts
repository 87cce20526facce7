// The results CSV of a bulk run: one line per spreadsheet row, in input
// order, appended as rows finish, into a temp file beside the target that
// replaces it atomically when the run ends (0600 when new). Written
// synchronously: it also runs right after Ctrl-C, when the entry point gives
// the command a second to finish.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError, ExitCode } from '../../errors.js';
import { csvRecord } from '../../output/csv.js';

export type Outcome = 'created' | 'already-created' | 'invalid' | 'conflict' | 'rejected' | 'patch-failed' | 'failed' | 'not-run';

export interface Result {
  row: number;
  id?: string;
  code?: string;
  outcome: Outcome;
  error?: string;
}

export function defaultResultsPath(csvPath: string): string {
  const name = basename(csvPath).replace(/\.csv$/i, '');
  return join(dirname(csvPath), `${name}.results.csv`);
}

/** Lines gathered before one write (a write per row would cost a system call each). */
const BATCH_BYTES = 64 * 1024;

export class ResultsFile {
  private buffered = '';
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly temp: string,
    private fd: number,
  ) {}

  static create(path: string): ResultsFile {
    const target = resolve(path);
    const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    let fd: number;
    try {
      fd = openSync(temp, 'w', 0o600);
    } catch (err) {
      throw failure(path, err);
    }
    const f = new ResultsFile(path, temp, fd);
    f.add(['row', 'employeeId', 'employeeCode', 'outcome', 'error']);
    return f;
  }

  append(r: Result): void {
    this.add([r.row, r.id ?? '', r.code ?? '', r.outcome, r.error ?? '']);
  }

  private add(cells: (string | number)[]): void {
    this.buffered += csvRecord(cells);
    if (this.buffered.length >= BATCH_BYTES) this.flush();
  }

  private flush(): void {
    let buf = Buffer.from(this.buffered, 'utf8');
    this.buffered = '';
    try {
      while (buf.length) {
        const n = writeSync(this.fd, buf);
        buf = buf.subarray(n);
      }
    } catch (err) {
      throw failure(this.path, err);
    }
  }

  /** Complete: synced, then put in place of the target. */
  finish(): void {
    this.flush();
    try {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.closed = true;
      renameSync(this.temp, resolve(this.path));
    } catch (err) {
      this.abort();
      throw failure(this.path, err);
    }
  }

  /** Gives up: the temp file is removed, the target left as it was. */
  abort(): void {
    if (!this.closed) {
      try {
        closeSync(this.fd);
      } catch {
        /* closing is all that is left */
      }
      this.closed = true;
    }
    rmSync(this.temp, { force: true });
  }
}

function failure(path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  return new CliError(`Could not write the results file ${path}: ${code ?? (err as Error).message}${code === 'ENOSPC' ? ' (the disk is full)' : ''}`, {
    code: 'RESULTS_FILE',
    exitCode: ExitCode.FAILURE,
    hint: 'The journal beside it keeps what was done: free some space, then run the same command again to finish and write the results.',
    cause: err,
  });
}
