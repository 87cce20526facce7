// Forwarding a verified event to the partner's own endpoint, and the
// acknowledgement contract of `webhook listen --forward-to`: the sender gets
// 2xx only once the event is safely kept (the target answered 2xx, or it is
// in the spool); otherwise 503 with Retry-After, so the sender retries.
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';

export interface ForwardResult {
  url: string;
  status?: number;
  error?: string;
  /** Already delivered within the dedupe window: not sent again. */
  duplicate?: boolean;
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
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex');
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

/** One POST per call, with a total deadline; a pool sized for concurrent deliveries. */
export class Forwarder {
  private readonly agent: Agent;

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
    connections = 64,
  ) {
    this.agent = new Agent({ connections, keepAliveTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: Math.min(timeoutMs, 10_000) } });
  }

  async post(e: ForwardEvent, url = this.url, stop?: AbortSignal): Promise<ForwardResult> {
    // A total deadline: a target trickling its answer cannot hold the sender past it.
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: stop ? AbortSignal.any([stop, deadline]) : deadline,
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
      await res.body.dump();
      return { url, status: res.statusCode };
    } catch (err) {
      const x = err as Error & { code?: string };
      if (stop?.aborted) return { url, error: 'stopped' };
      const timedOut = deadline.aborted || x.code === 'UND_ERR_HEADERS_TIMEOUT' || x.code === 'UND_ERR_BODY_TIMEOUT';
      return { url, error: timedOut ? `no answer within ${this.timeoutMs / 1000} s` : (x.code ?? x.message) };
    }
  }

  /** Stops at once: a forward still in flight is abandoned (its sender got no 2xx, so it retries). */
  close(): Promise<void> {
    return this.agent.destroy();
  }
}

/** Header values must be visible ASCII: anything else (an event type with U+200B) is escaped. */
function asciiHeader(v: string): string {
  return v.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 200);
}

/** Digests seen within a time window, bounded in count (oldest forgotten first). */
export class DedupeWindow {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  has(digest: string): boolean {
    const at = this.seen.get(digest);
    if (at === undefined) return false;
    if (this.now() - at > this.windowMs) {
      this.seen.delete(digest);
      return false;
    }
    return true;
  }

  add(digest: string, at = this.now()): void {
    this.seen.delete(digest);
    this.seen.set(digest, at);
    // Maps iterate in insertion order: the first entries are the oldest.
    while (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value!);
  }
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
