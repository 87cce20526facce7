// The journal of a bulk run: one JSON line per step of a row, appended and
// fsynced before and after each request, so a re-run after a crash, kill or
// Ctrl-C knows which rows are done, which were created but not PATCHed, and
// which POST may have reached the server. It holds no cell values: a row is
// recognised by a hash of its cells.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { takePidLock } from '../../pid-lock.js';
import { UsageError } from '../../errors.js';
import { NEW_FILE_MODE } from '../../output/output-file.js';

export type RowState =
  /** The POST is about to be sent (or was sent and no answer was recorded). */
  | 'posting'
  /** POST answered 201; the PATCH is still to do. */
  | 'created'
  /** Created and PATCHed (or nothing to PATCH). */
  | 'done'
  | 'conflict'
  | 'rejected'
  | 'patch-failed';

export interface JournalEntry {
  row: number;
  hash: string;
  state: RowState;
  id?: string;
  code?: string;
  error?: string;
  at?: string;
}

interface Header {
  kind: 'partner-bulk-journal';
  version: 1;
  entity: string;
}


export function rowHash(cells: string[]): string {
  return createHash('sha256').update(JSON.stringify(cells)).digest('hex').slice(0, 32);
}

export class Journal {
  private readonly latest = new Map<number, JournalEntry>();
  private fd: number | undefined;
  private locked = false;

  private constructor(readonly path: string) {}

  /** Opens (or starts) the journal at `path` for `entity`; a journal of another entity is refused. */
  static open(path: string, entity: string): Journal {
    const j = new Journal(path);
    j.lock();
    try {
      j.load(entity);
    } catch (err) {
      j.close();
      throw err;
    }
    return j;
  }

  /**
   * One run per journal: PATH.lock holds the running process id. A lock left
   * by a process that no longer exists (killed) is taken over.
   */
  private lock(): void {
    const lockPath = `${this.path}.lock`;
    const r = takePidLock(lockPath);
    if (r.ok) {
      this.locked = true;
      return;
    }
    if (r.holder !== undefined) {
      throw new UsageError(`Another run (process ${r.holder}) is using the journal ${this.path}`, `Wait for it to finish: two runs of one file would create the same employees twice. If no run is going on, delete ${lockPath}.`, 'BULK_BUSY');
    }
    throw new UsageError(`Cannot lock the journal ${this.path}${r.error ? `: ${r.error.code ?? r.error.message}` : ''}`, undefined, 'BULK_JOURNAL');
  }

  private load(entity: string): void {
    const j = this;
    const path = this.path;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, undefined, 'BULK_JOURNAL');
    }
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length) {
      let header: Partial<Header> = {};
      try {
        header = JSON.parse(lines[0]) as Header;
      } catch {
        /* checked below */
      }
      if (header.kind !== 'partner-bulk-journal') throw new UsageError(`${path} is not a partner bulk journal`, 'Move it away, or pass another --results path.', 'BULK_JOURNAL');
      if (header.entity !== entity) throw new UsageError(`The journal ${path} belongs to entity "${String(header.entity).slice(0, 80)}", not "${entity}"`, 'Pass another --results path for this entity.', 'BULK_JOURNAL');
      for (const line of lines.slice(1)) {
        try {
          const e = JSON.parse(line) as JournalEntry;
          if (typeof e.row === 'number' && typeof e.state === 'string') j.latest.set(e.row, e);
        } catch {
          // A line cut short by a crash: the entry before it stands.
        }
      }
    }
    j.fd = openSync(path, 'a', NEW_FILE_MODE);
    if (!lines.length) j.write({ kind: 'partner-bulk-journal', version: 1, entity } satisfies Header);
  }

  get(row: number): JournalEntry | undefined {
    return this.latest.get(row);
  }

  record(entry: JournalEntry): void {
    const e = { ...entry, at: new Date().toISOString() };
    this.latest.set(entry.row, e);
    this.write(e);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.locked) rmSync(`${this.path}.lock`, { force: true });
    this.locked = false;
  }

  private write(value: unknown): void {
    if (this.fd === undefined) throw new Error('journal closed');
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
    fsyncSync(this.fd);
  }
}
