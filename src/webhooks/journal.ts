// The spool's journal file (journal.ndjson): its records, reading it back
// into delivery state, and cutting a record torn by a crash. Writing is
// journal-writer.ts; the receiver's use of it is spool.ts.
//
// Records, one JSON object per line:
//   {"t":"event","id","digest","receivedAt","eventType","kid","jws","payload","target"}
//   {"t":"start","id","at"}                      a forward of the event is about to be sent
//   {"t":"attempt","id","at","status"|"error","n"}   that forward failed (no 2xx); n: refusals so far
//   {"t":"attempt",...,"n","outage":true}         the target could not be reached (n unchanged: never parks)
//   {"t":"parked","id","at","n","reason"}        a dead letter: refused n times (--max-attempts) or
//                                                refused for good by the target; not forwarded again
//                                                until `webhook replay --failed` delivers it
//   {"t":"delivered","id","at","status"}         the target answered 2xx (also written by replay)
// An event's state is its last record: a "start" with nothing after it is a
// forward a crash interrupted (it may have reached the target). Nothing is
// written for a parked event but its delivery, so "parked" stays its last
// record until then (compaction keeps it).
import { closeSync, createReadStream, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { parseJsonExact } from '../json/parse-exact.js';

export const JOURNAL = 'journal.ndjson';
/** A journal line longer than this is not a record we wrote (an event is at most 1 MiB of JWS plus its payload). */
export const MAX_RECORD_CHARS = 4 * 1024 * 1024;

export interface SpooledEvent {
  t: 'event';
  id: string;
  digest: string;
  receivedAt: string;
  eventType: string | null;
  kid: string | null;
  jws: string;
  payload: unknown;
  /** --forward-to when it was received (replay's default target). */
  target: string | null;
}

export interface DeliveryRecord {
  t: 'start' | 'attempt' | 'parked' | 'delivered';
  id: string;
  at: string;
  status?: number;
  error?: string;
  /** attempt, parked: failed forwards so far. */
  n?: number;
  /** parked: why ('max-attempts', 'target-abort'). */
  reason?: string;
  /** attempt: the target could not be reached (not counted in n: it never parks). */
  outage?: boolean;
}

export type JournalRecord = SpooledEvent | DeliveryRecord;

/**
 * An event's journal line, its payload given as the JSON text already written
 * for its digest (stringifyExact's): the same line as stringifyExact(record)
 * and a newline, without writing the payload a second time.
 */
export function eventLine(r: SpooledEvent, payloadJson: string): string {
  // null for a field that is missing at run time (never `undefined`, which is no JSON).
  const q = (v: unknown) => JSON.stringify(v ?? null);
  return `{"t":"event","id":${q(r.id)},"digest":${q(r.digest)},"receivedAt":${q(r.receivedAt)},"eventType":${q(r.eventType)},"kid":${q(r.kid)},"jws":${q(r.jws)},"payload":${payloadJson},"target":${q(r.target)}}\n`;
}

export class SpoolError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { code: 'SPOOL', exitCode: ExitCode.FAILURE, hint });
  }
}

/** A parsed line, or undefined for anything that is not a well-formed record. */
export function parseRecord(line: string): JournalRecord | undefined {
  if (line === '' || line.length > MAX_RECORD_CHARS) return undefined;
  let r: JournalRecord;
  try {
    // Exact: an event's payload keeps its numbers as signed (what `webhook replay` and doctor show).
    r = parseJsonExact(line) as JournalRecord;
  } catch {
    return undefined;
  }
  if (r === null || typeof r !== 'object' || typeof r.id !== 'string') return undefined;
  if (r.t === 'event') return typeof r.digest === 'string' ? r : undefined;
  return r.t === 'start' || r.t === 'attempt' || r.t === 'parked' || r.t === 'delivered' ? r : undefined;
}

/** A line of the journal that is not a record we wrote (a flipped byte, a bad sector, an edit): kept aside, never dropped. */
export interface UnreadableLine {
  /** Byte offset of the line in the journal. */
  offset: number;
  /** Its length in bytes, without the newline. */
  length: number;
  /** Its bytes (the first MAX_RECORD_CHARS of them when longer). */
  bytes: Buffer;
}

const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Calls `line` with every line of the file as bytes, with its byte offset
 * (the last line also without a final newline). A line longer than `cap`
 * bytes is passed cut to `cap`, with its full length: memory stays bounded.
 */
