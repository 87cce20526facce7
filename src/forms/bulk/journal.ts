// The journal of a bulk run: one JSON line per step of a row, written
// (write(2), so a kill -9 or crash of partner cannot lose it) before the
// step's request goes out and after its answer, so a re-run knows which rows
// are done, which were created but not PATCHed, and which POST may have
// reached the server. The file is synced to disk in the background (one
// fdatasync at a time, covering every record written before it, at most one
// every SYNC_EVERY_MS) and at the end: a sync per record would put a disk
// flush on every row's path, and syncs back to back kept the disk (and, at
// times, the event loop) busy for the whole run. Only an OS crash or power
// loss can lose the last records (those of the last SYNC_EVERY_MS or so); the
// server's refusal of a second employee with the same work e-mail (409) still
// stops a duplicate.
// A row is known by what it is, never by its place in the sheet (rows are
// deleted, inserted and moved between runs): each record carries the row's
// key (a hash of its work e-mail, or of its values when it has none) and
// hashes of its values (identity.ts). It holds no cell values. Each
// line carries a checksum: a damaged record stops the run (a row whose record
// was lost could otherwise be created twice) instead of being skipped.
import { readFully } from '../../input.js';
import { createHash } from 'node:crypto';
import { closeSync, fdatasync, ftruncateSync, fstatSync, openSync, writeSync } from 'node:fs';
import { takePidLock } from '../../pid-lock.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
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
  /** The row of the sheet when recorded (for messages only: rows move). */
  row: number;
  /** Which row (employee) this is: identity.ts. Read from a version 1 or 2 record: legacyKey of its cells. */
  key: string;
  /** Its values (identity.ts), or in a version 1 or 2 record rowHash of its cells. */
  hash: string;
  /** Its values but the work e-mail (identity.ts); none in a version 1 or 2 record. */
  rest?: string;
  /** A short digest of each field (identity.ts), to name what changed and find an edited row without a work e-mail; none in older records. */
  fields?: string;
  state: RowState;
  id?: string;
  code?: string;
  error?: string;
  at?: string;
}

interface Header {
  kind: 'partner-bulk-journal';
  version: 1 | 2 | 3;
  entity: string;
}

/** Version 2: every record line ends with its checksum. Version 3: rows known by their key, not their place. */
const VERSION = 3;
/** Background syncs start at most this often: records written meanwhile share the next one. */
export const SYNC_EVERY_MS = 100;
/** A journal larger than this is not ours (a run of 1,000,000 rows writes ~300 MB; refuse rather than hold more). */
export const MAX_JOURNAL_BYTES = 512 * 1024 * 1024;

/** How a version 1 or 2 journal knew a row: a hash of its cells, in their place. */
export function rowHash(cells: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(cells)).digest('hex').slice(0, 32);
}

/** The key under which a record of a version 1 or 2 journal (it has none of its own, only the rowHash of its cells) is kept. */
export function legacyKey(hash: string): string {
  return `cells:${hash}`;
}

/** The checksum of a record line (its JSON without the sum). */
function sumOf(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 12);
}

/** `{...}` -> `{...,"sum":"…"}` */
export function sealed(json: string): string {
  return `${json.slice(0, -1)},"sum":"${sumOf(json)}"}`;
}

/** The entry of a sealed line, or undefined when the line is damaged. */
export function unseal(line: string): JournalEntry | undefined {
  const m = /^(\{.*),"sum":"([0-9a-f]{12})"\}$/.exec(line);
  if (!m || sumOf(`${m[1]}}`) !== m[2]) return undefined;
  return entryOf(`${m[1]}}`);
}

function entryOf(json: string): JournalEntry | undefined {
  let e: unknown;
  try {
    e = JSON.parse(json);
  } catch {
    return undefined;
  }
  // Not an object (null, a number, a string): it has no row.
  const x = e as Partial<JournalEntry> | null;
  if (!x || !Number.isSafeInteger(x.row) || (x.row as number) < 1 || typeof x.hash !== 'string' || !(['posting', 'created', 'done', 'conflict', 'rejected', 'patch-failed'] as unknown[]).includes(x.state)) return undefined;
  if ([x.id, x.code, x.key, x.rest, x.fields].some((v) => v !== undefined && typeof v !== 'string')) return undefined;
  return x as JournalEntry;
}

/** The fields of an entry that are set, these optional ones among them (nothing else an object carries). */
function fieldsOf(e: JournalEntry, optional: readonly ('rest' | 'fields' | 'id' | 'code' | 'error')[]): JournalEntry {
  const out: JournalEntry = { row: e.row, key: e.key, hash: e.hash, state: e.state };
  for (const k of optional) if (e[k] !== undefined) out[k] = e[k];
  return out;
}

