import { directAgent, proxyAgent, type Dispatcher, type Transport } from './undici.js';
import { readAnswer, type Answer } from './answer-reader.js';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, CliError, ExitCode, InterruptedError } from '../errors.js';
import { BodyTooLargeError, firstInvalidUtf8 } from '../input.js';
import { apiErrorFrom, badJsonError, headerCorrelation, redirectError } from './errors.js';
import type { AuditEntry } from '../audit/log.js';
import { secretRedactor } from './redact.js';
import { Deadline } from './deadline.js';
import { checkBaseUrl, isLoopback } from './urls.js';
import { failure, RETRY_ERROR_CODES } from './request-failures.js';
import { parseJsonExact } from '../json/parse-exact.js';
import { stringifyExact } from '../json/stringify-exact.js';

export { RETRY_ERROR_CODES } from './request-failures.js';
export const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD']);

export interface RetryEvent {
  method: string;
  path: string;
  attempt: number;
  status?: number;
  errorCode?: string;
  waitMs: number;
}

export interface HttpClientOptions {
  /** The API's base URL (https, or http on loopback). */
  baseUrl: string;
  token?: string;
  userAgent: string;
  timeoutMs: number;
  maxRetries?: number;
  /** Base of the exponential backoff, before jitter. */
  backoffBaseMs?: number;
  /** Keep-alive connections per origin; sized to the page walker's concurrency. */
  connections?: number;
  signal?: AbortSignal;
  debug?: (line: string) => void;
  /** Told about every retry (the page walker lowers its concurrency on 429/503). */
  onRetry?: (e: RetryEvent) => void;
  /** Tests: the dispatcher under the retry policy (an undici MockAgent) instead of undici's agent. */
  dispatcher?: Transport;
  /** The audit log (audit/log.ts): told of every request that changes something before it is sent (it may refuse by throwing) and of its outcome. */
  audit?: (method: string, path: string) => AuditEntry | Promise<AuditEntry>;
}

/**
 * Cap on one answer of the API, read as it arrives: a page of 100 records is
 * far below it, and a server (or proxy) that sends hundreds of megabytes
 * costs no more than this much memory per request in flight.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A response larger than its cap (MAX_RESPONSE_BYTES, or the caller's: the webhook key set's 1 MiB). */
export class ResponseTooLargeError extends CliError {
  constructor(where: string, maxBytes: number) {
    super(`The response of ${where} is larger than ${maxBytes} bytes; it was not read further`, {
      code: 'RESPONSE_TOO_LARGE',
      exitCode: ExitCode.FAILURE,
      hint: 'No answer of the API is that large: check the base URL (another service may be answering), or ask the API provider.',
    });
  }
}

/**
 * A successful answer whose body is not valid UTF-8 (a Latin-1 body labelled
 * charset=utf-8): refused, never decoded with U+FFFD in place of the bytes,
 * which an export would write as if they were the data ("Jos\ufffd").
 */
