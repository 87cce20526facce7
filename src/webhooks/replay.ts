// `partner webhook replay`: re-delivers events kept in a listen spool, in
// arrival order, whatever their delivery state; with --failed, only the
// parked ones (dead letters), and a "delivered" record is appended for each
// the target takes, which unparks it. That append is the only write: a
// receiver may be running on the same spool (O_APPEND keeps both writers'
// lines whole; should a compaction replace the journal meanwhile, the record
// is written again to the new one).
import { closeSync, constants, existsSync, fdatasyncSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DeliveryClient } from '../api/delivery.js';
import { delivered, forwardBody, postEvent, type ForwardResult } from './forward.js';
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

/** The stored events a replay would send, oldest first. */
export async function selectEvents(dir: string, filter: ReplayFilter): Promise<SpooledEvent[]> {
  if (!existsSync(dir)) throw new SpoolError(`--spool ${dir} does not exist`, 'Pass the directory given to `partner webhook listen --spool`.');
  const why = untrustedReason(dir);
  if (why) throw new SpoolError(`Refusing --spool ${dir}: ${why}`, 'A spool must be a directory you own that only you can write to.');
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
 * and counts). Stops before the next event when the signal aborts.
 */
export async function* replay(events: SpooledEvent[], filter: ReplayFilter, client: DeliveryClient, signal?: AbortSignal): AsyncGenerator<ReplayOutcome> {
  for (const event of events) {
    if (signal?.aborted) return;
    const url = filter.to ?? event.target;
    if (!url) {
      yield { event, result: { url: '-', error: 'no target: it was received without --forward-to; pass --to URL' }, ok: false };
      continue;
    }
    // A parked event was sent before: the target may hold it (same id, flagged as a redelivery).
    const result = await postEvent(client, url, { digest: event.digest, eventType: event.eventType, kid: event.kid, body: forwardBody(event.jws, event.payload), redelivery: filter.failed === true }, signal);
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