/**
 * A row's fields as a record keeps them: the digests alone, comma-separated
 * (identity.ts; never the column names nor the values), written only when
 * they differ from the row's last record (the later records of a row carry
 * them over: a line per step, not a copy of the row per step).
 */
function compactFields(fields: string): string {
  return fields.includes('=') ? fields.split('\n').map((p) => p.slice(p.lastIndexOf('=') + 1)).join(',') : fields;
}

/** What is kept in memory of a record: only what a re-run decides by (one small entry per row). */
const slim = (e: JournalEntry) => fieldsOf(e, ['rest', 'fields', 'id', 'code']);

/** A failure to write the journal: the run stops (nothing more is sent). */
export class JournalWriteError extends CliError {
  constructor(path: string, err: NodeJS.ErrnoException) {
    const code = err.code ?? err.message;
    super(`Cannot write the journal ${path}: ${code}${code === 'ENOSPC' ? ' (the disk is full)' : code === 'EFBIG' ? ' (the file size limit was reached)' : ''}`, {
      code: 'BULK_JOURNAL_WRITE',
      exitCode: ExitCode.FAILURE,
      hint: 'Nothing more was sent. Free some space (or raise the limit), then run the same command again: rows already created are not created again.',
      cause: err,
    });
  }
}

export class Journal {
  /** The latest record of each row, by key. */
  private readonly latest = new Map<string, JournalEntry>();
  /** Records of a version 1 or 2 journal were read: rows without a key are looked up by legacyKey. */
  private legacyRecords = false;
  private fd: number | undefined;
  private header: Header | undefined;
  private failed: JournalWriteError | undefined;
  /** A background sync is running; `dirty`: records were written after it started. */
  private syncing: Promise<void> | undefined;
  private dirty: boolean | undefined;
  /** The next background sync, waiting for SYNC_EVERY_MS to pass since the last one started. */
  private syncTimer: NodeJS.Timeout | undefined;
  private lastSyncAt = -Infinity;

  private constructor(
    readonly path: string,
    private readonly entity: string,
  ) {}

  /** Opens (or, at the first record, starts) the journal at `path` for `entity`; a journal of another entity is refused. */
  static open(path: string, entity: string): Journal {
    const j = new Journal(path, entity);
    j.lock();
    try {
      j.load();
    } catch (err) {
      // Nothing was written yet: only the lock to give back, at once.
      j.unlock();
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
      this.release = r.release;
      return;
    }
    if (r.holder !== undefined) {
      // Not a usage mistake: the command line is fine, another process holds the file (exit 1).
      throw new CliError(`Another run (process ${r.holder}) is using the journal ${this.path}`, {
        code: 'BULK_BUSY',
        exitCode: ExitCode.FAILURE,
        hint: `Wait for it to finish: two runs of one file would create the same employees twice. If no run is going on, delete ${lockPath}.`,
      });
    }
    throw new CliError(`Cannot lock the journal ${this.path}${r.error ? `: ${r.error.code ?? r.error.message}` : ''}`, { code: 'BULK_JOURNAL', exitCode: ExitCode.FAILURE });
  }

  private release: (() => void) | undefined;

