// The local audit log of every write: "who changed what from
// this machine, and when". Each request that changes something (POST, PATCH,
// PUT, DELETE) appends a "sent" record before it goes out and an "answered"
// (or "failed") record with the same id once its outcome is known; a crash in
// between leaves a "sent" record alone, which the reader (read.ts) shows as
// outcome unknown. Never a token, a body or a query string (both may hold
// form values): the method, the path, the employee's id and the answer's
// status and correlation id.
//
// One NDJSON file, audit.ndjson, in partner's state directory (0700), 0600,
// opened per record with O_APPEND | O_NOFOLLOW and written with one write(2)
// of at most MAX_RECORD_BYTES: concurrent processes append whole lines. Past
// maxBytes it is rotated (audit.1.ndjson … audit.KEEP.ndjson, the oldest
// dropped) under audit.ndjson.lock.
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { ensurePrivateDir } from '../config/secure-files.js';
import { underLock } from '../config/locked-file.js';
import { errnoText } from '../config/file.js';
import { isUuid } from '../options.js';
import type { AuditEntry } from '../api/http.js';

export const AUDIT_FILE = 'audit.ndjson';
/** Where cut records (a write a full disk cut short) are set aside, one JSON line each with their bytes in base64. */
export const CUT_FILE = 'audit.cut.ndjson';
const NEWLINE = Buffer.from('\n');
/** Rotated files kept besides the current one: the log holds at most (KEEP + 1) × maxBytes. */
export const KEEP = 4;
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/**
 * One record, one write: under PIPE_BUF (4096 on Linux), so appends of
 * processes at once never interleave. The fields are clipped so that a record
 * fits even when every character takes 3 bytes.
 */
export const MAX_RECORD_BYTES = 4000;
/** How long a rotation waits for another process's (it only renames files). */
const ROTATE_LOCK_MS = 2000;

/** What a write is, as the log keeps it (every text field bounded: see clip). */
export interface SentRecord {
  v: 1;
  id: string;
  event: 'sent';
  time: string;
  profile: string;
  baseUrl: string;
  method: string;
  path: string;
  employee: string | null;
  command: string;
  user: string;
  pid: number;
}

export interface AnsweredRecord {
  v: 1;
  id: string;
  event: 'answered';
  time: string;
  status: number;
  correlationId: string | null;
  employee: string | null;
  /** The employee code the answer named (a create's 201), for the table's "whom". */
  employeeCode?: string | null;
}

export interface FailedRecord {
  v: 1;
  id: string;
  event: 'failed';
  time: string;
  /** The error's code (NETWORK, TIMEOUT, RESPONSE_CUT, INTERRUPTED…): the request may or may not have taken effect. */
  error: string;
}

export type AuditRecord = SentRecord | AnsweredRecord | FailedRecord;

/** Who and where: the same for every write of one command. */
export interface AuditScope {
  profile: string;
  baseUrl: string;
  command: string;
  user: string;
}

