// A local webhook receiver for building an integration (in the spirit of
// `stripe listen`): every POST body is verified like `webhook verify`, the
// sender gets 200 / 400 / 401 / 413, and valid events can be forwarded as
// decoded JSON to the partner's own local endpoint.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, request } from 'undici';
import { listenError } from '../errors.js';
import type { KeyStore } from './jwks.js';
import { MAX_WEBHOOK_BYTES, REASONS, tooLargeVerdict, verifyWebhook, type Verdict } from './verify.js';

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Only POSTs to this path are webhooks; others get 404. */
  path: string;
  forwardTo?: string;
  /** Only these event types are reported and forwarded (others still get 200). */
  events?: ReadonlySet<string>;
  /** Time limit of a forward, ms. */
  timeoutMs: number;
  now?: () => number;
}

export interface ForwardResult {
  url: string;
  status?: number;
  error?: string;
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
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

/** The answer for a verdict: 200 valid, 413 too large, 400 malformed or bad payload, 401 anything about the signature. */
export function statusForVerdict(v: Verdict): number {
  if (v.valid) return 200;
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

/** Reads the body; undefined when it grows past the limit (reading stops there). */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', (e) => {
      if (!done) {
        done = true;
        reject(e);
      }
    });
  });
}

export async function startReceiver(opts: ReceiverOptions, store: KeyStore, onEvent: (e: ReceivedEvent) => void | Promise<void>, onError: (message: string) => void): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const agent = opts.forwardTo ? new Agent({ connections: 4, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs, connect: { timeout: Math.min(opts.timeoutMs, 10_000) } }) : undefined;
  const sockets = new Set<Socket>();
  let closed = false;

  async function forward(v: Verdict): Promise<ForwardResult> {
    const url = opts.forwardTo!;
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'partner-cli-webhook-listen',
          'x-partner-event-type': v.eventType ?? '',
          'x-partner-webhook-kid': v.kid ?? '',
        },
        body: JSON.stringify(v.payload),
      });
      await res.body.dump();
      return { url, status: res.statusCode };
    } catch (err) {
      const e = err as Error & { code?: string };
      return { url, error: e.code ?? e.message };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const time = new Date(now()).toISOString();
    const path = new URL(req.url ?? '/', 'http://receiver.invalid').pathname;
    if (path !== opts.path) {
      reply(res, 404, { error: 'NOT_FOUND', message: `webhooks are received on ${opts.path}` });
      return;
    }
    if (req.method !== 'POST') {
      reply(res, 405, { error: 'METHOD_NOT_ALLOWED', message: 'webhooks are delivered with POST' }, { allow: 'POST' });
      return;
    }
    const declared = Number(req.headers['content-length']);
    const body = Number.isFinite(declared) && declared > MAX_WEBHOOK_BYTES ? undefined : await readLimited(req, MAX_WEBHOOK_BYTES);
    let verdict: Verdict;
    if (body === undefined) {
      // Too large: answer at once without reading the rest, and close the connection.
      verdict = tooLargeVerdict();
      const event: ReceivedEvent = { time, httpStatus: 413, verdict, filtered: false };
      res.once('finish', () => req.socket.destroy());
      reply(res, 413, { error: verdict.reason, message: verdict.message }, { connection: 'close' });
      await onEvent(event);
      return;
    }
    try {
      verdict = await verifyWebhook(body, store);
    } catch (err) {
      // The key set could not be fetched: nothing is known about the webhook.
      onError(`could not verify a webhook: ${(err as Error).message}`);
      reply(res, 503, { error: 'KEYS_UNAVAILABLE', message: 'the signing key set could not be fetched' }, { 'retry-after': '5' });
      return;
    }
    const httpStatus = statusForVerdict(verdict);
    const filtered = verdict.valid && opts.events !== undefined && !opts.events.has(verdict.eventType ?? '');
    const event: ReceivedEvent = { time, httpStatus, verdict, filtered };
    if (verdict.valid && !filtered && opts.forwardTo && !closed) event.forward = await forward(verdict);
    reply(res, httpStatus, verdict.valid ? { received: true, eventType: verdict.eventType } : { error: verdict.reason, message: verdict.message });
    await onEvent(event);
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
        await agent?.close();
      });
      return closing;
    },
  };
}
