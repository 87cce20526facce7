// The parts of undici partner uses, imported past its index: the API
// client's agents behind a proxy (a direct request goes through node:http,
// node-transport.ts) and the delivery client of `webhook listen`, `replay`
// and `sandbox emit` (delivery.ts). The index also loads fetch, WebSocket,
// EventSource, the caches and the cookie helpers, and the cookie helpers read
// globalThis.Headers: that getter makes Node load its own copy of undici and
// compile a second HTTP parser (WebAssembly) that is never used. Measured
// with the index instead (issue 33): `sandbox emit --to` 1.27x the wall time
// on Node 24, 1.11x on Node 20 (11 paired runs); a lookup through a proxy
// pays the same. These paths are undici's own files (it has no exports map):
// undici is pinned to the exact version they were checked against, and a
// release that moves them fails the build, never silently.
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import errors from 'undici/lib/core/errors.js';
import connect from 'undici/lib/api/api-connect.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import type { Agent as AgentType, Dispatcher as DispatcherType, Pool as PoolType } from 'undici';
import { connectionLimits } from './deadline.js';
// Of undici's request APIs (lib/api, which its index gives every dispatcher) only connect(): its
// proxy agent opens the CONNECT tunnel with it. Requests go through dispatch with a handler of
// partner's own (answer-reader.ts, delivery.ts): request(), stream() and the rest are never loaded.
Dispatcher.prototype.connect = connect;

export { Agent, EnvHttpProxyAgent, errors };
export type { DispatcherType as Dispatcher };

/**
 * The keep-alive pool of one client (connectionLimits), with undici's own
 * timeouts at the client's deadline (the total deadline is the caller's:
 * Deadline).
 */
export function poolOptions(timeoutMs: number, connections: number): AgentType.Options {
  const t = connectionLimits(timeoutMs);
  return {
    connections,
    keepAliveTimeout: t.keepAliveTimeout,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: t.connectTimeout },
  };
}

/**
 * The agent for a base URL that may go through HTTPS_PROXY/HTTP_PROXY (never
 * loopback: http.ts). Two holes in undici's proxy agent are closed here:
 * - its connection to the proxy is a pool of its own, made without our
 *   options: a proxy that never answers CONNECT held the request for undici's
 *   default 300 s, past any --timeout. It gets the same timeouts.
 * - a proxy that closes the connection without answering CONNECT fails with
 *   undici's "socket" error, which undici treats as recoverable before a
 *   request has started: it reconnected for ever, the request never settled
 *   and the process never exited. That error becomes PROXY_CLOSED (the
 *   request fails, and is retried as a reset connection would be).
 */
export function proxyAgent(opts: AgentType.Options): DispatcherType {
  const tunnel = { headersTimeout: opts.headersTimeout, bodyTimeout: opts.bodyTimeout, connect: opts.connect };
  return new EnvHttpProxyAgent({ ...opts, clientFactory: (origin: URL, o: PoolType.Options) => new ProxyPool(origin, { ...o, ...tunnel }) } as AgentType.Options);
}

class ProxyPool extends Pool {
  // Only the promise form: undici's proxy agent awaits connect(params).
  override connect(params: DispatcherType.ConnectOptions): Promise<DispatcherType.ConnectData>;
  override connect(params: DispatcherType.ConnectOptions, callback: (err: Error | null, data: DispatcherType.ConnectData) => void): void;
  override connect(params: DispatcherType.ConnectOptions, callback?: (err: Error | null, data: DispatcherType.ConnectData) => void): Promise<DispatcherType.ConnectData> | void {
    if (callback) return super.connect(params, callback);
    return super.connect(params).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'UND_ERR_SOCKET' ? Object.assign(new Error('the proxy closed the connection without answering CONNECT'), { code: 'PROXY_CLOSED', cause: err }) : err;
    });
  }
}
