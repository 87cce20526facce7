// partner's one HTTP stack: undici, through its public entry. The API client
// (http.ts) and the delivery client (delivery.ts) each send through an agent
// made here, with a dispatch handler of their own (answer-reader.ts,
// delivery.ts); tests hand them undici's MockAgent instead. Errors are told
// apart by undici's error classes and Node's codes (request-failures.ts).
import { Agent, EnvHttpProxyAgent, Pool, errors, type buildConnector, type Dispatcher } from 'undici';
import { connectionLimits } from './deadline.js';
import { PROXY_CLOSED } from './request-failures.js';

export { errors };
export type { Dispatcher };

/** What a client needs of its dispatcher: undici's agents and MockAgent all have it. */
export type Transport = Pick<Dispatcher, 'dispatch' | 'close' | 'destroy'>;

/**
 * The keep-alive pool of one client (connectionLimits), with undici's own
 * timeouts at the client's deadline (the total deadline is the caller's:
 * Deadline).
 */
export function agentOptions(timeoutMs: number, connections: number): Agent.Options {
  const t = connectionLimits(timeoutMs);
  return {
    connections,
    keepAliveTimeout: t.keepAliveTimeout,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: t.connectTimeout },
  };
}

/** A direct connection to every origin (loopback, the user's own receiver). */
export function directAgent(timeoutMs: number, connections: number): Transport {
  return new Agent(agentOptions(timeoutMs, connections));
}

/**
 * An agent that goes through HTTPS_PROXY/HTTP_PROXY when they are set, except
 * for the hosts NO_PROXY names (undici's EnvHttpProxyAgent reads all of
 * them). Two holes in undici's proxy agent are closed through its options:
 * - its pool to the proxy (`clientFactory`) is made without our options: a
 *   proxy that never answers CONNECT held the request for undici's default
 *   300 s, past any --timeout. It gets the same timeouts.
 * - a proxy that closes the connection without answering CONNECT fails the
 *   tunnel with undici's "socket" error, which undici treats as recoverable
 *   before a request has started: it reconnected for ever, the request never
 *   settled and the process never exited. The tunnel's connector (`factory`:
 *   the pools that reach an origin through the proxy) turns that error into
 *   PROXY_CLOSED: the request fails, and is retried as a reset would be.
 */
export function proxyAgent(timeoutMs: number, connections: number): Transport {
  const opts = agentOptions(timeoutMs, connections);
  return new EnvHttpProxyAgent({
    ...opts,
    clientFactory: (origin: URL, o: Pool.Options) => new Pool(origin, { ...o, headersTimeout: opts.headersTimeout, bodyTimeout: opts.bodyTimeout, connect: opts.connect }),
    factory: (origin: string | URL, o: Pool.Options) => new Pool(origin, typeof o.connect === 'function' ? { ...o, connect: proxyClosedFails(o.connect) } : o),
  } as EnvHttpProxyAgent.Options);
}

function proxyClosedFails(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (...told) => {
      const err = told[0] as (Error & { code?: string }) | null;
      if (err?.code !== 'UND_ERR_SOCKET') return callback(...told);
      callback(Object.assign(new Error('the proxy closed the connection without answering CONNECT', { cause: err }), { code: PROXY_CLOSED }), null);
    });
}
