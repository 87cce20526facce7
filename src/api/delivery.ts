// The delivery client (ctx.delivery()): POSTs to a URL the user chose — `webhook listen --forward-to`,
// `webhook replay --to`, `sandbox emit --to`. It differs from the API side on
// purpose: no token is ever sent (so plain http to the user's own app is
// allowed), nothing is retried (the forwarder, the spool and the webhook
// sender each have their own retry policy), every HTTP status is a result
// rather than an error, and the reply is never parsed: its first bytes are
// kept for messages and the rest is read and discarded, up to a cap.
import { InterruptedError, NetworkError } from '../errors.js';
import { connectionLimits, unwatch, watch, type Stoppable } from './deadline.js';
import { CONNECT_TIMEOUT, HttpTransport, type AnswerHandler, type Controller, type Headers } from './transport.js';

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
 * The first bytes of a reply, kept as they arrive; the rest is counted and
 * discarded. take() says whether to read on: false past `discardBytes`, where
 * the connection is dropped rather than read further.
 */
export class ReplyExcerpt {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;

  constructor(
    private readonly excerptBytes = REPLY_EXCERPT_BYTES,
    private readonly discardBytes = REPLY_DISCARD_BYTES,
  ) {}

  take(chunk: Uint8Array): boolean {
    if (this.keptBytes < this.excerptBytes) {
      const part = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, this.excerptBytes - this.keptBytes));
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    this.total += chunk.byteLength;
    return this.total <= this.discardBytes;
  }

  text(): string {
    return Buffer.concat(this.kept, this.keptBytes).toString('utf8');
  }
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
}

/** The deadline fired (the attempt's own abort reason, told apart from the transport's errors). */
const DEADLINE = new Error('deadline');

/**
 * One delivery in flight, as the transport's handler: the reply's status
 * and headers, its first bytes (ReplyExcerpt); ended by the total deadline
 * (one timer) or a stop signal (watched through deadline.ts's one shared
 * listener per signal). `done` settles once.
 */
class DeliveryAttempt implements AnswerHandler, Stoppable {
  readonly done: Promise<Delivery>;
  expired = false;
  private resolve!: (d: Delivery) => void;
  private reject!: (err: Error) => void;
  private controller?: Controller;
  /** Why it was ended before the transport started it (a stop signal already aborted, or the deadline). */
  private endedBy?: Error;
  private status = 0;
  private headers?: Headers;
  private readonly reply = new ReplyExcerpt();
  private readonly timer: NodeJS.Timeout;
  private readonly stops: AbortSignal[];

  constructor(timeoutMs: number, stops: (AbortSignal | undefined)[]) {
    this.done = new Promise<Delivery>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A signal named twice (the client's and the caller's are often the same) is watched once.
    this.stops = stops.filter((s, i): s is AbortSignal => s !== undefined && stops.indexOf(s) === i);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.end(DEADLINE);
    }, timeoutMs);
    for (const s of this.stops) {
      if (s.aborted) this.end(new InterruptedError());
      else watch(s, this);
    }
  }

  /** One of the stops aborted (Ctrl-C, or the caller gave up). */
  get stopped(): boolean {
    return this.stops.some((s) => s.aborted);
  }

  stopBy(): void {
    this.end(new InterruptedError());
  }

  /**
   * Ends the attempt at once, and its request: now, or as it starts
   * (onRequestStart) when it was ended before it was dispatched.
   */
  private end(reason: Error): void {
    this.endedBy ??= reason;
    this.reject(reason);
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.endedBy) controller.abort(this.endedBy);
  }

  onResponseStart(_c: Controller, statusCode: number, headers: Headers): void {
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.reply.take(chunk)) return;
    // The status is the result: the connection is dropped rather than read further.
    controller.abort(new Error('reply past the discard cap'));
    this.onResponseEnd();
  }

  onResponseEnd(): void {
    this.resolve({ status: this.status, excerpt: this.reply.text(), headers: this.headers });
  }

  onResponseError(_c: Controller, err: Error): void {
    this.reject(err);
  }

  /** The attempt is over: no timer, no listeners left on the stops. */
  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.stops) unwatch(s, this);
  }
}

/**
 * The HTTP client for deliveries (the API has its own: http.ts, HttpClient).
 * No token, no retries, no proxy (the receiver is usually the user's own
 * local app), every status a result, the reply capped and discarded.
 */
export class HttpDeliveryClient implements DeliveryClient {
  private readonly transport: HttpTransport;

  constructor(private readonly opts: DeliveryClientOptions) {
    this.transport = new HttpTransport({ connections: opts.connections ?? 8, ...connectionLimits(opts.timeoutMs) });
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /**
   * POSTs `init.body` to `url`: the status, whatever it is, and the first
   * bytes of the reply, within a total deadline of timeoutMs. Throws
   * DeliveryError when no status came back, InterruptedError when
   * `init.signal` or the client's signal aborted.
   *
   * Straight through the transport with a handler of our own (a
   * DeliveryAttempt): no AbortController, no body stream and no async
   * iteration per delivery; `webhook listen --spool` forwards hundreds a
   * second.
   */
  async deliver(url: string, init: DeliveryInit): Promise<Delivery> {
    const target = this.urlOf(url);
    const where = `POST ${target.origin}${target.pathname}`;
    // Date.now, not performance.now: the global `performance` loads perf_hooks (~3 ms) when first
    // touched, and these times are for --debug lines only.
    const started = Date.now();
    const attempt = new DeliveryAttempt(this.opts.timeoutMs, [init.signal, this.opts.signal]);
    try {
      this.transport.dispatch({ method: 'POST', origin: target.origin, path: `${target.pathname}${target.search}`, headers: { 'user-agent': this.opts.userAgent, ...init.headers }, body: init.body }, attempt);
      const reply = await attempt.done;
      this.opts.debug?.(`${where} -> ${reply.status} in ${Date.now() - started} ms`);
      return reply;
    } catch (err) {
      this.opts.debug?.(`${where} failed after ${Date.now() - started} ms: ${(err as Error).message}`);
      if (attempt.stopped) throw new InterruptedError();
      const e = err as Error & { code?: string };
      const timedOut = attempt.expired || e.code === CONNECT_TIMEOUT;
      if (timedOut) throw new DeliveryError(url, `no answer within ${this.opts.timeoutMs / 1000} s`, 'TIMEOUT', err);
      throw new DeliveryError(url, e.code ?? e.message, 'NETWORK', err);
    } finally {
      attempt.dispose();
    }
  }

  /** The last URL parsed: a forwarder posts every event to the same one. */
  private lastUrl?: { raw: string; url: URL };

  private urlOf(raw: string): URL {
    if (this.lastUrl?.raw !== raw) this.lastUrl = { raw, url: deliveryUrl(raw) };
    return this.lastUrl.url;
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
