// The API client's way through a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, by
// the rules of proxy-env.ts), loaded only when one is set. A
// base URL is https, or http on loopback, and loopback never goes through a
// proxy (http.ts): so every proxied request is https, through a CONNECT tunnel
// (https-proxy-agent), and the proxy never sees the token in clear.
// Two holes of a tunnel are closed here:
// - a proxy that never answers CONNECT: the tunnel is bounded by the connect
//   limit (CONNECT_TIMEOUT); its socket is closed when the client closes.
// - a proxy that hangs up without an answer: PROXY_CLOSED, which the client
//   retries as a connection closed before the answer (a bounded number of
//   times), never a tunnel opened again for ever.
// A proxy that refuses the tunnel (407, 502 ...) is PROXY_REFUSED: its answer
// is not the API's.
import type { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { proxyForUrl } from './proxy-env.js';
import { agentOptions, codedError, CONNECT_TIMEOUT, type ConnectionLimits, type ProxyRoute } from './transport.js';

export const PROXY_CLOSED = 'PROXY_CLOSED';
export const PROXY_REFUSED = 'PROXY_REFUSED';

/** The proxy for a URL ('' when none, or NO_PROXY names its host), as the client picks it. */
export function proxyFor(url: URL): string {
  return proxyForUrl(url);
}

/** The agents of the origins that go through a proxy, one per proxy, sharing the client's limits. */
export function proxyRoute(limits: ConnectionLimits): ProxyRoute {
  const agents = new Map<string, Agent>();
  // Every socket to a proxy is made with this signal: a tunnel still waiting for its CONNECT answer is
  // in no pool, and would keep the process alive after the command ended.
  const lifetime = new AbortController();
  return {
    agentFor(origin) {
      const proxy = proxyFor(origin);
      if (proxy === '') return undefined;
      let agent = agents.get(proxy);
      if (!agent) agents.set(proxy, (agent = new TunnelAgent(proxy, limits, lifetime.signal)));
      return agent;
    },
    destroy() {
      lifetime.abort();
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

class TunnelAgent extends HttpsProxyAgent<string> {
  constructor(
    proxy: string,
    private readonly limits: ConnectionLimits,
    signal: AbortSignal,
  ) {
    super(proxy, { ...agentOptions(limits), signal });
  }

  override connect(...args: Parameters<HttpsProxyAgent<string>['connect']>): Promise<Socket> {
    const [req] = args;
    let status = 200;
    const onConnect = (answer: { statusCode?: number }) => (status = answer.statusCode ?? 200);
    req.once('proxyConnect', onConnect);
    const tunnel = super.connect(...args).then(
      (socket) => {
        if (status === 200) return socket;
        // The library hands back a socket that replays the proxy's answer: the request never reached the API.
        socket.destroy();
        throw codedError(`the proxy refused the tunnel (HTTP ${status} to CONNECT)`, PROXY_REFUSED);
      },
      (err: Error & { code?: string }) => {
        // Node's errors have a code (ECONNREFUSED, ECONNRESET ...); the library's own (the proxy ended the
        // connection before its answer, or answered with no HTTP) have none.
        throw err.code === undefined ? codedError('the proxy closed the connection without answering CONNECT', PROXY_CLOSED, err) : err;
      },
    );
    return bounded(tunnel, this.limits.connectTimeout).finally(() => req.off('proxyConnect', onConnect));
  }
}

/** The tunnel within `ms`, or CONNECT_TIMEOUT; a tunnel that opens after all is closed. */
function bounded(tunnel: Promise<Socket>, ms: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(codedError(`no tunnel through the proxy within ${ms} ms`, CONNECT_TIMEOUT));
      tunnel.then(
        (socket) => socket.destroy(),
        () => undefined,
      );
    }, ms);
    tunnel.then(
      (socket) => {
        clearTimeout(timer);
        resolve(socket);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
