// The receiver's webhook route: POSTs on --path are read under the bounds,
// verified like `webhook verify`, and answered by what became of the event.
// The acknowledgement contract: 2xx only when the event is safely kept —
// forwarded with a 2xx from the target, or appended (fsync'd) to the spool —
// or when nothing is asked of it (no --forward-to, or filtered out by
// --events). Otherwise 503 with Retry-After: the sender keeps it and retries.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, type BodyRead } from './body.js';
import type { ConnectionGuard } from './connection-guard.js';
import { delivered, digestOfJson, forwardBody, type DirectDelivery, type ForwardEvent } from './forward.js';
import type { KeyStore } from './jwks.js';
import type { ReceiverMetrics } from './metrics.js';
import { reply, replyAndClose, replyRetryLater } from './receiver-replies.js';
import { RETRY_AFTER_S, type ReceivedEvent, type ReceiverOptions, type ReceiverState } from './receiver-types.js';
import { stringifyExact } from '../json/stringify-exact.js';
import { MAX_WEBHOOK_BYTES, REASONS, tooLargeVerdict, verifyWebhook, type SignedText, type Verdict } from './verify.js';

export interface WebhookRouteDeps {
  opts: ReceiverOptions;
  store: KeyStore;
  metrics: ReceiverMetrics;
  guard: ConnectionGuard;
  /** Forwards without a spool (--forward-to alone). */
  direct?: DirectDelivery;
  state: ReceiverState;
  now: () => number;
  /** Reports an event (a failing report never stops the receiver). */
  report: (e: ReceivedEvent) => Promise<void>;
  onError: (message: string) => void;
}

/**
 * The answer for a verdict: 200 valid, 413 too large, 400 malformed or bad
 * payload, 503 when a rotated key may not be known yet (the refetch is held
 * back by the cool-down: a 401 would look permanent), 401 anything else
 * about the signature.
 */
export function statusForVerdict(v: Verdict): number {
  if (v.valid) return 200;
  if (v.retryAfterMs !== undefined) return 503;
  switch (v.reason) {
    case REASONS.TOO_LARGE:
      return 413;
    case REASONS.MALFORMED:
    case REASONS.PAYLOAD_NOT_JSON:
    case REASONS.PAYLOAD_SHAPE:
    case REASONS.EVENT_SHAPE:
      return 400;
    default:
      return 401;
  }
}

/** A POST on the webhook path: its body read within the bounds, then answered. */
export async function webhookRoute(req: IncomingMessage, res: ServerResponse, d: WebhookRouteDeps): Promise<void> {
  const time = new Date(d.now()).toISOString();
  d.metrics.received();
  const started = performance.now();
  res.once('finish', () => d.metrics.answered(res.statusCode, (performance.now() - started) / 1000));
  d.guard.set(req.socket, 'reading');
  const read = await readBody(req, { maxBytes: MAX_WEBHOOK_BYTES, deadlineMs: d.opts.readTimeoutMs, guard: d.guard, onEvict: () => d.metrics.connection('slow') });
  d.guard.set(req.socket, 'busy');
  if (!read.ok) return refuseUnread(read.why, res, time, d);
  try {
    await answerWebhook(read.body, time, res, d);
  } finally {
    read.release();
  }
}

/** A body that could not be read whole: answered at once (the rest is not read) and the connection closed. */
async function refuseUnread(why: Extract<BodyRead, { ok: false }>['why'], res: ServerResponse, time: string, d: WebhookRouteDeps): Promise<void> {
  if (why === 'too-large') {
    const verdict = tooLargeVerdict();
    d.metrics.refused(verdict.reason ?? 'TOO_LARGE');
    replyAndClose(res, 413, { error: verdict.reason, message: verdict.message });
    await d.report({ time, httpStatus: 413, verdict, filtered: false });
  } else if (why === 'timeout') {
    d.metrics.refused('REQUEST_TIMEOUT');
    replyAndClose(res, 408, { error: 'REQUEST_TIMEOUT', message: `the body did not arrive within ${d.opts.readTimeoutMs / 1000} s` });
  } else if (why === 'over-budget') {
    d.metrics.refused('BUSY');
    replyAndClose(res, 503, { error: 'BUSY', message: 'too many bodies being received; retry later' }, { 'retry-after': String(RETRY_AFTER_S) });
  } else res.socket?.destroy(); // the sender went away
}

