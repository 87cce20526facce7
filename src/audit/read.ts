// Reading the audit log (log.ts writes it): every file, oldest first, each
// line checked, and the records of one write folded into one entry: "sent"
// alone is a write whose outcome is unknown (partner stopped before it knew:
// a crash, kill -9, a power cut); "answered" gives the status; "failed" says
// the request went out and no answer came (it may or may not have taken effect).
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readFully } from '../input.js';
import { AUDIT_FILE, clip, CUT_FILE, KEEP, MAX_RECORD_BYTES, rotated } from './log.js';
import { join } from 'node:path';
export { AUDIT_FIELDS } from './fields.js';

export type Outcome = 'answered' | 'failed' | 'unknown';

/** One write, as `partner audit list` shows it. */
export interface AuditEntryView {
  time: string;
  outcome: Outcome;
  method: string;
  path: string;
  employee: string | null;
  /** The employee's code, when an answer named it (a create's 201; then every write of that employee shows it). */
  employeeCode: string | null;
  status: number | null;
  correlationId: string | null;
  error: string | null;
  profile: string;
  baseUrl: string;
  command: string;
  user: string;
  pid: number | null;
  id: string;
  answeredAt: string | null;
}

/** A file is read up to this much (a log is capped far below: KEEP + 1 files of 1 MiB by default). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? clip(v, max) : undefined);
const orNull = (v: unknown, max: number): string | null => str(v, max) ?? null;
const isTime = (v: unknown): v is string => typeof v === 'string' && v.length <= 40 && !Number.isNaN(Date.parse(v));

/** The text of one file of the log; empty when absent. Never through a symbolic link. */
function readLogFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return '';
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return '';
    return readFully(fd, Math.min(st.size, MAX_FILE_BYTES)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A record of the log, or undefined for anything else. */
function recordOf(text: string): Record<string, unknown> | undefined {
  try {
    const doc: unknown = JSON.parse(text);
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && (doc as { v?: unknown }).v === 1 && typeof (doc as { id?: unknown }).id === 'string') return doc as Record<string, unknown>;
  } catch {
    // Not JSON: cut by a full disk or a crash mid-write.
  }
  return undefined;
}

/** How every record starts (JSON.stringify of a record: "v" first). */
const RECORD_START = '{"v":1,';

/**
 * The records of the log's lines, in order, and how many lines could not be
 * read (cut, too long, not a record). A whole record glued to the end of a
 * cut one (written before partner set cut records aside) is still found.
 */
export function scanLines(text: string): { records: Record<string, unknown>[]; unreadable: number } {
  const records: Record<string, unknown>[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const record = line.length <= MAX_RECORD_BYTES ? recordOf(line) : undefined;
    if (record) {
      records.push(record);
      continue;
    }
    unreadable++;
    const glued = line.lastIndexOf(RECORD_START);
    const tail = glued > 0 && line.length - glued <= MAX_RECORD_BYTES ? recordOf(line.slice(glued)) : undefined;
    if (tail) records.push(tail);
  }
  return { records, unreadable };
}

/** The records of the log's lines, in order; lines that are cut, too long or not a record are skipped. */
export function parseLines(text: string): Record<string, unknown>[] {
  return scanLines(text).records;
}

/** Folds records (oldest first) into one entry per write, in the order they were sent. */
export function fold(records: Record<string, unknown>[]): AuditEntryView[] {
  const byId = new Map<string, AuditEntryView>();
  for (const r of records) {
    const id = clip(r.id as string, 32);
    if (r.event === 'sent') {
      if (!isTime(r.time) || byId.has(id)) continue;
      byId.set(id, {
        time: r.time,
        outcome: 'unknown',
        method: str(r.method, 10) ?? '',
        path: str(r.path, 400) ?? '',
        employee: orNull(r.employee, 36),
        employeeCode: null,
        status: null,
        correlationId: null,
        error: null,
        profile: str(r.profile, 100) ?? '',
        baseUrl: str(r.baseUrl, 200) ?? '',
        command: str(r.command, 200) ?? '',
        user: str(r.user, 64) ?? '',
        pid: Number.isSafeInteger(r.pid) ? (r.pid as number) : null,
        id,
        answeredAt: null,
      });
      continue;
    }
    // An outcome whose "sent" record was rotated away is not shown: nothing says what it was.
    const e = byId.get(id);
    if (!e || e.outcome !== 'unknown' || !isTime(r.time)) continue;
    if (r.event === 'answered' && Number.isSafeInteger(r.status)) {
      e.outcome = 'answered';
      e.status = r.status as number;
      e.correlationId = orNull(r.correlationId, 128);
      e.employee ??= orNull(r.employee, 36);
      e.employeeCode = orNull(r.employeeCode, 64);
      e.answeredAt = r.time;
    } else if (r.event === 'failed') {
      e.outcome = 'failed';
      e.error = str(r.error, 40) ?? 'ERROR';
      e.answeredAt = r.time;
    }
  }
  const entries = [...byId.values()].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  // An employee's code, once an answer named it, for every write of that employee (its PATCH after the POST).
  const codes = new Map<string, string>();
  for (const e of entries) if (e.employee && e.employeeCode) codes.set(e.employee, e.employeeCode);
  for (const e of entries) if (e.employee && !e.employeeCode) e.employeeCode = codes.get(e.employee) ?? null;
  return entries;
}

/** The log as `audit list` shows it: every write, and what could not be read. */
export interface AuditRead {
  entries: AuditEntryView[];
  /** Lines of the log that are not a whole record (cut by a full disk or a crash, damaged). */
  unreadable: number;
  /** Cut records a later write set aside in audit.cut.ndjson. */
  setAside: number;
}

/** Every write in the log of `dir`, oldest first; with `since` (ms since epoch), only those sent at or after it. */
export function readAuditLog(dir: string, since?: number): AuditRead {
  const files = [...Array.from({ length: KEEP }, (_, i) => rotated(dir, KEEP - i)), join(dir, AUDIT_FILE)];
  const records: Record<string, unknown>[] = [];
  let unreadable = 0;
  for (const f of files) {
    const scan = scanLines(readLogFile(f));
    for (const r of scan.records) records.push(r);
    unreadable += scan.unreadable;
  }
  const all = fold(records);
  const setAside = readLogFile(join(dir, CUT_FILE)).split('\n').filter((l) => l !== '').length;
  return { entries: since === undefined ? all : all.filter((e) => Date.parse(e.time) >= since), unreadable, setAside };
}

/** Every write in the log of `dir`, oldest first; with `since` (ms since epoch), only those sent at or after it. */
export function readAudit(dir: string, since?: number): AuditEntryView[] {
  return readAuditLog(dir, since).entries;
}
