// The parts of undici the CLI uses, imported past its index. The index also
// loads fetch, WebSocket, EventSource, the caches and the cookie helpers, and
// the cookie helpers read globalThis.Headers: that getter makes Node load its
// own copy of undici and compile a second HTTP parser (WebAssembly) that is
// never used, and the process then waits at exit for V8 to finish optimising
// it. Every command that makes a request paid for that (README, Benchmarks).
// These paths are undici's own files (it has no exports map); a release that
// moves them fails the build, never silently.
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import errors from 'undici/lib/core/errors.js';
import type { Agent as AgentType, Dispatcher as DispatcherType } from 'undici';
import { setFlagsFromString } from 'node:v8';

// undici's HTTP parser (llhttp) is WebAssembly, compiled when the first
// connection opens. V8 soon starts optimising its hot functions in the
// background, and a process cannot exit before that compilation ends: ~50 ms
// added to every short command, for code it never gets to use. A larger
// tiering budget (V8's rough count of bytes executed before a function is
// optimised; default 1.8 M) lets short commands end at once, while a long
// export or a receiver left running still gets optimised code. Read when a
// module is compiled, so it must be set before the first request.
setFlagsFromString('--wasm-tiering-budget=100000000');

// What undici's index does: every dispatcher gets request(), stream() and the rest.
Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, errors };
export type { DispatcherType as Dispatcher };

/** undici's request(url, opts) without its index: `dispatcher.request` with origin and path from the URL. */
export function request(url: URL, opts: Omit<DispatcherType.RequestOptions, 'origin' | 'path'> & { dispatcher: DispatcherType }): Promise<DispatcherType.ResponseData> {
  const { dispatcher, ...rest } = opts;
  return dispatcher.request({ ...rest, origin: url.origin, path: `${url.pathname}${url.search}` });
}

/**
 * The keep-alive pool of one client: `connections` per origin, undici's own
 * timeouts at the client's deadline (the total deadline is the caller's:
 * Deadline), connecting within at most 10 s.
 */
export function poolOptions(timeoutMs: number, connections: number): AgentType.Options {
  return {
    connections,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000) },
  };
}