export class InvalidUtf8ResponseError extends CliError {
  constructor(where: string, status: number, bytes: Uint8Array) {
    const at = firstInvalidUtf8(bytes);
    const shown = Array.from(bytes.subarray(at, at + 4), (b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
    super(`The server sent invalid UTF-8 in the answer of ${where} (HTTP ${status}): byte offset ${at} of ${bytes.length} (${shown}); nothing of it was used`, {
      code: 'BAD_RESPONSE_ENCODING',
      exitCode: ExitCode.FAILURE,
      hint: 'The API must answer in UTF-8: this answer is in another encoding (often Latin-1) though it is read as UTF-8. Report it to the API provider, quoting the request.',
    });
  }
}

/** Fatal: a malformed sequence throws (InvalidUtf8ResponseError) instead of becoming U+FFFD. A BOM is dropped, as JSON.parse would refuse it. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  /** The body as received (JSON text), for callers that can reuse it instead of serialising `body` again. */
  text?: string;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * Milliseconds to wait per a Retry-After header (delta-seconds or HTTP date),
 * as asked: whether that fits in --timeout is the retry policy's decision.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(at - now, 0);
}

/** Exponential backoff with full jitter: uniform in [0, base * 2^(attempt-1)], at least a tenth of it. */
export function backoffMs(attempt: number, baseMs: number, random = Math.random): number {
  const cap = Math.min(baseMs * 2 ** (attempt - 1), 20_000);
  return Math.round(cap * (0.1 + 0.9 * random()));
}

export { checkBaseUrl, isLoopback } from './urls.js';

/** One request as it goes out: where, what, and the cap on its answer. */
interface Outgoing {
  method: string;
  url: URL;
  /** The path as the caller gave it (for messages about redirects). */
  apiPath: string;
  /** `METHOD origin/path?query`, for --debug lines and messages. */
  where: string;
  dispatch: Dispatcher.DispatchOptions;
  maxBytes: number;
}

/** The answer the retry policy settled on, and how long the server asked to wait when that was past --timeout. */
interface Settled {
  res: Answer;
  comeBackInMs?: number;
}

export interface SendInit {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  maxBytes?: number;
  headers?: Record<string, string>;
}

/**
 * The API client (webhook deliveries have their own: delivery.ts). One
 * keep-alive agent of undici (undici.ts): through HTTPS_PROXY/HTTP_PROXY when
 * set (NO_PROXY honoured), except for a loopback base URL, which is always
 * reached directly. send() applies our retry policy: GET only, connection
 * errors and 429/5xx, Retry-After honoured, full-jitter backoff, at most
 * maxRetries. An attempt is the request AND its whole body: an answer cut off
 * mid-body is asked for again from the start. (undici's RetryAgent resumes it
 * with a Range header instead, which fails on servers without range support,
 * and could splice two versions of a page that changed.)
 */
export class HttpClient {
  readonly baseUrl: URL;
  private readonly opts: HttpClientOptions;
  private readonly dispatcher: Transport;
  private readonly maxRetries: number;
  private readonly backoffBaseMs: number;
  /** Masks the token in error bodies (made once: it indexes every 8-character piece of the token's forms). */
  private readonly redact: (text: string) => string;

  constructor(opts: HttpClientOptions) {
    this.opts = opts;
    this.redact = secretRedactor(opts.token);
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    // Loopback (the sandbox, a local gateway) never goes through a proxy, whatever NO_PROXY says:
    // a proxy cannot reach our 127.0.0.1 and would see the bearer token in clear.
    const direct = isLoopback(this.baseUrl.hostname) || !proxySet();
    this.dispatcher = opts.dispatcher ?? (direct ? directAgent : proxyAgent)(opts.timeoutMs, opts.connections ?? 8);
    this.maxRetries = opts.maxRetries ?? 4;
    this.backoffBaseMs = opts.backoffBaseMs ?? 250;
  }

