// The delivery client (ctx.delivery()): POSTs to a URL the user chose — `webhook listen --forward-to`,
// `webhook replay --to`, `sandbox emit --to`. It differs from the API side on
// purpose: no token is ever sent (so plain http to the user's own app is
// allowed), nothing is retried (the forwarder, the spool and the webhook
// sender each have their own retry policy), every HTTP status is a result
// rather than an error, and the reply is never parsed: its first bytes are
// kept for messages and the rest is read and discarded, up to a cap.
import { InterruptedError, NetworkError } from '../errors.js';
import { unwatch, watch, type Stoppable } from './deadline.js';
import { Agent, errors as undiciErrors, poolOptions, type Dispatcher } from './undici.js';

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
  /** Tests: the dispatcher (an undici MockAgent). */
  dispatcher?: Dispatcher;
}

/** The deadline fired (the attempt's own abort reason, told apart from undici's errors). */
const DEADLINE = new Error('deadline');

/**
 * One delivery in flight, as undici's dispatch handler: the reply's status
 * and headers, its first bytes (ReplyExcerpt); ended by the total deadline
 * (one timer) or a stop signal (watched through deadline.ts's one shared
 * listener per signal). `done` settles once.
 */
class DeliveryAttempt implements Dispatcher.DispatchHandler, Stoppable {
  readonly done: Promise<Delivery>;
  expired = false;
  private resolve!: (d: Delivery) => void;
  private reject!: (err: Error) => void;
  private controller?: Dispatcher.DispatchController;
  /** Why it was ended before undici started it (a stop signal already aborted, or the deadline). */
  private endedBy?: Error;
  private status = 0;
  private headers?: Record<string, string | string[] | undefined>;
  private readonly reply = new ReplyExcerpt();
  /** Past the discard cap: the connection is dropped, and the status is still the result. */
  private cut = false;
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
   * Ends the attempt: at once, even while it waits for a connection (a full
   * pool), where undici would not hear an abort until it has one; a request
   * that gets one later is aborted then (onRequestStart).
   */
  private end(reason: Error): void {
    if (this.controller) this.controller.abort(reason);
    else {
      this.endedBy ??= reason;
      this.reject(reason);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.endedBy) controller.abort(this.endedBy);
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.reply.take(chunk)) return;
    this.cut = true;
    controller.abort(new Error('reply past the discard cap'));
  }

  onResponseEnd(): void {
    this.resolve({ status: this.status, excerpt: this.reply.text(), headers: this.headers });
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    if (this.cut) this.onResponseEnd();
    else this.reject(err);
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
   *
   * Straight through undici's dispatch with a handler of our own (a
   * DeliveryAttempt), not its request(): no AbortController, no body stream
   * and no async iteration per delivery. `webhook listen --spool` forwards
   * hundreds a second; measured with its benchmark's 200 senders, the
   * request() path cost the receiver 0.4 to 0.5 ms of CPU an event more.
   */
  async deliver(url: string, init: DeliveryInit): Promise<Delivery> {
    const target = this.urlOf(url);
    const where = `POST ${target.origin}${target.pathname}`;
    // Date.now, not performance.now: the global `performance` loads perf_hooks (~3 ms) when first
    // touched, and these times are for --debug lines only.
    const started = Date.now();
    const attempt = new DeliveryAttempt(this.opts.timeoutMs, [init.signal, this.opts.signal]);
    try {
      this.dispatcher.dispatch({ method: 'POST', origin: target.origin, path: `${target.pathname}${target.search}`, headers: { 'user-agent': this.opts.userAgent, ...init.headers }, body: init.body }, attempt);
      const reply = await attempt.done;
      this.opts.debug?.(`${where} -> ${reply.status} in ${Date.now() - started} ms`);
      return reply;
    } catch (err) {
      this.opts.debug?.(`${where} failed after ${Date.now() - started} ms: ${(err as Error).message}`);
      if (attempt.stopped) throw new InterruptedError();
      const e = err as Error & { code?: string };
      const timedOut = attempt.expired || e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e.code === 'UND_ERR_CONNECT_TIMEOUT';
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
    await this.dispatcher.close();
  }
}
