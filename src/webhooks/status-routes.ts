// The receiver's status routes: GET /healthz (whether events are taken and
// can be kept, and why not) and GET /metrics (Prometheus text, with
// --metrics). Neither ever shows an event, a payload or a token.
import type { ServerResponse } from 'node:http';
import type { KeyStore } from './jwks.js';
import type { MetricsEndpoint } from './metrics.js';
import { reply } from './receiver-replies.js';
import { RETRY_AFTER_S, type ReceiverState } from './receiver-types.js';

export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

export interface HealthSources {
  state: ReceiverState;
  store: KeyStore;
  /** Why the spool cannot take an event now (spool-health.ts). */
  spoolProblem?: () => Promise<string | undefined>;
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

/** 200 while events are taken and can be kept; 503 with the reasons otherwise. */
export async function healthRoute(res: ServerResponse, h: HealthSources): Promise<void> {
  const reasons = await healthReasons(h);
  const extra = { 'cache-control': 'no-store' };
  if (reasons.length === 0) reply(res, 200, { status: 'ok' }, extra);
  else reply(res, 503, { status: 'unavailable', reasons }, { ...extra, 'retry-after': String(RETRY_AFTER_S) });
}

export async function metricsRoute(res: ServerResponse, m: MetricsEndpoint): Promise<void> {
  const text = await m.text();
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'content-type': m.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}