export async function eachLine(path: string, line: (bytes: Buffer, offset: number, length: number) => void, cap = MAX_RECORD_CHARS): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  let parts: Buffer[] = [];
  let held = 0; // bytes in parts (at most cap)
  let length = 0; // bytes of the current line so far
  let offset = 0; // where the current line starts
  const take = (chunk: Buffer) => {
    const room = cap - held;
    if (room > 0) {
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      parts.push(kept);
      held += kept.length;
    }
    length += chunk.length;
  };
  const end = () => {
    line(parts.length === 1 ? parts[0]! : Buffer.concat(parts), offset, length);
    offset += length + 1;
    parts = [];
    held = 0;
    length = 0;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      take(chunk.subarray(from, nl));
      end();
      from = nl + 1;
    }
    if (from < chunk.length) take(chunk.subarray(from));
  }
  if (length > 0) end();
}

/**
 * Calls `each` with every record of the journal, in order, and `unreadable`
 * with every line that is not one (not UTF-8, not JSON, not our shape, too
 * long); empty lines are neither. False when there is no journal.
 */
export async function eachRecord(path: string, each: (r: JournalRecord) => void, unreadable: (u: UnreadableLine) => void = () => undefined): Promise<boolean> {
  let thrown: unknown; // a caller's own failure passes through as it is
  const pass = <T>(f: (v: T) => void, v: T) => {
    try {
      f(v);
    } catch (err) {
      thrown = err;
      throw err;
    }
  };
  try {
    await eachLine(path, (bytes, offset, length) => {
      if (length === 0) return;
      let r: JournalRecord | undefined;
      if (length <= MAX_RECORD_CHARS) {
        try {
          r = parseRecord(strictUtf8.decode(bytes));
        } catch {
          r = undefined; // not UTF-8: a byte was changed
        }
      }
      if (r) pass(each, r);
      else pass(unreadable, { offset, length, bytes });
    });
  } catch (err) {
    if (err === thrown) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new SpoolError(`Cannot read the spool journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return true;
}

export interface JournalState {
  /** Every event, in arrival order. */
  events: SpooledEvent[];
  deliveredIds: Set<string>;
  /** Failed forwards per event. */
  attempts: Map<string, number>;
  /** Events a forward was started for and not recorded delivered: the next send is a redelivery. */
  sentBefore: Set<string>;
  /** Parked events (dead letters) not delivered since. */
  parked: Set<string>;
  /** Lines that are not records (damaged): their events cannot be delivered from the journal. */
  unreadable: number;
}

/** Reads the journal: every event in arrival order, with its delivery state, and how many lines could not be read. */
export async function readJournal(dir: string): Promise<JournalState> {
  const state: JournalState = { events: [], deliveredIds: new Set(), attempts: new Map(), sentBefore: new Set(), parked: new Set(), unreadable: 0 };
  await eachRecord(join(dir, JOURNAL), (r) => {
    if (r.t === 'event') state.events.push(r);
    else if (r.t === 'delivered') {
      state.deliveredIds.add(r.id);
      state.sentBefore.delete(r.id);
      state.parked.delete(r.id);
    } else {
      // Counted from n when written (a compacted journal keeps only the last record), else one per attempt.
      if (r.t === 'attempt' || r.t === 'parked') state.attempts.set(r.id, typeof r.n === 'number' ? r.n : (state.attempts.get(r.id) ?? 0) + (r.t === 'attempt' ? 1 : 0));
      if (r.t === 'parked' && !state.deliveredIds.has(r.id)) state.parked.add(r.id);
      if (!state.deliveredIds.has(r.id)) state.sentBefore.add(r.id);
    }
  }, () => state.unreadable++);
  return state;
}

/**
 * A record torn by a crash (no final newline) was never acknowledged (the
 * write had not returned): cut it, so the next append starts on a clean line.
 */
export function cutTornTail(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return;
  }
  try {
    const size = fstatSync(fd).size;
    let end = size;
    const buf = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const nl = buf.subarray(0, n).lastIndexOf(0x0a);
      if (nl !== -1) {
        end = start + nl + 1;
        break;
      }
      end = start;
    }
    if (end !== size) ftruncateSync(fd, end);
  } finally {
    closeSync(fd);
  }
}