  /**
   * Reads what earlier runs recorded. A last line without its newline was
   * cut short by a crash while being written (its step never happened as far
   * as the journal knows): it is cut off. Any other damaged line stops the run.
   */
  private load(): void {
    const path = this.path;
    let fd: number;
    try {
      fd = openSync(path, 'r+');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new CliError(`Cannot read the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { code: 'BULK_JOURNAL', exitCode: ExitCode.FAILURE });
    }
    try {
      const size = fstatSync(fd).size;
      if (size > MAX_JOURNAL_BYTES) throw new UsageError(`${path} is not a partner bulk journal (${size} bytes)`, 'Move it away, or pass another --results path.', 'BULK_JOURNAL');
      const buf = readFully(fd, size);
      const got = buf.length;
      const end = buf.lastIndexOf(0x0a) + 1;
      // A record cut short by a crash: never completed, so never relied on.
      if (end < got) ftruncateSync(fd, end);
      const text = buf.subarray(0, end).toString('utf8');
      const lines = text.split('\n');
      lines.pop();
      if (!lines.length) return;
      let header: Partial<Header> = {};
      try {
        header = JSON.parse(lines[0]) as Header;
      } catch {
        /* checked below */
      }
      if (header.kind !== 'partner-bulk-journal') throw new UsageError(`${path} is not a partner bulk journal`, 'Move it away, or pass another --results path.', 'BULK_JOURNAL');
      if (header.entity !== this.entity) throw new UsageError(`The journal ${path} belongs to entity "${String(header.entity).slice(0, 80)}", not "${this.entity}"`, 'Pass another --results path for this entity.', 'BULK_JOURNAL');
      if (header.version !== 1 && header.version !== 2 && header.version !== VERSION) throw new UsageError(`The journal ${path} was written by another version of partner (version ${String(header.version).slice(0, 20)})`, 'Finish it with that version, or pass another --results path.', 'BULK_JOURNAL');
      this.header = header as Header;
      for (let i = 1; i < lines.length; i++) {
        const e = header.version === 1 ? entryOf(lines[i]) : unseal(lines[i]);
        if (!e) {
          throw new CliError(`The journal ${path} is damaged at line ${i + 1}: that record cannot be read`, {
            code: 'BULK_JOURNAL_DAMAGED',
            exitCode: ExitCode.FAILURE,
            hint: `Nothing was sent: the row of that record may already be created, and sending it again could create it twice. Check the employees of this run (partner employees list), then move ${path} away to start over, or restore it.`,
          });
        }
        if (e.key === undefined) {
          e.key = legacyKey(e.hash);
          this.legacyRecords = true;
        }
        // A later step of a row carries its fields over (written with the row's first record only).
        if (e.fields === undefined) {
          const before = this.latest.get(e.key);
          if (before?.fields !== undefined && before.hash === e.hash) e.fields = before.fields;
        }
        this.latest.set(e.key, slim(e));
      }
    } finally {
      closeSync(fd);
    }
  }

  /** The latest record of the row known by `key`. */
  get(key: string): JournalEntry | undefined {
    return this.latest.get(key);
  }

  /** Records read from a version 1 or 2 journal (known by legacyKey) are among them. */
  get legacy(): boolean {
    return this.legacyRecords;
  }

  /** The latest record of every row. */
  entries(): IterableIterator<JournalEntry> {
    return this.latest.values();
  }

  /**
   * Records a step: written before this returns (a kill cannot lose it),
   * synced to disk in the background. Throws JournalWriteError (a full disk)
   * now and for every later record: nothing more may be sent.
   */
  record(entry: JournalEntry): void {
    if (this.failed) throw this.failed;
    const e = fieldsOf(entry, ['rest', 'fields', 'id', 'code', 'error']);
    if (e.fields !== undefined) e.fields = compactFields(e.fields);
    const before = this.latest.get(entry.key);
    // Written once per row's values: a later step of the same row carries them over (load does the same).
    const written = before?.fields !== undefined && before.fields === e.fields && before.hash === e.hash ? { ...e, fields: undefined } : e;
    let text = '';
    try {
      if (this.fd === undefined) {
        this.fd = openSync(this.path, 'a', NEW_FILE_MODE);
        if (!this.header) {
          this.header = { kind: 'partner-bulk-journal', version: VERSION, entity: this.entity };
          text = `${JSON.stringify(this.header)}\n`;
        }
      }
      e.at = new Date().toISOString();
      written.at = e.at;
      writeAll(this.fd, `${text}${sealed(JSON.stringify(written))}\n`);
    } catch (err) {
      this.failed = new JournalWriteError(this.path, err as NodeJS.ErrnoException);
      throw this.failed;
    }
    this.latest.set(entry.key, slim(e));
    this.syncSoon();
  }

  private syncSoon(): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    if (this.syncTimer) return; // the sync it starts covers this record too
    const wait = this.lastSyncAt + SYNC_EVERY_MS - performance.now();
    if (wait > 0) {
      // No sync starts while this waits (syncSoon returns early), and close() clears it.
      this.syncTimer = setTimeout(() => {
        this.syncTimer = undefined;
        this.syncSoon();
      }, wait);
      // close() makes the last sync: a pending one never keeps the process alive.
      this.syncTimer.unref();
      return;
    }
    const fd = this.fd!;
    this.dirty = false;
    this.lastSyncAt = performance.now();
    this.syncing = new Promise<void>((resolve) => {
      fdatasync(fd, () => {
        // A failed background sync is found again by the last one, in close().
        this.syncing = undefined;
        if (this.dirty && this.fd === fd) this.syncSoon();
        resolve();
      });
    });
  }

  /** Syncs what was written (the last sync: its failure is reported), closes, and releases the lock. */
  async close(): Promise<void> {
    while (this.syncing) await this.syncing;
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) {
        try {
          if (!this.failed) await new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
        } catch (err) {
          this.failed = new JournalWriteError(this.path, err as NodeJS.ErrnoException);
          throw this.failed;
        } finally {
          closeSync(fd);
        }
      }
    } finally {
      this.unlock();
    }
  }

  private unlock(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

/** Writes the whole text (a short write is finished, not lost). */
function writeAll(fd: number, text: string): void {
  let buf = Buffer.from(text);
  while (buf.length) {
    const n = writeSync(fd, buf);
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    buf = buf.subarray(n);
  }
}
