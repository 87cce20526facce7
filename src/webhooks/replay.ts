// `partner webhook replay`: re-delivers events kept in a listen spool, in
// arrival order, whatever their delivery state (the journal is only read:
// a receiver may be running on the same spool).
import type { DeliveryClient } from '../api/delivery.js';
import { delivered, postEvent, type ForwardResult } from './forward.js';
import { readJournal, type SpooledEvent } from './spool.js';
import { untrustedReason } from './trust.js';
import { SpoolError } from './spool.js';
import { existsSync } from 'node:fs';

export interface ReplayFilter {
  /** Only events received at or after this time (ms since epoch). */
  since?: number;
  /** Only these event types. */
  eventTypes?: ReadonlySet<string>;
  /** Deliver here instead of the --forward-to each event was received with. */
  to?: string;
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
  const { events } = await readJournal(dir);
  return events.filter((e) => {
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
    const result = await postEvent(client, url, { digest: event.digest, eventType: event.eventType, kid: event.kid, body: JSON.stringify(event.payload) }, signal);
    yield { event, result, ok: delivered(result) };
  }
}
