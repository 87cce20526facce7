// `partner webhook replay`: re-delivers events kept in a listen spool, in
// arrival order, whatever their delivery state; with --failed, only the
// parked ones (dead letters), and a "delivered" record is appended for each
// the target takes, which unparks it. That append is the only journal write:
// a receiver may be running on the same spool (O_APPEND keeps both writers'
// lines whole; should a compaction replace the journal meanwhile, the record
// is written again to the new one). A running receiver never forwards a
// parked event, so the two never send the same one; two replays take turns
// (a lock per spool, replay.lock), the second reading the journal only once
// the first is done: each parked event is delivered once. Every record is
// verified again before it is sent (stored-verify.ts).
import { closeSync, constants, existsSync, fdatasyncSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DeliveryClient } from '../api/delivery.js';
import { setTimeout as delay } from 'node:timers/promises';
import { takePidLock } from '../pid-lock.js';
import { delivered, postEvent, type ForwardResult } from './forward.js';
import type { StoredCheck } from './stored-verify.js';
import { JOURNAL, readJournal, type DeliveryRecord, type SpooledEvent } from './journal.js';
import { untrustedReason } from './trust.js';
import { SpoolError } from './spool.js';

export interface ReplayFilter {
  /** Only events received at or after this time (ms since epoch). */
  since?: number;
  /** Only these event types. */
  eventTypes?: ReadonlySet<string>;
  /** Deliver here instead of the --forward-to each event was received with. */
  to?: string;
  /** Only parked events (dead letters); each one delivered is unparked. */
  failed?: boolean;
}

export interface ReplayOutcome {
  event: SpooledEvent;
  result: ForwardResult;
  ok: boolean;
}

const REPLAY_LOCK = 'replay.lock';
const LOCK_POLL_MS = 200;

/** A spool directory a replay may read: there, ours, written by nobody else. */
export function checkSpoolDir(dir: string): void {
  if (!existsSync(dir)) throw new SpoolError(`--spool ${dir} does not exist`, 'Pass the directory given to `partner webhook listen --spool`.');
  const why = untrustedReason(dir);
  if (why) throw new SpoolError(`Refusing --spool ${dir}: ${why}`, 'A spool must be a directory you own that only you can write to.');
}

/**
 * The spool's replay lock: taken now, or once the replay holding it is done
 * (`onWait` told once who that is). Resolves to its release; undefined when
 * `signal` aborted first. A lock left by a dead replay is taken over.
 */
export async function lockReplays(dir: string, signal: AbortSignal, onWait: (holder: number | undefined) => void): Promise<(() => void) | undefined> {
  let told = false;
  while (!signal.aborted) {
    const r = takePidLock(join(dir, REPLAY_LOCK));
    if (r.ok) return r.release;
    if (r.error) throw new SpoolError(`Cannot lock --spool ${dir} for a replay: ${r.error.code ?? r.error.message}`);
    if (!told) onWait(r.holder);
    told = true;
    await delay(LOCK_POLL_MS, undefined, { signal }).catch(() => undefined);
  }
  return undefined;
}

/** The stored events a replay would send, oldest first. */
export async function selectEvents(dir: string, filter: ReplayFilter): Promise<SpooledEvent[]> {
  checkSpoolDir(dir);
  const { events, parked } = await readJournal(dir);
  return events.filter((e) => {
    if (filter.failed && !parked.has(e.id)) return false;
    if (filter.since !== undefined) {
      const at = Date.parse(e.receivedAt);
      if (Number.isNaN(at) || at < filter.since) return false;
    }
    return filter.eventTypes === undefined || filter.eventTypes.has(e.eventType ?? '');
  });
}

/**
 * Sends each event once, in order, through `client` (one delivery client for
 * every target), yielding each outcome as it is known (the caller prints it
 * and counts). Each record is checked first (`check`: verified again); one
 * that fails is not sent and says why. Stops before the next event when the
 * signal aborts.
 */
export async function* replay(events: SpooledEvent[], filter: ReplayFilter, client: DeliveryClient, check: (e: SpooledEvent) => Promise<StoredCheck>, signal?: AbortSignal): AsyncGenerator<ReplayOutcome> {
  for (const event of events) {
    if (signal?.aborted) return;
    const url = filter.to ?? event.target;
    if (!url) {
      yield { event, result: { url: '-', error: 'no target: it was received without --forward-to; pass --to URL' }, ok: false };
      continue;
    }
    const checked = await check(event);
    if (!checked.ok) {
      yield { event, result: { url, error: `not sent: ${checked.reason}` }, ok: false };
      continue;
    }
    // Every replayed event was received before: the target may hold it (same id, flagged as a redelivery).
    const result = await postEvent(client, url, { digest: event.digest, eventType: event.eventType, kid: event.kid, body: checked.body, redelivery: true }, signal);
    yield { event, result, ok: delivered(result) };
  }
}

/**
 * Appends a record to the spool's journal, synced. Written again when the
 * journal was replaced while writing (a running receiver's compaction):
 * a record twice is harmless, a lost one would leave the event parked.
 */
export function appendRecord(dir: string, r: DeliveryRecord): void {
  const path = join(dir, JOURNAL);
  const line = Buffer.from(`${JSON.stringify(r)}\n`);
  for (let tries = 0; tries < 3; tries++) {
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    let ino: number;
    try {
      for (let off = 0; off < line.length; ) off += writeSync(fd, line, off, line.length - off);
      fdatasyncSync(fd);
      ino = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    if (statSync(path).ino === ino) return;
  }
}
