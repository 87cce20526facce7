// A local webhook receiver for building an integration (in the spirit of
// `stripe listen`): every POST body is verified like `webhook verify`, the
// sender gets 200 / 400 / 401 / 413 / 503, and valid events can be forwarded
// as decoded JSON to the partner's own local endpoint.
//
// This module puts the receiver together: the routes (webhook-route.ts,
// status-routes.ts), the connection bounds (connection-guard.ts), the
// forwarder without a spool, and the shutdown.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { listenError } from '../errors.js';
import { ConnectionGuard } from './connection-guard.js';
import { NO_METRICS, type MetricsEndpoint, type ReceiverMetrics } from './metrics.js';
import { abandonAfterMs, DirectDelivery, Forwarder } from './forward.js';
import type { KeyStore } from './jwks.js';
import { refuseConnection, reply, requestPath } from './receiver-replies.js';
import type { ReceivedEvent, ReceiverOptions, ReceiverState } from './receiver-types.js';
import { statusRoute, statusServer, type HealthSources } from './status-routes.js';
import { webhookRoute, type WebhookRouteDeps } from './webhook-route.js';

export type { ForwardResult } from './forward.js';
export { RETRY_AFTER_S, type EventStore, type ReceivedEvent, type ReceiverOptions, type StoredEvent } from './receiver-types.js';
export { requestPath } from './receiver-replies.js';
export { HEALTH_PATH, METRICS_PATH } from './status-routes.js';
export { statusForVerdict } from './webhook-route.js';

/** How long a delivered event's digest is remembered, to acknowledge a retried copy without sending it again. */
export const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Receiver {
  url: string;
  /** Where /healthz and /metrics are served, when not on the webhook port (--metrics-listen). */
  statusUrl?: string;
  /** Stops taking connections and requests (health answers 503 from now on); close() then ends the rest. */
  stopAccepting(): void;
  close(): Promise<void>;
  readonly guard: ConnectionGuard;
}

export async function startReceiver(opts: ReceiverOptions, store: KeyStore, onEvent: (e: ReceivedEvent) => void | Promise<void>, onError: (message: string) => void): Promise<Receiver> {
  const now = opts.now ?? Date.now;
  const metrics = opts.metrics ?? NO_METRICS;
  const forwarder = opts.forwardTo && !opts.spool ? new Forwarder(opts.forwardTo, opts.delivery ?? abandonAfterMs(opts.forwardTimeoutMs)) : undefined;
  const state: ReceiverState = { accepting: true, closed: false };
  const deps: WebhookRouteDeps = {
    opts,
    store,
    metrics,
    guard: new ConnectionGuard(opts.maxConnections, opts.maxHeldBytes, now),
    direct: forwarder ? new DirectDelivery(forwarder, opts.forwardTimeoutMs, DEDUPE_WINDOW_MS, now, opts.target) : undefined,
    state,
    now,
    report: (e) => reportSafely(onEvent, onError, e),
    onError,
  };
  const server = receiverServer(deps, route(deps));
  const sockets = admitConnections(server, deps);
  const status = opts.statusOn ? statusServer(healthOf(deps), metricsEndpoint(deps), onError) : undefined;
  await listenOn(server, opts.host, opts.port);
  try {
    if (status && opts.statusOn) await listenOn(status, opts.statusOn.host, opts.statusOn.port);
  } catch (err) {
    server.close();
    throw err;
  }
  return { url: urlOf(server, opts.host, opts.path), statusUrl: status && opts.statusOn ? urlOf(status, opts.statusOn.host, '') : undefined, guard: deps.guard, ...shutdown(server, sockets, state, forwarder, status) };
}

function urlOf(server: Server, host: string, path: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}

function healthOf(d: WebhookRouteDeps): HealthSources {
  return { state: d.state, store: d.store, spoolProblem: d.opts.spoolProblem, target: d.opts.target, spooled: d.opts.spool !== undefined };
}

function metricsEndpoint(d: WebhookRouteDeps): MetricsEndpoint | undefined {
  const metrics = d.metrics as ReceiverMetrics | MetricsEndpoint;
  return 'text' in metrics ? metrics : undefined;
}

/** A failing output (a write error, a rendering bug) must never stop the receiver. */
async function reportSafely(onEvent: (e: ReceivedEvent) => void | Promise<void>, onError: (message: string) => void, event: ReceivedEvent): Promise<void> {
  try {
    await onEvent(event);
  } catch (err) {
    onError(`could not report an event: ${(err as Error).message}`);
  }
}

/**
 * Which route answers a request: /healthz and /metrics (with --metrics;
 * not here with --metrics-listen), the webhook path; 404 and 405 otherwise.
 */
function route(d: WebhookRouteDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const health = d.opts.statusOn ? undefined : healthOf(d);
  const endpoint = metricsEndpoint(d);
  return async (req, res) => {
    const status = health && statusRoute(req, res, health, endpoint);
    if (status) return status;
    const where = requestPath(req.url);
    if (where !== d.opts.path) return reply(res, 404, { error: 'NOT_FOUND', message: `webhooks are received on ${d.opts.path}` });
    if (req.method !== 'POST') return reply(res, 405, { error: 'METHOD_NOT_ALLOWED', message: 'webhooks are delivered with POST' }, { allow: 'POST' });
    return webhookRoute(req, res, d);
  };
}

/**
 * Node's own clocks for the headers (and the whole request, as a backstop),
 * checked every second rather than every 30 s; the body has its own deadline
 * in readBody.
 */
function receiverServer(d: WebhookRouteDeps, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Server {
  const t = d.opts.readTimeoutMs;
  return createServer({ headersTimeout: t, requestTimeout: 2 * t + 1000, connectionsCheckingInterval: Math.min(1000, t), keepAliveTimeout: 5000 }, (req, res) => {
    if (!d.state.accepting) res.shouldKeepAlive = false;
    res.once('finish', () => d.guard.set(req.socket, 'idle'));
    handle(req, res).catch((err: unknown) => {
      d.onError(`receiver error: ${(err as Error).message}`);
      reply(res, 500, { error: 'INTERNAL', message: 'receiver error' });
    });
  });
}

/** Room for a new sender: an idle or slow connection is closed first; when every one is busy, refused. Returns the open sockets. */
function admitConnections(server: Server, d: WebhookRouteDeps): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    if (!d.state.accepting || !d.guard.admit(s, (why) => d.metrics.connection(why))) {
      d.metrics.connection('refused');
      refuseConnection(s);
      return;
    }
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

export function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(listenError(err, `${host}:${port}`));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Stopping: first no new connections or requests (a service winding down), then everything closed. */
function shutdown(server: Server, sockets: Set<Socket>, state: ReceiverState, forwarder: Forwarder | undefined, status: Server | undefined): Pick<Receiver, 'stopAccepting' | 'close'> {
  let closing: Promise<void> | undefined;
  return {
    stopAccepting() {
      state.accepting = false;
      server.close();
      server.closeIdleConnections();
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        state.closed = true;
        state.accepting = false;
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        status?.close();
        status?.closeAllConnections();
      }).then(async () => {
        await forwarder?.close();
      });
      return closing;
    },
  };
}
