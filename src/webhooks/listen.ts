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
import { BodyTooLargeError, readCapped } from '../input.js';
import { abandonAfterMs, delivered, DirectDelivery, Forwarder, payloadDigest, type ForwardEvent, type ForwardResult } from './forward.js';
import type { KeyStore } from './jwks.js';
import type { DeliveryClient } from '../api/delivery.js';
import { MAX_WEBHOOK_BYTES, REASONS, tooLargeVerdict, verifyWebhook, type Verdict } from './verify.js';

export type { ForwardResult } from './forward.js';

/** Where verified events are kept durably before they are acknowledged (the spool). */
export interface EventStore {
  /** Resolves once the event is on disk: 'stored', or 'duplicate' when its digest is already kept. Rejects when it cannot be kept. */
  accept(e: { digest: string; jws: string; verdict: Verdict; receivedAt: string }): Promise<'stored' | 'duplicate'>;
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
}

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
  close(): Promise<void>;
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

export async function startReceiver(opts: ReceiverOptions, store: KeyStore, onEvent: (e: ReceivedEvent) => void | Promise<void>, onError: (message: string) => void): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const forwarder = opts.forwardTo && !opts.spool ? new Forwarder(opts.forwardTo, opts.delivery ?? abandonAfterMs(opts.forwardTimeoutMs)) : undefined;
  const direct = forwarder ? new DirectDelivery(forwarder, opts.forwardTimeoutMs, DEDUPE_WINDOW_MS, now) : undefined;
  const sockets = new Set<Socket>();
  let closed = false;

  // A failing output (a write error, a rendering bug) must never stop the receiver.
  async function report(event: ReceivedEvent): Promise<void> {
    try {
      await onEvent(event);
    } catch (err) {
      onError(`could not report an event: ${(err as Error).message}`);
    }
  }

  const notKept = (res: ServerResponse, message: string) => reply(res, 503, { error: 'NOT_DELIVERED', message }, { 'retry-after': String(RETRY_AFTER_S) });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const time = new Date(now()).toISOString();
    if (requestPath(req.url) !== opts.path) {
      reply(res, 404, { error: 'NOT_FOUND', message: `webhooks are received on ${opts.path}` });
      return;
    }
    if (req.method !== 'POST') {
      reply(res, 405, { error: 'METHOD_NOT_ALLOWED', message: 'webhooks are delivered with POST' }, { allow: 'POST' });
      return;
    }
    // Capped while reading; too large is answered 413 on the same connection, then it is closed.
    const body = await readCapped(req, MAX_WEBHOOK_BYTES, { declaredLength: req.headers['content-length'], keepOpen: true }).catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) {
        req.pause();
        return undefined;
      }
      throw err;
    });
    let verdict: Verdict;
    if (body === undefined) {
      // Too large: answer at once without reading the rest, and close the connection.
      verdict = tooLargeVerdict();
      const event: ReceivedEvent = { time, httpStatus: 413, verdict, filtered: false };
      res.once('finish', () => req.socket.destroy());
      reply(res, 413, { error: verdict.reason, message: verdict.message }, { connection: 'close' });
      await report(event);
      return;
    }
    try {
      verdict = await verifyWebhook(body, store);
    } catch (err) {
      // The key set could not be fetched: nothing is known about the webhook.
      onError(`could not verify a webhook: ${(err as Error).message}`);
      reply(res, 503, { error: 'KEYS_UNAVAILABLE', message: 'the signing key set could not be fetched' }, { 'retry-after': String(RETRY_AFTER_S) });
      return;
    }
    if (!verdict.valid) {
      const httpStatus = statusForVerdict(verdict);
      const extra: Record<string, string> = httpStatus === 503 ? { 'retry-after': String(Math.max(1, Math.ceil((verdict.retryAfterMs ?? 0) / 1000))) } : {};
      reply(res, httpStatus, { error: verdict.reason, message: verdict.message }, extra);
      await report({ time, httpStatus, verdict, filtered: false });
      return;
    }
    const event: ReceivedEvent = { time, httpStatus: 200, verdict, filtered: false };
    if (opts.maxAgeMs !== undefined) {
      const at = verdict.timestamp === null ? NaN : Date.parse(verdict.timestamp);
      if (Number.isNaN(at) || now() - at > opts.maxAgeMs) {
        event.httpStatus = 400;
        event.problem = Number.isNaN(at) ? 'no timestamp to check --max-age against' : `older than --max-age (timestamp ${verdict.timestamp})`;
        reply(res, 400, { error: 'STALE_EVENT', message: `refused by --max-age: ${event.problem}` });
        await report(event);
        return;
      }
    }
    event.filtered = opts.events !== undefined && !opts.events.has(verdict.eventType ?? '');
    if (!event.filtered && (opts.spool || direct)) {
      const digest = payloadDigest(verdict.payload);
      if (opts.spool) {
        try {
          event.spooled = await opts.spool.accept({ digest, jws: bodyText(body), verdict, receivedAt: time });
        } catch (err) {
          event.httpStatus = 503;
          event.problem = `not stored in the spool: ${(err as Error).message}`;
        }
      } else if (direct && !closed) {
        const fe: ForwardEvent = { digest, eventType: verdict.eventType, kid: verdict.kid, body: JSON.stringify(verdict.payload) };
        event.forward = await direct.deliver(fe);
        if (!delivered(event.forward)) {
          event.httpStatus = 503;
          event.problem = `the target did not take it (${event.forward.status !== undefined ? `HTTP ${event.forward.status}` : event.forward.error})`;
        }
      } else {
        event.httpStatus = 503;
        event.problem = 'the receiver is stopping';
      }
    }
    if (event.httpStatus === 503) notKept(res, `${event.problem}; retry later`);
    else reply(res, 200, { received: true, eventType: verdict.eventType, ...(event.forward?.duplicate || event.spooled === 'duplicate' ? { duplicate: true } : {}) });
    await report(event);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      onError(`receiver error: ${(err as Error).message}`);
      reply(res, 500, { error: 'INTERNAL', message: 'receiver error' });
    });
  });
  server.on('connection', (s: Socket) => {
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
    close() {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
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
