// The receiver's status routes: GET /healthz (whether events are taken and
// can be kept, and why not) and GET /metrics (Prometheus text, with
// --metrics). Neither ever shows an event, a payload or a token.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { KeyStore } from './jwks.js';
import type { MetricsEndpoint } from './metrics.js';
import type { TargetHealth } from './target-health.js';
import { reply, requestPath } from './receiver-replies.js';
import { RETRY_AFTER_S, type ReceiverState } from './receiver-types.js';

export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

export interface HealthSources {
  state: ReceiverState;
  store: KeyStore;
  /** Why the spool cannot take an event now (spool-health.ts). */
  spoolProblem?: () => Promise<string | undefined>;
  /** Whether the forward target answers (with --forward-to). */
  target?: TargetHealth;
  /** Events are kept in a spool while the target is down (200 "degraded"); without one they are refused (503). */
  spooled: boolean;
}

/** Why events cannot be taken and kept now (empty when they can). */
export async function healthReasons(h: HealthSources): Promise<string[]> {
  const reasons: string[] = [];
  if (!h.state.accepting || h.state.closed) reasons.push('the receiver is stopping');
  const keys = h.store.unreachable();
  if (keys) reasons.push(keys);
  const spool = await h.spoolProblem?.();
  if (spool) reasons.push(spool);
  return reasons;
}

/**
 * 200 {"status":"ok"} while events are taken and can be kept; 503
 * {"status":"unavailable","reasons":[...]} otherwise. A target that cannot be
 * be reached is said in both cases: with a spool events are still kept (200
 * {"status":"degraded"}), without one they are answered 503 (so is this).
 */
export async function healthRoute(res: ServerResponse, h: HealthSources): Promise<void> {
  const reasons = await healthReasons(h);
  const down = h.target?.problem;
  const target = down ? { target: { reachable: false, unreachableSince: new Date(down.since).toISOString(), reason: down.reason } } : {};
  const saying = h.target?.describe(h.spooled ? 'spool' : 'refused');
  const extra = { 'cache-control': 'no-store' };
  if (saying && !h.spooled) reasons.push(saying);
  if (reasons.length > 0) reply(res, 503, { status: 'unavailable', reasons, ...target }, { ...extra, 'retry-after': String(RETRY_AFTER_S) });
  else if (saying) reply(res, 200, { status: 'degraded', reasons: [saying], ...target }, extra);
  else reply(res, 200, { status: 'ok' }, extra);
}

export async function metricsRoute(res: ServerResponse, m: MetricsEndpoint): Promise<void> {
  const text = await m.text();
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'content-type': m.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/** Answers GET /healthz and (with metrics) GET /metrics; false for any other request (the caller answers it). */
export function statusRoute(req: IncomingMessage, res: ServerResponse, h: HealthSources, metrics: MetricsEndpoint | undefined): Promise<void> | false {
  if (req.method !== 'GET') return false;
  const where = requestPath(req.url);
  if (where === HEALTH_PATH) return healthRoute(res, h);
  if (where === METRICS_PATH && metrics) return metricsRoute(res, metrics);
  return false;
}

/**
 * A server of its own for the status routes (--metrics-listen): bound to an
 * address only the monitoring reaches, while the webhook port (which senders
 * reach) answers them 404.
 */
export function statusServer(h: HealthSources, metrics: MetricsEndpoint | undefined, onError: (m: string) => void): Server {
  return createServer({ headersTimeout: 10_000, requestTimeout: 15_000 }, (req, res) => {
    const answered = statusRoute(req, res, h, metrics);
    if (answered === false) return reply(res, 404, { error: 'NOT_FOUND', message: `only GET ${HEALTH_PATH}${metrics ? ` and GET ${METRICS_PATH}` : ''} are served here` });
    answered.catch((err: unknown) => {
      onError(`status route error: ${(err as Error).message}`);
      reply(res, 500, { error: 'INTERNAL', message: 'status route error' });
    });
  });
}
