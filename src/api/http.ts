import { proxyVariable } from './proxy-env.js';
import { CONNECT_TIMEOUT, CONNECTION_CLOSED, HttpTransport, type Transport } from './transport.js';
import { readAnswer, type Answer } from './answer-reader.js';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, CliError, ExitCode, InterruptedError, NetworkError } from '../errors.js';
import { BodyTooLargeError, firstInvalidUtf8 } from '../input.js';
import { apiErrorFrom, badJsonError, headerCorrelation, redirectError } from './errors.js';
import { secretRedactor } from './redact.js';
import { connectionLimits, Deadline } from './deadline.js';
import { checkBaseUrl, isLoopback } from './urls.js';
import { parseJsonExact } from '../json/parse-exact.js';
import { stringifyExact } from '../json/stringify-exact.js';

export const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
// PROXY_CLOSED: proxy.ts (a proxy that hung up on CONNECT), named here so a lookup without a proxy never loads it.
export const RETRY_ERROR_CODES = new Set(['PROXY_CLOSED', CONNECTION_CLOSED, 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENETUNREACH', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const IDEMPOTENT = new Set(['GET', 'HEAD']);

export interface RetryEvent {
  method: string;
  path: string;
  attempt: number;
  status?: number;
  errorCode?: string;
  waitMs: number;
}

/** The two ends of one write, as the client reports them (the audit log, audit/log.ts, keeps them). */
export interface AuditEntry {
  answered(status: number, correlationId: string | undefined, body: Uint8Array | undefined): void;
  failed(err: unknown): void;
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

/** What send() takes besides the method and path. */
interface SendInit {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  maxBytes?: number;
  headers?: Record<string, string>;
}

/** A request as it goes out (HttpClient.outgoing). */
interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payload: string | undefined;
}

/** The answer that stands after the attempts, and the server's wait when it was past --timeout. */
interface Exchanged {
  res: Answer;
  comeBackInMs?: number;
}

/**
 * The API client (webhook deliveries have their own: delivery.ts). One
 * keep-alive transport (transport.ts), through a proxy when HTTPS_PROXY (or
 * HTTP_PROXY) is set and NO_PROXY does not name the host (proxy-env.ts), except for
 * a loopback base URL, which is always reached directly; send() applies
 * our retry policy: GET only, connection errors and 429/5xx, Retry-After
 * honoured, full-jitter backoff, at most maxRetries. An attempt is the
 * request AND its whole body: an answer cut off mid-body is asked for again
 * from the start. (undici's RetryAgent resumes it with a Range header
 * instead, which fails on servers without range support, and could splice
 * two versions of a page that changed.)
 */
export class HttpClient {
  readonly baseUrl: URL;
  private readonly opts: HttpClientOptions;
  /** The transport, once made: the proxy's agent is loaded only when a proxy is set (proxied()). */
  private transport?: HttpTransport;
  private transportLoading?: Promise<HttpTransport>;
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
    if (isLoopback(this.baseUrl.hostname) || !proxySet()) this.transport = new HttpTransport(this.limits());
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
    const req = this.outgoing(method, path, init);
    // A write is in the audit log before it goes out (path only: a query string may hold values).
    const audit = IDEMPOTENT.has(method) ? undefined : await this.opts.audit?.(method, req.url.pathname);
    const deadline = new Deadline(this.opts.timeoutMs, [init.signal, this.opts.signal]);
    let answer: Exchanged;
    try {
      answer = await this.exchange(req, deadline, init.maxBytes ?? MAX_RESPONSE_BYTES);
    } catch (err) {
      audit?.failed(err);
      throw err;
    } finally {
      deadline.dispose();
    }
    audit?.answered(answer.res.statusCode, headerCorrelation(answer.res.headers, this.redact), answer.res.body);
    return this.decode<T>(req, path, answer);
  }

  /** The request as it goes out: its URL with the query, the headers (the token's last), the JSON body. */
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
    let payload: string | undefined;
    if (init.body !== undefined) {
      payload = stringifyExact(init.body);
      headers['content-type'] = 'application/json';
    }
    return { method, url, headers, payload };
  }

  /**
   * The attempts of one request (see the class), until an answer stands: the
   * last answer, and how long the server asked to wait when its Retry-After
   * was past what is left of --timeout (which bounds the waiting too).
   */
  private async exchange(req: Outgoing, deadline: Deadline, maxBytes: number): Promise<Exchanged> {
    const { method, url } = req;
    const retries = IDEMPOTENT.has(method) ? this.maxRetries : 0;
    const started = Date.now();
    const leftMs = () => this.opts.timeoutMs - (Date.now() - started);
    const where = `${url.pathname}${url.search}`;
    for (let attempt = 1; ; attempt++) {
      const res = await this.attempt(req, deadline, maxBytes, attempt, started);
      if (res === 'again') continue;
      if (attempt > retries || !RETRY_STATUSES.has(res.statusCode)) return this.answered(req, res, started);
      const status = res.statusCode;
      const asked = parseRetryAfter(res.headers['retry-after']);
      const left = leftMs();
      if (asked !== undefined && asked > left) return { ...this.answered(req, res, started), comeBackInMs: asked };
      // No time left for a backoff: this answer stands.
      if (asked === undefined && left <= 0) return this.answered(req, res, started);
      const waitMs = asked ?? Math.min(backoffMs(attempt, this.backoffBaseMs), left);
      res.release();
      await this.pause(deadline, { method, path: where, attempt, status, waitMs });
    }
  }

  /**
   * One attempt: the answer, or 'again' after the pause before the next one
   * (a connection error worth retrying while attempts and time are left), or
   * the error that ends the request.
   */
  private async attempt(req: Outgoing, deadline: Deadline, maxBytes: number, attempt: number, started: number): Promise<Answer | 'again'> {
    const { method, url, headers, payload } = req;
    const retries = IDEMPOTENT.has(method) ? this.maxRetries : 0;
    const leftMs = () => this.opts.timeoutMs - (Date.now() - started);
    // Set once the headers are in: a failure after that cut the answer off mid-body.
    let answered = false;
    try {
      return await readAnswer(this.transport ?? (await this.proxied()), { method, origin: url.origin, path: `${url.pathname}${url.search}`, headers, body: payload }, {
        maxBytes,
        stop: deadline,
        onHeaders: () => (answered = true),
      });
    } catch (err) {
      if (err instanceof BodyTooLargeError) throw new ResponseTooLargeError(`${method} ${url.origin}${url.pathname}`, err.maxBytes);
      this.opts.debug?.(`${method} ${url.origin}${url.pathname}${url.search} failed after ${Date.now() - started} ms: ${(err as Error).message}`);
      const code = (err as { code?: string }).code;
      if (attempt <= retries && !deadline.aborted && RETRY_ERROR_CODES.has(code ?? '') && leftMs() > 0) {
        await this.pause(deadline, { method, path: `${url.pathname}${url.search}`, attempt, errorCode: code, waitMs: Math.min(backoffMs(attempt, this.backoffBaseMs), leftMs()) });
        return 'again';
      }
      throw failure(err, { url, method, attempts: attempt, answered, deadline, timeoutMs: this.opts.timeoutMs });
    }
  }

  /** The answer that stands, said to --debug. */
  private answered(req: Outgoing, res: Answer, started: number): Exchanged {
    this.opts.debug?.(`${req.method} ${req.url.origin}${req.url.pathname}${req.url.search} -> ${res.statusCode} in ${Date.now() - started} ms`);
    return { res };
  }

  /**
   * The one decoding of an answer: a success is its data, decoded strictly and
   * parsed keeping every number's digits; a redirect or an error status is an
   * error whose excerpt is masked (an answer may echo our Authorization
   * header, whole or in part: api/errors.ts masks every field).
   */
  private decode<T>(req: Outgoing, path: string, { res, comeBackInMs }: Exchanged): ApiResponse<T> {
    const { method, url } = req;
    const resHeaders = res.headers;
    const redact = this.redact;
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    // An error's body is only shown (an excerpt, sanitised), so a stray byte there must not hide the status it came with.
    let text: string;
    try {
      text = ok ? strictUtf8.decode(res.body) : res.body.toString('utf8');
    } catch {
      throw new InvalidUtf8ResponseError(`${method} ${url.origin}${url.pathname}${url.search}`, res.statusCode, res.body);
    } finally {
      // Decoded (a copy) or described: the bytes serve the next answer (answer-reader.ts).
      res.release();
    }
    if (res.statusCode >= 300 && res.statusCode < 400) {
      const location = typeof resHeaders.location === 'string' ? resHeaders.location : undefined;
      throw redirectError(res.statusCode, { location, headers: resHeaders, url, apiPath: path, redact });
    }
    if (!ok) {
      const err = apiErrorFrom(res.statusCode, text, resHeaders, url.pathname, redact);
      throw comeBackInMs === undefined ? err : comeBackLater(err, comeBackInMs, this.opts.timeoutMs);
    }
    if (text.trim() === '') return { status: res.statusCode, headers: resHeaders, body: undefined as T };
    try {
      // Every number as sent: one JavaScript would print otherwise (9007199254740993, 1e400, 1.0) is a LosslessNumber.
      return { status: res.statusCode, headers: resHeaders, body: parseJsonExact(text) as T, text };
    } catch {
      throw badJsonError(res.statusCode, text, redact, resHeaders);
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

  private limits() {
    return { connections: this.opts.connections ?? 8, ...connectionLimits(this.opts.timeoutMs) };
  }

  /** The transport through a proxy, its module loaded at the first request (a lookup without a proxy never loads it). */
  private proxied(): Promise<HttpTransport> {
    this.transportLoading ??= import('./proxy.js').then(({ proxyRoute }) => (this.transport = new HttpTransport({ ...this.limits(), proxy: proxyRoute(this.limits()) })));
    return this.transportLoading;
  }

  async close(): Promise<void> {
    const transport = this.transport ?? (await this.transportLoading);
    if (transport) await closeTransport(transport);
  }
}

/** Whether a proxy is set for an https base URL (proxy-env.ts; NO_PROXY is applied per origin by proxy.ts). */
function proxySet(): boolean {
  return proxyVariable('https:') !== undefined;
}

/**
 * Closes a transport: gracefully (requests in flight finish) for at most
 * `graceMs`, then by force. A request never settled (a connection a proxy
 * agent keeps retrying) must not keep the process alive after the command ended.
 */
export async function closeTransport(d: Pick<Transport, 'close' | 'destroy'>, graceMs = 1000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  // A close that fails (a transport already destroyed) leaves nothing to wait for either.
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

/** The error for the last failed attempt of a request. */
function failure(err: unknown, a: { url: URL; method: string; attempts: number; answered: boolean; deadline: Deadline; timeoutMs: number }): Error {
  if (a.deadline.stopped) return new InterruptedError();
  if (a.deadline.expired) return timeoutError(a.url, a.method, a.timeoutMs, err);
  if (a.answered && !isTransportTimeout(err)) return cutError(err, a.url, a.method, a.attempts);
  if (DROPPED.has((err as { code?: string }).code ?? '')) return droppedError(err, a.url, a.method, a.attempts);
  return networkError(err, a.url, a.method, a.timeoutMs);
}

/** The transport's own time limit: connecting (or the proxy's tunnel). */
function isTransportTimeout(err: unknown): boolean {
  return (err as { code?: string }).code === CONNECT_TIMEOUT;
}

/** OpenSSL's and Node's codes for a server certificate that was checked and refused: the request never went out. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** An answer Node's HTTP parser refused (its HPE_ codes). */
function isParseError(err: unknown): boolean {
  return (err as { code?: string }).code?.startsWith('HPE_') === true;
}

/** The parser's reason (Node's `reason`, bounded: it may quote the server's bytes). */
function parseErrorText(err: unknown): string {
  const e = err as { reason?: unknown; code?: string };
  return (typeof e.reason === 'string' ? e.reason : (e.code ?? '')).slice(0, 200);
}

/** What to do next after a failure: a request that changes something may have taken effect. */
function nextStep(method: string, forGet: string): string {
  return method === 'GET' ? forGet : 'The request was sent: check whether it took effect before trying again.';
}

const RAISE_TIMEOUT = 'Raise the limit with --timeout SECONDS, or check the server and your network.';

function timeoutError(url: URL, method: string, timeoutMs: number, cause: unknown): NetworkError {
  return new NetworkError(`No complete answer from ${method} ${url.origin}${url.pathname} within ${timeoutMs / 1000} s`, nextStep(method, RAISE_TIMEOUT), 'TIMEOUT', cause);
}

/** A connection that was made, then closed or reset before any answer: the server was reached. */
const DROPPED = new Set([CONNECTION_CLOSED, 'ECONNRESET']);

/**
 * The connection was made and dropped before the answer began (on every
 * attempt, for a GET): not "could not reach", and not a code name.
 */
function droppedError(err: unknown, url: URL, method: string, attempts: number): NetworkError {
  const where = `${method} ${url.origin}${url.pathname}`;
  const what = (err as { code?: string }).code === 'ECONNRESET' ? `The connection was reset before ${where} was answered` : `The server closed the connection without answering ${where}`;
  const hint = nextStep(method, 'Try again in a while; if it keeps happening, check that the base URL is the API, and any proxy on the way (HTTPS_PROXY, NO_PROXY), or ask the API provider.');
  return new NetworkError(`${what}${attempts > 1 ? ` (${attempts} attempts)` : ''}`, hint, 'NETWORK', err);
}

/**
 * The server answered, and the connection broke while the body was coming
 * (on every attempt, for a GET): not "could not reach", and not the base URL.
 */
function cutError(err: unknown, url: URL, method: string, attempts: number): NetworkError {
  const code = (err as { code?: string }).code;
  const what =
    code === 'ECONNRESET'
      ? 'The connection was reset'
      : code === CONNECTION_CLOSED
        ? 'The connection was closed'
        : isParseError(err)
          ? `The server broke the HTTP/1.1 protocol (${parseErrorText(err)})`
          : `The connection failed (${code ?? (err as Error).message})`;
  const hint = nextStep(method, 'Try again in a while; if it keeps happening, a proxy or load balancer on the way may be cutting answers off (check HTTPS_PROXY and NO_PROXY), or ask the API provider.');
  return new NetworkError(`${what} while the answer of ${method} ${url.origin}${url.pathname} was being received${attempts > 1 ? ` (${attempts} attempts)` : ''}`, hint, 'RESPONSE_CUT', err);
}

function networkError(err: unknown, url: URL, method: string, timeoutMs: number): NetworkError {
  const e = err as Error & { code?: string };
  const where = `${method} ${url.origin}${url.pathname}`;
  if (isTransportTimeout(e)) return new NetworkError(`No answer from ${where} within ${timeoutMs / 1000} s`, nextStep(method, RAISE_TIMEOUT), 'TIMEOUT', err);
  if (e.code !== undefined && UNTRUSTED_CERTIFICATE.has(e.code)) {
    return new NetworkError(
      `The TLS certificate of ${url.origin} is not trusted (${e.code}); nothing was sent`,
      'Check the base URL. A gateway of your own with a private certificate authority: give its CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.',
      'NETWORK',
      err,
    );
  }
  if (e.code === 'HPE_HEADER_OVERFLOW') {
    return new NetworkError(`The answer of ${where} has headers larger than 16 KiB; it was not read`, 'No answer of the API has headers that large: check the base URL (another service may be answering), or ask the API provider.', 'NETWORK', err);
  }
  if (isParseError(e)) return new NetworkError(`The answer of ${where} is not HTTP/1.1 (${parseErrorText(e)})`, 'Check the base URL: something other than the API answers there (an https port reached with http://, or another service).', 'NETWORK', err);
  const proxy = e.code === 'PROXY_CLOSED' || e.code === 'PROXY_REFUSED';
  return new NetworkError(`Could not reach ${where}: ${proxy ? e.message : (e.code ?? e.message)}`, 'Check the base URL, your network and any proxy settings (HTTPS_PROXY, NO_PROXY).', 'NETWORK', err);
}
