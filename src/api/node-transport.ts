// The API client's transport for a direct connection (http.ts): node:http and
// node:https on a keep-alive agent, behind the one call of undici's dispatcher
// interface the client uses (dispatch with a handler: answer-reader.ts).
// A proxy (HTTPS_PROXY, HTTP_PROXY) still goes through undici's proxy agent,
// and tests still hand the client an undici MockAgent.
//
// Why not undici here: on Node 20, a process that has parsed one answer with
// undici's parser (WebAssembly) waits about 0.25 s at exit for V8 to finish
// optimising it; no flag may be set at run time to stop that (issue 33), and
// Node's own parser is native. Loading undici also costs a lookup about 20 ms
// even from the compile cache. Measured: docs/BENCHMARKS.md, "Lookups".
import type http from 'node:http';
import type https from 'node:https';
import type { Dispatcher } from './undici.js';

// Loaded at the first request of their kind: node:https (and TLS under it)
// costs a start-up about 25 ms on Node 24, and the sandbox never uses it.
let httpLoaded: typeof http | undefined;
let httpsLoaded: typeof https | undefined;
const httpModule = () => (httpLoaded ??= process.getBuiltinModule('node:http') as typeof http);
const httpsModule = () => (httpsLoaded ??= process.getBuiltinModule('node:https') as typeof https);

/** What the API client needs of a dispatcher: undici's Agent, MockAgent and this transport all have it. */
export type Transport = Pick<Dispatcher, 'dispatch' | 'close' | 'destroy'>;

export interface TransportOptions {
  /** Keep-alive connections per origin. */
  connections: number;
  /** Idle time after which a kept connection is closed, ms. */
  keepAliveTimeout: number;
  /** Time to open a connection (TCP and TLS), ms: past it the request fails with CONNECT_TIMEOUT. */
  connectTimeout: number;
}

/**
 * A connection closed by the server (FIN) before or while answering: a
 * retryable network failure, told apart from a reset (ECONNRESET) so that the
 * message says which (http.ts cutError, droppedError).
 */
export const CONNECTION_CLOSED = 'CONNECTION_CLOSED';
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';

function codedError(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

interface Target {
  secure: boolean;
  hostname: string;
  port: string | number;
}

export class NodeTransport implements Transport {
  private http?: http.Agent;
  private https?: https.Agent;
  private readonly inFlight = new Set<Exchange>();
  private readonly targets = new Map<string, Target>();
  private closing?: Promise<void>;
  private drained?: () => void;

  constructor(private readonly opts: TransportOptions) {}

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const { secure, hostname, port } = this.target(String(options.origin));
    const req = (secure ? httpsModule() : httpModule()).request({
      agent: secure ? (this.https ??= new (httpsModule().Agent)(this.agentOptions())) : (this.http ??= new (httpModule().Agent)(this.agentOptions())),
      method: options.method,
      hostname,
      port,
      path: options.path,
      headers: options.headers as http.OutgoingHttpHeaders,
    });
    const exchange: Exchange = new Exchange(req, handler, this.opts.connectTimeout, () => {
      this.inFlight.delete(exchange);
      if (this.inFlight.size === 0) this.drained?.();
    });
    this.inFlight.add(exchange);
    if (this.closing) exchange.fail(codedError('the client is closed', 'CLIENT_CLOSED'));
    // The API client sends JSON text or nothing (http.ts).
    else req.end(options.body as string | undefined);
    return true;
  }

  /** Lets the requests in flight finish, then closes every connection. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.drained = resolve;
      if (this.inFlight.size === 0) resolve();
    }).then(() => this.destroyAgents());
    return this.closing;
  }

  /** Ends every request in flight and closes every connection. */
  destroy(): Promise<void> {
    for (const exchange of this.inFlight) exchange.fail(codedError('the client was destroyed', 'CLIENT_DESTROYED'));
    this.destroyAgents();
    return Promise.resolve();
  }

  /** Where an origin's requests go, parsed once: a lookup of 100 profiles sends 700 requests to one origin. */
  private target(origin: string): Target {
    let t = this.targets.get(origin);
    if (!t) {
      const url = new URL(origin);
      const secure = url.protocol === 'https:';
      // URL keeps an IPv6 address in brackets; the socket wants it bare.
      t = { secure, hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port || (secure ? 443 : 80) };
      this.targets.set(origin, t);
    }
    return t;
  }

  /** Kept connections, at most `connections` per origin (Node reuses the most recently freed first). */
  private agentOptions(): http.AgentOptions {
    const o = this.opts;
    return { keepAlive: true, maxSockets: o.connections, maxFreeSockets: o.connections, timeout: o.keepAliveTimeout };
  }

  private destroyAgents(): void {
    this.http?.destroy();
    this.https?.destroy();
  }
}

/**
 * One request and its answer, told to the handler as undici tells it:
 * onRequestStart, onResponseStart, onResponseData..., then onResponseEnd or
 * onResponseError (once, and nothing after it: the request is destroyed).
 */
class Exchange implements Dispatcher.DispatchController {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  private ended = false;
  private res?: http.IncomingMessage;

  constructor(
    private readonly req: http.ClientRequest,
    private readonly handler: Dispatcher.DispatchHandler,
    connectTimeout: number,
    onClose: () => void,
  ) {
    req.on('socket', (socket) => {
      // A kept connection is connected already; a new one has connectTimeout to connect (and shake hands).
      if (!socket.connecting) return;
      const timer = setTimeout(() => this.fail(codedError(`no connection within ${connectTimeout} ms`, CONNECT_TIMEOUT)), connectTimeout);
      const clear = () => clearTimeout(timer);
      socket.once('encrypted' in socket ? 'secureConnect' : 'connect', clear).once('close', clear);
    });
    req.on('error', (err) => this.fail(classify(err)));
    req.on('response', (res) => this.respond(res));
    req.on('close', onClose);
    handler.onRequestStart?.(this, {});
  }

  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
    this.ended = true;
    this.req.destroy();
  }

  pause(): void {
    this.paused = true;
    this.res?.pause();
  }

  resume(): void {
    this.paused = false;
    this.res?.resume();
  }

  /**
   * Tells the handler `err` and ends the request. The request is destroyed
   * without an error: the handler has it already, and a socket destroyed with
   * one after the answer's last byte (a cap reached on the last chunk) has no
   * listener left for it, and the process would die of it.
   */
  fail(err: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.handler.onResponseError?.(this, err);
    this.req.destroy();
  }

  private respond(res: http.IncomingMessage): void {
    this.res = res;
    this.handler.onResponseStart?.(this, res.statusCode ?? 0, headersOf(res), res.statusMessage);
    res.on('data', (chunk: Buffer) => this.handler.onResponseData?.(this, chunk));
    res.on('end', () => {
      if (this.ended) return;
      this.ended = true;
      this.handler.onResponseEnd?.(this, {});
    });
    // Cut off: a reset, or the connection closed before the end ("aborted").
    res.on('error', (err) => this.fail(classify(err)));
  }
}

/**
 * Node names a connection closed (FIN) before or during an answer "socket
 * hang up" or "aborted", with the code of a reset; a reset is "read
 * ECONNRESET". The client says which (http.ts cutError).
 */
function classify(err: Error & { code?: string }): Error {
  const closed = err.code === 'ECONNRESET' && (err.message === 'socket hang up' || err.message === 'aborted');
  return closed ? codedError('the other side closed the connection', CONNECTION_CLOSED, err) : err;
}

/** Response headers as undici gives them: lower-case names, a repeated header as an array; on no prototype. */
function headersOf(res: http.IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[name] = [had, value];
  }
  return out;
}