/** Verifies a whole body and answers: refused, too old, or kept (stored or forwarded) and acknowledged. */
async function answerWebhook(body: Buffer, time: string, res: ServerResponse, d: WebhookRouteDeps): Promise<void> {
  const signed: SignedText = {};
  let verdict: Verdict;
  try {
    verdict = await verifyWebhook(body, d.store, signed);
  } catch (err) {
    // The key set could not be fetched: nothing is known about the webhook.
    d.onError(`could not verify a webhook: ${(err as Error).message}`);
    d.metrics.refused('KEYS_UNAVAILABLE');
    replyRetryLater(res, { error: 'KEYS_UNAVAILABLE', message: 'the signing key set could not be fetched' });
    return;
  }
  if (!verdict.valid) return refuseInvalid(verdict, res, time, d);
  d.metrics.verified();
  const event: ReceivedEvent = { time, httpStatus: 200, verdict, filtered: false };
  const stale = tooOld(verdict, d);
  if (stale) return refuseStale(event, stale, res, d);
  event.filtered = d.opts.events !== undefined && !d.opts.events.has(verdict.eventType ?? '');
  if (!event.filtered && (d.opts.spool || d.direct)) await keepEvent(event, body, signed.payloadText, d);
  if (event.httpStatus === 503) {
    d.metrics.refused('NOT_KEPT');
    replyRetryLater(res, { error: 'NOT_DELIVERED', message: `${event.problem}; retry later` });
  } else reply(res, 200, { received: true, eventType: verdict.eventType, ...(event.forward?.duplicate || event.spooled === 'duplicate' ? { duplicate: true } : {}) });
  await d.report(event);
}

async function refuseInvalid(verdict: Verdict, res: ServerResponse, time: string, d: WebhookRouteDeps): Promise<void> {
  const httpStatus = statusForVerdict(verdict);
  d.metrics.refused(verdict.reason ?? 'INVALID');
  const extra: Record<string, string> = httpStatus === 503 ? { 'retry-after': String(Math.max(1, Math.ceil((verdict.retryAfterMs ?? 0) / 1000))) } : {};
  reply(res, httpStatus, { error: verdict.reason, message: verdict.message }, extra);
  await d.report({ time, httpStatus, verdict, filtered: false });
}

/** Why --max-age refuses the event, or undefined when it passes (or is off). */
function tooOld(verdict: Verdict, d: WebhookRouteDeps): string | undefined {
  if (d.opts.maxAgeMs === undefined) return undefined;
  const at = verdict.timestamp === null ? NaN : Date.parse(verdict.timestamp);
  if (Number.isNaN(at)) return 'no timestamp to check --max-age against';
  return d.now() - at > d.opts.maxAgeMs ? `older than --max-age (timestamp ${verdict.timestamp})` : undefined;
}

async function refuseStale(event: ReceivedEvent, problem: string, res: ServerResponse, d: WebhookRouteDeps): Promise<void> {
  event.httpStatus = 400;
  event.problem = problem;
  d.metrics.refused('STALE_EVENT');
  reply(res, 400, { error: 'STALE_EVENT', message: `refused by --max-age: ${problem}` });
  await d.report(event);
}

/** Stores (spool) or forwards (direct) a valid event; a 503 and its problem on `event` when it was not kept. */
async function keepEvent(event: ReceivedEvent, body: Buffer, payloadText: string | undefined, d: WebhookRouteDeps): Promise<void> {
  const { verdict } = event;
  // Written once: the digest is of this text, and the journal's record holds it.
  const payloadJson = stringifyExact(verdict.payload);
  const digest = digestOfJson(payloadJson);
  if (d.opts.spool) {
    try {
      event.spooled = await d.opts.spool.accept({ digest, jws: bodyText(body), verdict, receivedAt: event.time, payloadJson, payloadText });
    } catch (err) {
      event.httpStatus = 503;
      event.problem = `not stored in the spool: ${(err as Error).message}`;
    }
  } else if (d.direct && !d.state.closed) {
    const fe: ForwardEvent = { digest, eventType: verdict.eventType, kid: verdict.kid, body: payloadText ?? forwardBody(body, verdict.payload) };
    event.forward = await d.direct.deliver(fe);
    if (!event.forward.duplicate) d.metrics.delivery({ result: event.forward });
    if (!delivered(event.forward)) {
      event.httpStatus = 503;
      event.problem = `the target did not take it (${event.forward.status !== undefined ? `HTTP ${event.forward.status}` : event.forward.error})`;
    }
  } else {
    event.httpStatus = 503;
    event.problem = 'the receiver is stopping';
  }
}

function bodyText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
