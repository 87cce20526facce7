// The delivery client (ctx.delivery()): POSTs to a URL the user chose — `webhook listen --forward-to`,
// `webhook replay --to`, `sandbox emit --to`. It differs from the API side on
// purpose: no token is ever sent (so plain http to the user's own app is
// allowed), nothing is retried (the forwarder, the spool and the webhook
// sender each have their own retry policy), every HTTP status is a result
// rather than an error, and the reply is never parsed: its first bytes are
// kept for messages and the rest is read and discarded, up to a cap.
import { InterruptedError, NetworkError } from '../errors.js';
import { Deadline } from './deadline.js';
import { Agent, errors as undiciErrors, poolOptions, request, type Dispatcher } from './undici.js';

/** Bytes of a reply kept for messages (`sandbox emit` shows them when the receiver refuses): room for a receiver's whole JSON refusal. */
export const REPLY_EXCERPT_BYTES = 4096;
/** Bytes of a reply read and discarded to keep the connection for the next delivery; past it the connection is dropped. */
export const REPLY_DISCARD_BYTES = 64 * 1024;

export interface DeliveryInit {
  /** The request body, sent as is. */
  body: string;
  /** Extra headers (content-type, the event headers); `user-agent` replaces the client's. */
  headers?: Record<string, string>;
  /** Stops this delivery (the forwarder closing): rejects with InterruptedError. */
  signal?: AbortSignal;
}

export interface Delivery {
  status: number;
  /** The first REPLY_EXCERPT_BYTES of the reply, as UTF-8 (untrusted: sanitise before printing). */
  excerpt: string;
  /** The reply's headers, lower-case names (untrusted). */
  headers?: Record<string, string | string[] | undefined>;
}

/** A delivery that got no HTTP status: `reason` is short, for a status line ("ECONNREFUSED", "no answer within 5 s"). */
export class DeliveryError extends NetworkError {
  constructor(
    readonly url: string,
    readonly reason: string,
    code: 'TIMEOUT' | 'NETWORK',
    cause?: unknown,
  ) {
    super(`Could not deliver to ${url}: ${reason}`, 'Is the receiver running, and does it answer within the time limit?', code, cause);
  }
}

/** What a delivery needs of the client (the forwarder, replay and emit depend on this, not on HttpClient). */
export interface DeliveryClient {
  deliver(url: string, init: DeliveryInit): Promise<Delivery>;
  /** The total deadline of one delivery, ms. */
  readonly timeoutMs: number;
  close(): Promise<void>;
}

/**
 * Reads a reply: keeps the first bytes, discards the rest, and drops the
 * connection (destroys the stream) rather than read more than `discardBytes`.
 */
export async function readReply(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, excerptBytes = REPLY_EXCERPT_BYTES, discardBytes = REPLY_DISCARD_BYTES): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of body) {
    // Empty once the excerpt is full.
    const part = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, excerptBytes - keptBytes));
    kept.push(part);
    keptBytes += part.length;
    total += chunk.byteLength;
    if (total > discardBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(kept, keptBytes).toString('utf8');
}

/** Only http(s) URLs are delivered to (the flags check it; this guards every other caller). */
export function deliveryUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url.protocol}`);
  return url;
}

export interface DeliveryClientOptions {
  userAgent: string;
  /** The total deadline of one delivery, ms. */
  timeoutMs: number;
  /** Keep-alive connections per receiver (the forwarder's concurrency). */
  connections?: number;
  /** Stops every delivery (Ctrl-C). */
  signal?: AbortSignal;
  debug?: (line: string) => void;
  /** Tests: the dispatcher (an undici MockAgent). */
  dispatcher?: Dispatcher;
}

/**
 * The HTTP client for deliveries (the API has its own: http.ts, HttpClient).
 * No token, no retries, no proxy (the receiver is usually the user's own
 * local app), every status a result, the reply capped and discarded.
 */
export class HttpDeliveryClient implements DeliveryClient {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly opts: DeliveryClientOptions) {
    this.dispatcher = opts.dispatcher ?? new Agent(poolOptions(opts.timeoutMs, opts.connections ?? 8));
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /**
   * POSTs `init.body` to `url`: the status, whatever it is, and the first
   * bytes of the reply, within a total deadline of timeoutMs. Throws
   * DeliveryError when no status came back, InterruptedError when
   * `init.signal` or the client's signal aborted.
   */
  async deliver(url: string, init: DeliveryInit): Promise<Delivery> {
    const target = deliveryUrl(url);
    const where = `POST ${target.origin}${target.pathname}`;
    const deadline = new Deadline(this.opts.timeoutMs, [init.signal, this.opts.signal]);
    // Date.now, not performance.now: the global `performance` loads perf_hooks (~3 ms) when first
    // touched, and these times are for --debug lines only.
    const started = Date.now();
    try {
      const res = await request(target, {
        method: 'POST',
        dispatcher: this.dispatcher,
        signal: deadline.signal,
        headers: { 'user-agent': this.opts.userAgent, ...init.headers },
        body: init.body,
      });
      const excerpt = await readReply(res.body);
      this.opts.debug?.(`${where} -> ${res.statusCode} in ${Date.now() - started} ms`);
      return { status: res.statusCode, excerpt, headers: res.headers };
    } catch (err) {
      this.opts.debug?.(`${where} failed after ${Date.now() - started} ms: ${(err as Error).message}`);
      if (deadline.stopped) throw new InterruptedError();
      const e = err as Error & { code?: string };
      const timedOut = deadline.expired || e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e.code === 'UND_ERR_CONNECT_TIMEOUT';
      if (timedOut) throw new DeliveryError(url, `no answer within ${this.opts.timeoutMs / 1000} s`, 'TIMEOUT', err);
      throw new DeliveryError(url, e.code ?? e.message, 'NETWORK', err);
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