  /** The total deadline of one attempt, ms. */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await this.send<T>('GET', path, { query })).body;
  }

  /**
   * One request, with retries for GET (see the class). `maxBytes` caps the
   * response body (default MAX_RESPONSE_BYTES; read streaming, cut off past
   * it: ResponseTooLargeError).
   * Every attempt has a total deadline of timeoutMs, headers and body
   * included; it is paused while waiting between attempts.
   */
  async send<T = unknown>(method: string, path: string, init: SendInit = {}): Promise<ApiResponse<T>> {
    const out = this.outgoing(method, path, init);
    // A write is in the audit log before it goes out (path only: a query string may hold values).
    const audit = IDEMPOTENT.has(method) ? undefined : await this.opts.audit?.(method, out.url.pathname);
    const started = Date.now();
    let settled: Settled;
    try {
      settled = await this.exchange(out, init.signal, started);
    } catch (err) {
      audit?.failed(err);
      throw err;
    }
    const { res } = settled;
    this.opts.debug?.(`${out.where} -> ${res.statusCode} in ${Date.now() - started} ms`);
    audit?.answered(res.statusCode, headerCorrelation(res.headers, this.redact), res.body);
    return this.answerOf<T>(out, settled);
  }

  /** The request `send` puts on the wire: the URL with its query, our headers (the token's last), the JSON body. */
  private outgoing(method: string, path: string, init: SendInit): Outgoing {
    const base = this.baseUrl;
    const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
    for (const [k, v] of Object.entries(init.query ?? {})) {
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
    };
    // Extra headers (`partner api -H`) never replace the token's: lower-cased, and Authorization dropped here too.
    for (const [k, v] of Object.entries(init.headers ?? {})) {
      if (k.toLowerCase() !== 'authorization') headers[k.toLowerCase()] = v;
    }
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = stringifyExact(init.body);
      headers['content-type'] = 'application/json';
    }
    const target = `${url.pathname}${url.search}`;
    return {
      method,
      url,
      apiPath: path,
      where: `${method} ${url.origin}${target}`,
      dispatch: { method: method as Dispatcher.HttpMethod, origin: url.origin, path: target, headers, body },
      maxBytes: init.maxBytes ?? MAX_RESPONSE_BYTES,
    };
  }

  /**
   * The attempts of one request, until an answer stands: a GET is asked
   * again after a connection failure (attempt) or a 429/5xx, waiting as the
   * server asks (Retry-After) or backing off. --timeout bounds the waiting
   * too: a Retry-After past what is left of it ends the retries at once.
   */
  private async exchange(out: Outgoing, signal: AbortSignal | undefined, started: number): Promise<Settled> {
    const deadline = new Deadline(this.opts.timeoutMs, [signal, this.opts.signal]);
    const retries = IDEMPOTENT.has(out.method) ? this.maxRetries : 0;
    try {
      for (let attempt = 1; ; attempt++) {
        const res = await this.attempt(out, deadline, { attempt, retries, started });
        if (res === undefined) continue;
        if (attempt > retries || !RETRY_STATUSES.has(res.statusCode)) return { res };
        const asked = parseRetryAfter(res.headers['retry-after']);
        const left = this.leftMs(started);
        if (asked !== undefined && asked > left) return { res, comeBackInMs: asked };
        // No time left for a backoff: this answer stands.
        if (asked === undefined && left <= 0) return { res };
        res.release();
        await this.pause(deadline, { method: out.method, path: out.dispatch.path, attempt, status: res.statusCode, waitMs: asked ?? Math.min(backoffMs(attempt, this.backoffBaseMs), left) });
      }
    } finally {
      deadline.dispose();
    }
  }

  /**
   * One attempt: its whole answer; or undefined once it has waited for the
   * next attempt after a failure worth retrying; or the error the user reads
   * (request-failures.ts).
   */
  private async attempt(out: Outgoing, deadline: Deadline, a: { attempt: number; retries: number; started: number }): Promise<Answer | undefined> {
    // Set once the headers are in: a failure after that cut the answer off mid-body.
    let answered = false;
    try {
      return await readAnswer(this.dispatcher, out.dispatch, { maxBytes: out.maxBytes, stop: deadline, onHeaders: () => (answered = true) });
    } catch (err) {
      if (err instanceof BodyTooLargeError) throw new ResponseTooLargeError(`${out.method} ${out.url.origin}${out.url.pathname}`, err.maxBytes);
      this.opts.debug?.(`${out.where} failed after ${Date.now() - a.started} ms: ${(err as Error).message}`);
      const code = (err as { code?: string }).code;
      const left = this.leftMs(a.started);
      if (a.attempt <= a.retries && !deadline.aborted && RETRY_ERROR_CODES.has(code ?? '') && left > 0) {
        await this.pause(deadline, { method: out.method, path: out.dispatch.path, attempt: a.attempt, errorCode: code, waitMs: Math.min(backoffMs(a.attempt, this.backoffBaseMs), left) });
        return undefined;
      }
      throw failure(err, { url: out.url, method: out.method, attempts: a.attempt, answered, deadline, timeoutMs: this.opts.timeoutMs });
    }
  }

  /** What is left of --timeout for waiting between attempts, ms. */
  private leftMs(started: number): number {
    return this.opts.timeoutMs - (Date.now() - started);
  }

  /**
   * What the caller gets of the answer that stood: the data of a success,
   * decoded strictly; an ApiError for a redirect or an error status. An
   * answer that echoes our Authorization header (some proxies do), whole or
   * in part, in its body or in a header that is shown, must not put the token
   * on stderr: api/errors.ts masks every field, after the body is decoded.
   */
  private answerOf<T>(out: Outgoing, { res, comeBackInMs }: Settled): ApiResponse<T> {
    const { statusCode: status, headers } = res;
    const text = this.decode(out, res);
    const redact = this.redact;
    if (status >= 300 && status < 400) {
      const location = typeof headers.location === 'string' ? headers.location : undefined;
      throw redirectError(status, { location, headers, url: out.url, apiPath: out.apiPath, redact });
    }
    if (status < 200 || status >= 300) {
      const err = apiErrorFrom(status, text, headers, out.url.pathname, redact);
      throw comeBackInMs === undefined ? err : comeBackLater(err, comeBackInMs, this.opts.timeoutMs);
    }
    if (text.trim() === '') return { status, headers, body: undefined as T };
    try {
      // Every number as sent: one JavaScript would print otherwise (9007199254740993, 1e400, 1.0) is a LosslessNumber.
      return { status, headers, body: parseJsonExact(text) as T, text };
    } catch {
      throw badJsonError(status, text, redact, headers);
    }
  }

  /**
   * The one decoding of an answer. A success is the data, decoded strictly;
   * an error's body is only shown (an excerpt, sanitised), so a stray byte
   * there must not hide the status it came with.
   */
  private decode(out: Outgoing, res: Answer): string {
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    try {
      return ok ? strictUtf8.decode(res.body) : res.body.toString('utf8');
    } catch {
      throw new InvalidUtf8ResponseError(out.where, res.statusCode, res.body);
    } finally {
      // Decoded (a copy) or described: the bytes serve the next answer (answer-reader.ts).
      res.release();
    }
  }

  /**
   * Waits before the next attempt (`e.waitMs`), the deadline paused: said to
   * --debug and to onRetry (the page walker lowers its concurrency on
   * 429/503). Ctrl-C ends the wait: InterruptedError.
   */
  private async pause(deadline: Deadline, e: RetryEvent): Promise<void> {
    deadline.stop();
    this.opts.debug?.(`retry ${e.attempt}/${this.maxRetries} ${e.method} ${e.path} after ${e.status ?? e.errorCode}, waiting ${e.waitMs} ms`);
    this.opts.onRetry?.(e);
    try {
      await delay(e.waitMs, undefined, { signal: deadline.signal });
    } catch {
      // Only a stop ends the wait early (the deadline is paused): Ctrl-C, or the caller gave up.
      throw new InterruptedError();
    }
    deadline.start();
  }

  /** Masks the token (whole or in part) in text from the server: response headers shown by `partner api -i`. */
  redactText(text: string): string {
    return this.redact(text);
  }

  async close(): Promise<void> {
    await closeTransport(this.dispatcher);
  }
}

