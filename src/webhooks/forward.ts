// Forwarding a verified event to the partner's own endpoint, and the
// acknowledgement contract of `webhook listen --forward-to`: the sender gets
// 2xx only once the event is safely kept (the target answered 2xx, or it is
// in the spool); otherwise 503 with Retry-After, so the sender retries.
import { hash } from 'node:crypto';
import { DeliveryError, HttpDeliveryClient, type DeliveryClient } from '../api/delivery.js';
import { InterruptedError } from '../errors.js';
import { signedPayloadText } from './jws.js';
import { stringifyExact } from '../json/stringify-exact.js';
import { failureKind, outageReason, type TargetHealth } from './target-health.js';

export interface ForwardResult {
  url: string;
  status?: number;
  error?: string;
  /** Already delivered within the dedupe window: not sent again. */
  duplicate?: boolean;
  /** The target refused it for good (ABORT_HEADER): it is parked, never retried. */
  abort?: boolean;
  /** Not taken, and the target asked to wait this long first (Retry-After, capped at MAX_RETRY_AFTER_MS). */
  retryAfterMs?: number;
}

/** A Retry-After longer than this is read as this (a target asking for a day must not stall the spool for a day). */
export const MAX_RETRY_AFTER_MS = 5 * 60 * 1000;

/** Retry-After as ms (delay-seconds or an HTTP date), capped; undefined when absent or unreadable. */
export function retryAfterMs(headers: Record<string, string | string[] | undefined> | undefined, now = Date.now()): number | undefined {
  const raw = headers?.['retry-after'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!v) return undefined;
  let ms: number;
  if (/^\d{1,10}$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * A target answers a forward with `webhook-delivery: abort` (the header
 * Svix's senders honour) to say "never retry this one": the spool parks it
 * at once (webhook replay --failed can still send it).
 */
export const ABORT_HEADER = 'webhook-delivery';

/** Whether a reply's headers say the event must not be retried. */
export function saysAbort(headers: Record<string, string | string[] | undefined> | undefined): boolean {
  const v = headers?.[ABORT_HEADER];
  return (Array.isArray(v) ? v : [v]).some((x) => typeof x === 'string' && x.trim().toLowerCase() === 'abort');
}

export function delivered(r: ForwardResult): boolean {
  return r.duplicate === true || (r.status !== undefined && r.status >= 200 && r.status < 300);
}

/**
 * The identity of an event: SHA-256 of its decoded payload as signed. Not of
 * the JWS bytes: ECDSA signatures are malleable (a high-S copy verifies too),
 * so a replayed event can arrive with different bytes.
 */
export function payloadDigest(payload: unknown): string {
  return digestOfJson(stringifyExact(payload));
}

/** payloadDigest from the payload's JSON text as stringifyExact wrote it (a receiver that writes that text to the journal too). */
export function digestOfJson(json: string): string {
  // One call, no Hash object: a digest for every event the receiver takes.
  return hash('sha256', json, 'hex');
}

/**
 * What a target receives for a verified webhook: its payload exactly as
 * signed (every number's digits as sent). A JWS that no longer reads (a
 * journal edited by hand) sends the payload as it was stored.
 */
export function forwardBody(jws: string | Uint8Array, payload: unknown): string {
  try {
    return signedPayloadText(jws);
  } catch {
    return JSON.stringify(payload);
  }
}

export interface ForwardEvent {
  digest: string;
  eventType: string | null;
  kid: string | null;
  /** The payload as JSON text (what the target receives). */
  body: string;
  /** Sent before (a forward a crash interrupted, or a failed one): the target may have it already. */
  redelivery?: boolean;
}

/**
 * How long a forward may run before it is abandoned: a target that answers
 * slowly has usually done the work, so giving up (and sending again) early
 * would deliver it twice. The sender is answered 503 after --forward-timeout
 * while this runs on; its retry joins this forward instead of starting one.
 */
export function abandonAfterMs(forwardTimeoutMs: number): number {
  return Math.max(60_000, 6 * forwardTimeoutMs);
}

/** Keep-alive connections of a forwarder's own client: sized for concurrent deliveries (50 senders at once). */
export const FORWARD_CONNECTIONS = 64;

/**
 * POSTs one event to `url` through the delivery client (api/delivery.ts: no
 * retries, a total deadline, the reply discarded): the target's status, or
 * why there is none. Never throws.
 */
export async function postEvent(client: DeliveryClient, url: string, e: ForwardEvent, stop?: AbortSignal): Promise<ForwardResult> {
  try {
    const res = await client.deliver(url, {
      signal: stop,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'partner-cli-webhook-listen',
        'x-partner-event-type': asciiHeader(e.eventType ?? ''),
        'x-partner-webhook-kid': asciiHeader(e.kid ?? ''),
        // Lets the target drop a copy it already has (a crash between its 2xx and our record of it).
        'x-partner-event-id': e.digest,
        ...(e.redelivery ? { 'x-partner-redelivery': '1' } : {}),
      },
      body: e.body,
    });
    if (res.status >= 200 && res.status < 300) return { url, status: res.status };
    const wait = retryAfterMs(res.headers);
    return { url, status: res.status, ...(saysAbort(res.headers) ? { abort: true } : {}), ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  } catch (err) {
    if (err instanceof InterruptedError || stop?.aborted) return { url, error: 'stopped' };
    if (err instanceof DeliveryError) return { url, error: err.reason };
    return { url, error: (err as Error).message };
  }
}

/**
 * Posts events to one target. The client comes from the context
 * (`ctx.delivery()`, which closes it); without one the
 * forwarder makes and owns a delivery client of its own.
 */
export class Forwarder {
  private readonly client: DeliveryClient;
  private readonly owned: boolean;
  /** Aborts every post in flight on close. */
  private readonly stopAll = new AbortController();

  constructor(
    readonly url: string,
    clientOrTimeoutMs: DeliveryClient | number,
  ) {
    this.owned = typeof clientOrTimeoutMs === 'number';
    this.client = typeof clientOrTimeoutMs === 'number' ? new HttpDeliveryClient({ userAgent: 'partner-cli-webhook-listen', timeoutMs: clientOrTimeoutMs, connections: FORWARD_CONNECTIONS }) : clientOrTimeoutMs;
  }

  /** `stop` joined with close(), made once per stop signal (the spool passes the same one for every post). */
  private readonly joined = new WeakMap<AbortSignal, AbortSignal>();

  post(e: ForwardEvent, url = this.url, stop?: AbortSignal): Promise<ForwardResult> {
    let signal = this.stopAll.signal;
    if (stop) {
      signal = this.joined.get(stop) ?? AbortSignal.any([stop, this.stopAll.signal]);
      this.joined.set(stop, signal);
    }
    return postEvent(this.client, url, e, signal);
  }

  /** Stops at once: a forward still in flight is abandoned (its sender got no 2xx, so it retries). */
  async close(): Promise<void> {
    this.stopAll.abort();
    if (this.owned) await this.client.close();
  }
}

/** Header values must be visible ASCII: anything else (an event type with U+200B) is escaped. */
function asciiHeader(v: string): string {
  return v.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 200);
}

/**
 * Digests seen within a time window, bounded in count (oldest forgotten first).
 * The spool's holds up to a million (a day of events), so an entry is kept
 * small: 69 bytes of heap, not 133 (measured) — the digest's first 128 bits
 * as 16 one-byte characters instead of 64 hex ones, and the time as
 * milliseconds since the window was made (a small integer V8 stores inline,
 * not a boxed number).
 */
export class DedupeWindow {
  private readonly seen = new Map<string, number>();
  private readonly base: number;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.base = this.now();
  }

  has(digest: string): boolean {
    const key = keyOf(digest);
    const at = this.seen.get(key);
    if (at === undefined) return false;
    if (this.now() - (this.base + at) > this.windowMs) {
      this.seen.delete(key);
      return false;
    }
    return true;
  }

  add(digest: string, at = this.now()): void {
    const key = keyOf(digest);
    this.seen.delete(key);
    this.seen.set(key, at - this.base);
    // Maps iterate in insertion order: the first entries are the oldest.
    while (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value!);
  }
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/**
 * A SHA-256 digest in hex (payloadDigest) as its first 128 bits, one
 * character a byte (two digests of a million events sharing them: a chance
 * of about 1 in 10^27); anything else as it is.
 */
function keyOf(digest: string): string {
  return HEX_DIGEST.test(digest) ? Buffer.from(digest.slice(0, 32), 'hex').toString('latin1') : digest;
}

/**
 * Direct forwarding (no spool): an event counts as kept only when the target
 * answered 2xx. Concurrent copies of one event share one delivery; a copy
 * that arrives after a delivery is acknowledged without sending it again.
 */
export class DirectDelivery {
  private readonly inflight = new Map<string, Promise<ForwardResult>>();
  readonly done: DedupeWindow;

  /**
   * @param forwarder posts with the long abandon deadline (abandonAfterMs)
   * @param answerWithinMs --forward-timeout: how long a sender waits for the outcome
   */
  constructor(
    private readonly forwarder: Forwarder,
    private readonly answerWithinMs: number,
    windowMs: number,
    now?: () => number,
    /** Told whether each forward found the target reachable (for /healthz and the listener's line). */
    private readonly target?: TargetHealth,
  ) {
    this.done = new DedupeWindow(windowMs, 100_000, now);
  }

  deliver(e: ForwardEvent): Promise<ForwardResult> {
    if (this.done.has(e.digest)) return Promise.resolve({ url: this.forwarder.url, duplicate: true });
    let p = this.inflight.get(e.digest);
    const joined = p !== undefined;
    if (!p) {
      p = this.forwarder.post(e).then((r) => {
        if (delivered(r)) this.done.add(e.digest);
        if (!delivered(r) && failureKind(r) === 'outage') {
          if (r.error !== 'stopped') this.target?.unreachable(outageReason(r));
        } else this.target?.reachable();
        return r;
      });
      const q = p;
      q.finally(() => this.inflight.delete(e.digest)).catch(() => undefined);
      this.inflight.set(e.digest, q);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ForwardResult>((resolve) => {
      timer = setTimeout(() => resolve({ url: this.forwarder.url, error: `no answer within ${this.answerWithinMs / 1000} s (still waiting for it: a retry is not sent again)` }), this.answerWithinMs);
    });
    return Promise.race([p.then((r) => (joined && delivered(r) ? { ...r, duplicate: true } : r)), late]).finally(() => clearTimeout(timer));
  }
}