/** A text field as the log keeps it: control characters out, at most `max` characters. */
export function clip(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** The employee a path names (`/v1/employees/{uuid}/…`), or null. */
export function employeeOfPath(path: string): string | null {
  const m = /\/employees\/([^/?#]+)/.exec(path);
  return m && isUuid(m[1]!) ? m[1]!.toLowerCase() : null;
}

/** Who an answer is about: the id and the employee code of what it created (`{"id": "<uuid>", "employeeCode": "ACME-00046"}`, a gp create's 201); only a small body is looked at. */
export function identityOfAnswer(body: Uint8Array | undefined): { id: string | null; code: string | null } {
  const none = { id: null, code: null };
  if (!body || body.length === 0 || body.length > 64 * 1024) return none;
  try {
    // An array, a string or null has neither; JSON.parse gives no object an inherited one.
    const doc = JSON.parse(Buffer.from(body).toString('utf8')) as { id?: unknown; employeeCode?: unknown } | null;
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return none;
    const id = typeof doc.id === 'string' && isUuid(doc.id) ? doc.id.toLowerCase() : null;
    const code = typeof doc.employeeCode === 'string' ? clip(doc.employeeCode, 64) : '';
    return { id, code: code === '' ? null : code };
  } catch {
    return none;
  }
}

/** The id of what an answer created (`{"id": "<uuid>"}`, a gp create's 201), or null. */
export function employeeOfAnswer(body: Uint8Array | undefined): string | null {
  return identityOfAnswer(body).id;
}

/** The operating-system account running partner (the password database first: USER can be set to anything). */
export function osUser(env: NodeJS.ProcessEnv, info: () => { username: string } = userInfo): string {
  try {
    const name = info().username;
    if (name) return name;
  } catch {
    // A uid with no entry (containers): the environment, else the number.
  }
  return env.USER || env.LOGNAME || env.USERNAME || `uid ${process.getuid?.() ?? '?'}`;
}

/** The audit log could not take the record of a write: the write is not sent. */
export class AuditUnwritableError extends CliError {
  constructor(file: string, why: string, cause?: unknown) {
    super(`Cannot write the audit log ${file}: ${why}; the request was not sent`, {
      code: 'AUDIT_UNWRITABLE',
      exitCode: ExitCode.FAILURE,
      hint: `Every change partner sends is recorded there first. Free some space or fix the directory (it must be yours, 0700, not a link), point PARTNER_STATE_DIR at one you own, or turn the log off for this profile ("audit": false in its config: see \`partner audit list --help\`).`,
      cause,
    });
  }
}

export interface AuditLogOptions {
  dir: string;
  maxBytes?: number;
  now?: () => number;
  pid?: number;
  /** One write(2) of a buffer; returns the bytes written (tests: a full disk that cuts a write short). */
  write?: (fd: number, data: Buffer) => number;
}

/** The audit log of one directory. */
export class AuditLog {
  readonly file: string;
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly pid: number;
  private readonly writeOnce: (fd: number, data: Buffer) => number;

  constructor(opts: AuditLogOptions) {
    this.dir = opts.dir;
    this.file = join(opts.dir, AUDIT_FILE);
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.now = opts.now ?? Date.now;
    this.pid = opts.pid ?? process.pid;
    this.writeOnce = opts.write ?? ((fd, data) => writeSync(fd, data));
  }

  /** Records a write about to be sent and returns its other end; throws AuditUnwritableError when it cannot (the write must not go). */
  sent(scope: AuditScope, method: string, path: string): AuditEntry {
    const id = randomBytes(8).toString('hex');
    const employee = employeeOfPath(path);
    this.append({
      v: 1,
      id,
      event: 'sent',
      time: this.time(),
      profile: clip(scope.profile, 100),
      baseUrl: clip(scope.baseUrl, 200),
      method: clip(method, 10),
      path: clip(path, 400),
      employee,
      command: clip(scope.command, 200),
      user: clip(scope.user, 64),
      pid: this.pid,
    });
    // The outcome is best effort: the request is already out; a record it cannot add leaves "unknown".
    const finish = (record: AuditRecord) => {
      try {
        this.append(record);
      } catch {
        // Shown as outcome unknown, which is what it then is for the log.
      }
    };
    return {
      answered: (status, correlationId, body) => {
        const who = identityOfAnswer(body);
        finish({ v: 1, id, event: 'answered', time: this.time(), status, correlationId: correlationId === undefined ? null : clip(correlationId, 128), employee: employee ?? who.id, employeeCode: who.code });
      },
      failed: (err) => finish({ v: 1, id, event: 'failed', time: this.time(), error: clip(err instanceof CliError ? err.code : ((err as { code?: unknown })?.code as string | undefined) ?? 'ERROR', 40) }),
    };
  }

  private time(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * One record, one write(2), appended whole or not at all; then a rotation
   * when the file is past its cap. A cut tail (a write a full disk cut short,
   * here or in an earlier process) is set aside first, so a record never
   * glues onto it; a write cut short now is set aside at once.
   */
  private append(record: AuditRecord): void {
    // At most MAX_RECORD_BYTES: every text field is clipped (see sent()).
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    let size: number;
    try {
      this.ensureDir();
      // O_NONBLOCK: a FIFO planted in its place fails (ENXIO) instead of blocking the command for ever. O_RDWR: the tail is read to find a cut record.
      const fd = openSync(this.file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o600);
      try {
        const st = fstatSync(fd);
        if (!st.isFile()) throw new AuditUnwritableError(this.file, 'it is not a regular file');
        if (!endsWhole(fd, st.size)) this.setAsideCutTail(fd);
        const written = this.writeOnce(fd, line);
        if (written !== line.length) {
          // A short write is a full disk: the cut record is set aside now (or by the next append that can).
          try {
            this.setAsideCutTail(fd);
          } catch {
            // Found again before the next append.
          }
          throw new AuditUnwritableError(this.file, errnoText('ENOSPC'));
        }
        size = fstatSync(fd).size;
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if (err instanceof AuditUnwritableError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new AuditUnwritableError(this.file, code === 'ELOOP' ? 'it is a symbolic link, never followed' : errnoText(code ?? (err as Error).message), err);
    }
    if (size > this.maxBytes) this.rotate();
  }

  /**
   * Moves the cut record at the end of the log (the bytes after its last
   * newline) into audit.cut.ndjson, under the log's lock, and takes it off
   * the log. When that cannot be done (the disk still full, the lock held),
   * the log is only ended with a newline, which leaves the cut record a line
   * of its own (`audit list` counts it); when not even that can be written,
   * the append is refused: a record glued to a cut one is lost to the reader.
   */
  private setAsideCutTail(fd: number): void {
    try {
      underLock(this.file, 'the audit log', () => this.moveCutTail(fd), ROTATE_LOCK_MS);
    } catch {
      if (!endsWhole(fd, fstatSync(fd).size) && this.writeOnce(fd, NEWLINE) !== 1) throw new AuditUnwritableError(this.file, errnoText('ENOSPC'));
    }
  }

  /** The cut tail into audit.cut.ndjson, then off the log (the lock held). */
  private moveCutTail(fd: number): void {
    const size = fstatSync(fd).size;
    if (endsWhole(fd, size)) return; // another process did it meanwhile
    const start = lastLineStart(fd, size);
    const cut = Buffer.alloc(size - start);
    readSync(fd, cut, 0, cut.length, start);
    const aside = openSync(join(this.dir, CUT_FILE), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o600);
    try {
      if (!fstatSync(aside).isFile()) throw new Error(`${CUT_FILE} is not a regular file`);
      const kept = Buffer.from(`${JSON.stringify({ v: 1, time: this.time(), file: AUDIT_FILE, offset: start, bytes: cut.toString('base64') })}\n`);
      if (this.writeOnce(aside, kept) !== kept.length) throw new Error(`${CUT_FILE} was cut short`);
    } finally {
      closeSync(aside);
    }
    ftruncateSync(fd, start);
    // Junk longer than TAIL_BYTES keeps its head: ended as a line of its own.
    if (!endsWhole(fd, start) && this.writeOnce(fd, NEWLINE) !== 1) throw new Error('the log could not be ended with a newline');
  }

  /** The directory, 0700, created when missing; a symbolic link in its place is refused. */
  private ensureDir(): void {
    let isLink = false;
    try {
      isLink = lstatSync(this.dir).isSymbolicLink();
    } catch {
      // absent: created below
    }
    if (isLink) throw new AuditUnwritableError(this.file, `its directory ${this.dir} is a symbolic link, never followed`);
    ensurePrivateDir(this.dir);
  }

  /** audit.ndjson -> audit.1.ndjson -> ... -> audit.KEEP.ndjson (dropped), under the lock; skipped when another process holds it long. */
  private rotate(): void {
    try {
      underLock(this.file, 'the audit log', () => {
        // Another process may have rotated while we waited.
        if (lstatSync(this.file).size <= this.maxBytes) return;
        rmSync(rotated(this.dir, KEEP), { force: true });
        for (let n = KEEP - 1; n >= 1; n--) {
          try {
            renameSync(rotated(this.dir, n), rotated(this.dir, n + 1));
          } catch {
            // A gap in the numbering (a file removed by hand): the others still move.
          }
        }
        renameSync(this.file, rotated(this.dir, 1));
      }, ROTATE_LOCK_MS);
    } catch {
      // The record is written; the file is rotated by the next write that can.
    }
  }
}

/** The n-th rotated file (1 is the newest). */
export function rotated(dir: string, n: number): string {
  return join(dir, `audit.${n}.ndjson`);
}

/** The log is empty or ends with a newline: the next record starts a line of its own. */
function endsWhole(fd: number, size: number): boolean {
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/** How far back a cut record is looked for: far above one record. */
const TAIL_BYTES = 64 * 1024;

/** Where the last (unended) line of the log starts; at most TAIL_BYTES back. */
function lastLineStart(fd: number, size: number): number {
  const from = Math.max(0, size - TAIL_BYTES);
  const tail = Buffer.alloc(size - from);
  readSync(fd, tail, 0, tail.length, from);
  const nl = tail.lastIndexOf(0x0a);
  return nl < 0 ? from : from + nl + 1;
}