/** Whether a proxy is set for undici's proxy agent to use (it reads these four; NO_PROXY is its to apply): without one, no proxy agent looks at every request's origin. */
function proxySet(): boolean {
  return ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'].some((name) => (process.env[name] ?? '') !== '');
}

/**
 * Closes a transport: gracefully (requests in flight finish) for at most
 * `graceMs`, then by force. A request never settled (a connection a proxy
 * agent keeps retrying) must not keep the process alive after the command ended.
 */
export async function closeTransport(d: Transport, graceMs = 1000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  // A close that fails (a dispatcher already destroyed) leaves nothing to wait for either.
  const closed = await Promise.race([d.close().then(() => 'closed' as const, () => 'closed' as const), late]).finally(() => clearTimeout(timer));
  if (closed === 'late') await d.destroy().catch(() => undefined);
}

/**
 * A 429 or 503 whose Retry-After asks for more time than --timeout leaves:
 * the server's answer, saying when it asked to be asked again.
 */
function comeBackLater(err: ApiError, waitMs: number, timeoutMs: number): ApiError {
  const at = new Date(Date.now() + waitMs);
  // A date past what JavaScript can represent (Retry-After: 1e30) has no time of day to show.
  const when = Number.isFinite(at.getTime()) ? ` (at ${at.toISOString().replace(/\.\d+Z$/, 'Z')})` : '';
  // Whole seconds in plain digits, however large (not 1e+30).
  const seconds = Math.ceil(waitMs / 1000).toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 0 });
  return new ApiError({
    status: err.status,
    message: `${err.message}; the server asked to come back in ${seconds} s${when}, later than --timeout ${timeoutMs / 1000} s allows`,
    apiCode: err.apiCode,
    correlationId: err.correlationId,
    path: err.path,
    details: err.details,
    excerpt: err.excerpt,
    hint: 'Run the command again after that time, or give a --timeout SECONDS long enough to wait for it.',
  });
}

