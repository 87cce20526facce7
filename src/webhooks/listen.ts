// A local webhook receiver for building an integration (in the spirit of
// `stripe listen`): every POST body is verified like `webhook verify`, the
// sender gets 200 / 400 / 401 / 413 / 503, and valid events can be forwarded
// as decoded JSON to the partner's own local endpoint.
//
// The acknowledgement contract: 2xx only when the event is safely kept —
// forwarded with a 2xx from the target, or appended (fsync'd) to the spool —
// or when nothing is asked of it (no --forward-to, or filtered out by
// --events). Otherwise 503 with Retry-After: the sender keeps it and retries.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { listenError } from '../errors.js';
import { readBody } from './body.js';
import { ConnectionGuard } from './connection-guard.js';
import { NO_METRICS, type MetricsEndpoint, type ReceiverMetrics } from './metrics.js';
import { abandonAfterMs, delivered, digestOfJson, DirectDelivery, Forwarder, forwardBody, type ForwardEvent, type ForwardResult } from './forward.js';
import { stringifyExact } from '../json/stringify-exact.js';
import type { KeyStore } from './jwks.js';
import type { DeliveryClient } from '../api/delivery.js';
import { MAX_WEBHOOK_BYTES, REASONS, tooLargeVerdict, verifyWebhook, type SignedText, type Verdict } from './verify.js';

export type { ForwardResult } from './forward.js';

/** A verified event to keep. */
export interface StoredEvent {
  digest: string;
  jws: string;
  verdict: Verdict;
  receivedAt: string;
  /** The payload as stringifyExact writes it (what the digest is of), when the receiver has it already. */
  payloadJson?: string;
  /** The payload's text as signed (what the target receives), when the receiver has it already. */
  payloadText?: string;
}

/** Where verified events are kept durably before they are acknowledged (the spool). */
export interface EventStore {
  /** Resolves once the event is on disk: 'stored', or 'duplicate' when its digest is already kept. Rejects when it cannot be kept. */
  accept(e: StoredEvent): Promise<'stored' | 'duplicate'>;
}

/** Seconds a sender is asked to wait before retrying an event that was not kept. */
export const RETRY_AFTER_S = 5;
/** How long a delivered event's digest is remembered, to acknowledge a retried copy without sending it again. */
export const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Only POSTs to this path are webhooks; others get 404. */
  path: string;
  forwardTo?: string;
  /** Only these event types are reported and forwarded (others still get 200). */
  events?: ReadonlySet<string>;
  /** Total deadline of one forward, ms. */
  forwardTimeoutMs: number;
  /** The client forwards go through (the context's delivery client, deadline abandonAfterMs); without it the forwarder makes its own. */
  delivery?: DeliveryClient;
  /** Durable store: when set, an event is acknowledged once stored, and delivered from there. */
  spool?: EventStore;
  /** Refuse events whose timestamp is older than this (replay protection); off when undefined. */
  maxAgeMs?: number;
  now?: () => number;
  /** A sender has this long for its headers, and as long again for its body (408 when over). */
  readTimeoutMs: number;
  /** Sender connections open at once (connection-guard.ts: idle and slow ones make room first). */
  maxConnections: number;
  /** Bytes of request bodies held at once (503 with Retry-After past it). */
  maxHeldBytes: number;
  /** Counted events and, with --metrics, `GET /metrics`. */
  metrics?: ReceiverMetrics | MetricsEndpoint;
  /** Why the spool cannot take an event now (spool-health.ts), for `GET /healthz`. */
  spoolProblem?: () => Promise<string | undefined>;
}

/** The paths answered to GET beside the webhook path. */
export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

export interface ReceivedEvent {
  /** When it arrived, ISO 8601. */
  time: string;
  /** What the receiver answered. */
  httpStatus: number;
  verdict: Verdict;
  forward?: ForwardResult;
  /** Valid but not in --events: acknowledged, not reported further. */
  filtered: boolean;
  /** Stored in the spool ('duplicate': a copy was already there). */
  spooled?: 'stored' | 'duplicate';
  /** Why a valid event was answered 503 or 400 (not kept, or too old). */
  problem?: string;
}

