// The receiver's status routes: GET /healthz (whether events are taken and
// can be kept, and why not) and GET /metrics (Prometheus text, with
// --metrics). Neither ever shows an event, a payload or a token.
import type { ServerResponse } from 'node:http';
import type { KeyStore } from './jwks.js';
import type { MetricsEndpoint } from './metrics.js';
import type { TargetHealth } from './target-health.js';
import { reply } from './receiver-replies.js';
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