export interface Receiver {
  url: string;
  /** Stops taking connections and requests (health answers 503 from now on); close() then ends the rest. */
  stopAccepting(): void;
  close(): Promise<void>;
  readonly guard: ConnectionGuard;
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

function reply(res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

/** The path of a request target, without query or fragment; never throws (`//`, `//x` are paths here, not hosts). */
export function requestPath(target: string | undefined): string {
  const t = target ?? '/';
  const end = t.search(/[?#]/);
  return end === -1 ? t : t.slice(0, end);
}

const BUSY_BODY = '{"error":"BUSY","message":"every connection is in use; retry later"}';
/** The raw answer to a connection refused before any request was read (every slot busy). */
const REFUSED = `HTTP/1.1 503 Service Unavailable\r\nretry-after: ${RETRY_AFTER_S}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${BUSY_BODY.length}\r\n\r\n${BUSY_BODY}`;

/**
 * Stops reading a sender's bytes at once. A refused sender (over the body
 * budget, too slow) has more of its body on the wire; Node's HTTP server reads
 * on (socket.pause() does not stop a socket its parser consumes) until the
 * connection is closed, and each read becomes garbage. Measured on Node 24 with
 * 500 senders of 1 MiB (test/e2e/webhook-bounds.test.ts): 192 KiB read per
 * refused sender and a peak of 194 MiB, against 64 KiB and 157-171 MiB with
 * reading stopped. The handle is Node's own (no public call does this); where a
 * Node has none, nothing happens and the connection is closed as before.
 */
function stopReading(socket: Socket | null): void {
  (socket as unknown as { _handle?: { readStop?: () => unknown } } | null)?._handle?.readStop?.();
}

export async function startReceiver(opts: ReceiverOptions, store: KeyStore, onEvent: (e: ReceivedEvent) => void | Promise<void>, onError: (message: string) => void): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const metrics = opts.metrics ?? NO_METRICS;
  const endpoint = 'text' in metrics ? (metrics as MetricsEndpoint) : undefined;
  const forwarder = opts.forwardTo && !opts.spool ? new Forwarder(opts.forwardTo, opts.delivery ?? abandonAfterMs(opts.forwardTimeoutMs)) : undefined;
  const direct = forwarder ? new DirectDelivery(forwarder, opts.forwardTimeoutMs, DEDUPE_WINDOW_MS, now) : undefined;
  const guard = new ConnectionGuard(opts.maxConnections, opts.maxHeldBytes, now);
  const sockets = new Set<Socket>();
  let closed = false;
  let accepting = true;

  // A failing output (a write error, a rendering bug) must never stop the receiver.
  async function report(event: ReceivedEvent): Promise<void> {
    try {
      await onEvent(event);
    } catch (err) {
      onError(`could not report an event: ${(err as Error).message}`);
    }
  }

  const notKept = (res: ServerResponse, message: string) => reply(res, 503, { error: 'NOT_DELIVERED', message }, { 'retry-after': String(RETRY_AFTER_S) });
  /** Answers, then closes the connection (a sender cut off: its bytes are not read on). */
  const replyAndClose = (res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}) => {
    stopReading(res.socket);
    res.once('finish', () => res.socket?.destroy());
    reply(res, status, body, { connection: 'close', ...extra });
    // An answer the sender does not read (a stalled socket) must not hold the connection either.
    if (!res.writableFinished) setTimeout(() => res.socket?.destroy(), 1000).unref();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const time = new Date(now()).toISOString();
    const where = requestPath(req.url);
    if (req.method === 'GET' && where === HEALTH_PATH) return health(res);
    if (req.method === 'GET' && where === METRICS_PATH && endpoint) return metricsText(res, endpoint);
    if (where !== opts.path) {
      reply(res, 404, { error: 'NOT_FOUND', message: `webhooks are received on ${opts.path}` });
      return;
    }
    if (req.method !== 'POST') {
      reply(res, 405, { error: 'METHOD_NOT_ALLOWED', message: 'webhooks are delivered with POST' }, { allow: 'POST' });
      return;
    }
    metrics.received();
    const started = performance.now();
    res.once('finish', () => metrics.answered(res.statusCode, (performance.now() - started) / 1000));
    guard.set(req.socket, 'reading');
    const read = await readBody(req, { maxBytes: MAX_WEBHOOK_BYTES, deadlineMs: opts.readTimeoutMs, guard, onEvict: () => metrics.connection('slow') });
    guard.set(req.socket, 'busy');
    if (!read.ok) {
      if (read.why === 'too-large') {
        // Too large: answered at once without reading the rest, and the connection closed.
        const verdict = tooLargeVerdict();
        metrics.refused(verdict.reason ?? 'TOO_LARGE');
        replyAndClose(res, 413, { error: verdict.reason, message: verdict.message });
        await report({ time, httpStatus: 413, verdict, filtered: false });
      } else if (read.why === 'timeout') {
        metrics.refused('REQUEST_TIMEOUT');
        replyAndClose(res, 408, { error: 'REQUEST_TIMEOUT', message: `the body did not arrive within ${opts.readTimeoutMs / 1000} s` });
      } else if (read.why === 'over-budget') {
        metrics.refused('BUSY');
        replyAndClose(res, 503, { error: 'BUSY', message: 'too many bodies being received; retry later' }, { 'retry-after': String(RETRY_AFTER_S) });
      } else res.socket?.destroy(); // the sender went away
      return;
    }
    try {
      await answer(read.body, time, res);
    } finally {
      read.release();
    }
  }

  async function answer(body: Buffer, time: string, res: ServerResponse): Promise<void> {
    let verdict: Verdict;
    const signed: SignedText = {};
    try {
      verdict = await verifyWebhook(body, store, signed);
    } catch (err) {
      // The key set could not be fetched: nothing is known about the webhook.
      onError(`could not verify a webhook: ${(err as Error).message}`);
      metrics.refused('KEYS_UNAVAILABLE');
      reply(res, 503, { error: 'KEYS_UNAVAILABLE', message: 'the signing key set could not be fetched' }, { 'retry-after': String(RETRY_AFTER_S) });
      return;
    }
    if (!verdict.valid) {
      const httpStatus = statusForVerdict(verdict);
      metrics.refused(verdict.reason ?? 'INVALID');
      const extra: Record<string, string> = httpStatus === 503 ? { 'retry-after': String(Math.max(1, Math.ceil((verdict.retryAfterMs ?? 0) / 1000))) } : {};
      reply(res, httpStatus, { error: verdict.reason, message: verdict.message }, extra);
      await report({ time, httpStatus, verdict, filtered: false });
      return;
    }
    metrics.verified();
    const event: ReceivedEvent = { time, httpStatus: 200, verdict, filtered: false };
    if (opts.maxAgeMs !== undefined) {
      const at = verdict.timestamp === null ? NaN : Date.parse(verdict.timestamp);
      if (Number.isNaN(at) || now() - at > opts.maxAgeMs) {
        event.httpStatus = 400;
        event.problem = Number.isNaN(at) ? 'no timestamp to check --max-age against' : `older than --max-age (timestamp ${verdict.timestamp})`;
        metrics.refused('STALE_EVENT');
        reply(res, 400, { error: 'STALE_EVENT', message: `refused by --max-age: ${event.problem}` });
        await report(event);
        return;
      }
    }
    event.filtered = opts.events !== undefined && !opts.events.has(verdict.eventType ?? '');
    if (!event.filtered && (opts.spool || direct)) await keep(event, verdict, body, time, signed.payloadText);
    if (event.httpStatus === 503) {
      metrics.refused('NOT_KEPT');
      notKept(res, `${event.problem}; retry later`);
    } else reply(res, 200, { received: true, eventType: verdict.eventType, ...(event.forward?.duplicate || event.spooled === 'duplicate' ? { duplicate: true } : {}) });
    await report(event);
  }

  /** Stores (spool) or forwards (direct) a valid event; a 503 and its problem on `event` when it was not kept. */
  async function keep(event: ReceivedEvent, verdict: Verdict, body: Buffer, time: string, payloadText: string | undefined): Promise<void> {
    // Written once: the digest is of this text, and the journal's record holds it.
    const payloadJson = stringifyExact(verdict.payload);
    const digest = digestOfJson(payloadJson);
    if (opts.spool) {
      try {
        event.spooled = await opts.spool.accept({ digest, jws: bodyText(body), verdict, receivedAt: time, payloadJson, payloadText });
      } catch (err) {
        event.httpStatus = 503;
        event.problem = `not stored in the spool: ${(err as Error).message}`;
      }
    } else if (direct && !closed) {
      const fe: ForwardEvent = { digest, eventType: verdict.eventType, kid: verdict.kid, body: payloadText ?? forwardBody(body, verdict.payload) };
      event.forward = await direct.deliver(fe);
      if (!event.forward.duplicate) metrics.delivery({ result: event.forward });
      if (!delivered(event.forward)) {
        event.httpStatus = 503;
        event.problem = `the target did not take it (${event.forward.status !== undefined ? `HTTP ${event.forward.status}` : event.forward.error})`;
      }
    } else {
      event.httpStatus = 503;
      event.problem = 'the receiver is stopping';
    }
  }

  /** 200 while events are taken and can be kept; 503 with the reasons otherwise. Never an event, a payload or a token. */
  async function health(res: ServerResponse): Promise<void> {
    const reasons: string[] = [];
    if (!accepting || closed) reasons.push('the receiver is stopping');
    const keys = store.unreachable();
    if (keys) reasons.push(keys);
    const spool = await opts.spoolProblem?.();
    if (spool) reasons.push(spool);
    const extra = { 'cache-control': 'no-store' };
    if (reasons.length === 0) reply(res, 200, { status: 'ok' }, extra);
    else reply(res, 503, { status: 'unavailable', reasons }, { ...extra, 'retry-after': String(RETRY_AFTER_S) });
  }

  async function metricsText(res: ServerResponse, m: MetricsEndpoint): Promise<void> {
    const text = await m.text();
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, { 'content-type': m.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  }

  // Node's own clocks for the headers (and the whole request, as a backstop), checked every second
  // rather than every 30 s; the body has its own deadline in readBody.
  const server = createServer(
    { headersTimeout: opts.readTimeoutMs, requestTimeout: 2 * opts.readTimeoutMs + 1000, connectionsCheckingInterval: Math.min(1000, opts.readTimeoutMs), keepAliveTimeout: 5000 },
    (req, res) => {
      if (!accepting) res.shouldKeepAlive = false;
      res.once('finish', () => guard.set(req.socket, 'idle'));
      handle(req, res).catch((err: unknown) => {
        onError(`receiver error: ${(err as Error).message}`);
        reply(res, 500, { error: 'INTERNAL', message: 'receiver error' });
      });
    },
  );
  server.on('connection', (s: Socket) => {
    // Room for a new sender: an idle or slow connection is closed first; when every one is busy, refused.
    if (!accepting || !guard.admit(s, (why) => metrics.connection(why))) {
      metrics.connection('refused');
      s.on('error', () => undefined);
      s.end(REFUSED);
      setTimeout(() => s.destroy(), 1000).unref();
      return;
    }
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(listenError(err, `${opts.host}:${opts.port}`));
    server.once('error', onError);
    server.listen(opts.port, opts.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}${opts.path}`,
    guard,
    stopAccepting() {
      accepting = false;
      server.close();
      server.closeIdleConnections();
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        accepting = false;
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }).then(async () => {
        await forwarder?.close();
      });
      return closing;
    },
  };
}

function bodyText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
