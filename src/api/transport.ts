// partner's one HTTP transport: node:http and node:https on keep-alive agents,
// for the API client (http.ts, through answer-reader.ts) and the deliveries
// (delivery.ts). Through a proxy when one is set for the origin (proxy.ts: the
// API client only, never for loopback). A request is told to a handler as it
// goes: its start, the status and headers, each chunk of the body, then one
// end or one error; the handler may pause, resume or abort it.
//
// Why node:http and not undici: Node's parser is native, and a start that
// makes one request loads nothing but node:http (and node:https for an https
// origin). undici, measured through its public entry, made one page as a
// table 1.31x (Node 22) and 1.58x (Node 24) a minimal node:http client, and
// `profile get` of 100 employees 1.57x and 1.97x (docs/ARCHITECTURE.md).
import type http from 'node:http';
import type https from 'node:https';

// Loaded at the first request of their kind: node:https (and TLS under it)
// costs a start-up about 25 ms on Node 24, and the sandbox never uses it.
let httpLoaded: typeof http | undefined;
let httpsLoaded: typeof https | undefined;
const httpModule = () => (httpLoaded ??= process.getBuiltinModule('node:http') as typeof http);
const httpsModule = () => (httpsLoaded ??= process.getBuiltinModule('node:https') as typeof https);

/** One request: the client sends JSON text or nothing. */
export interface RequestOptions {
  method: string;
  /** scheme://host[:port] */
  origin: string;
  /** The path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Response headers: lower-case names, a repeated header as an array, on no prototype. */
export type Headers = Record<string, string | string[] | undefined>;

/** What a handler may do to its request while it is told of it. */
export interface Controller {
  readonly aborted: boolean;
  readonly paused: boolean;
  readonly reason: Error | null;
  /** Ends the request: nothing more is told; a connection with an answer still coming is dropped. */
  abort(reason: Error): void;
  pause(): void;
  resume(): void;
}

/** Told of one request: onRequestStart, onResponseStart, onResponseData..., then onResponseEnd or onResponseError (once). */
export interface AnswerHandler {
  onRequestStart?(controller: Controller): void;
  onResponseStart?(controller: Controller, statusCode: number, headers: Headers): void;
  onResponseData?(controller: Controller, chunk: Buffer): void;
  onResponseEnd?(controller: Controller): void;
  onResponseError?(controller: Controller, err: Error): void;
}

/** The time limits of the connections (deadline.ts connectionLimits) and their number. */
export interface ConnectionLimits {
  /** Keep-alive connections per origin. */
  connections: number;
  /** Idle time after which a kept connection is closed, ms. */
  keepAliveTimeout: number;
  /** Time to open a connection (TCP and TLS, or the proxy's tunnel), ms: past it the request fails with CONNECT_TIMEOUT. */
  connectTimeout: number;
}

/** The agents of the origins reached through a proxy (proxy.ts). */
export interface ProxyRoute {
  /** The proxy's agent for `origin`, or undefined: reached directly. */
  agentFor(origin: URL): http.Agent | undefined;
  /** Closes every connection through the proxy, the tunnels being opened among them. */
  destroy(): void;
}

export interface TransportOptions extends ConnectionLimits {
  proxy?: ProxyRoute;
}

/**
 * A connection closed by the server (FIN) before or while answering: a
 * retryable network failure, told apart from a reset (ECONNRESET) so that the
 * message says which (http.ts cutError, droppedError).
 */
export const CONNECTION_CLOSED = 'CONNECTION_CLOSED';
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';

export function codedError(message: string, code: string, cause?: unknown): Error & { code: string } {
  return Object.assign(new Error(message, { cause }), { code });
}

interface Target {
  secure: boolean;
  hostname: string;
  port: string | number;
  agent: http.Agent;
}

/** What a client needs of the transport (tests give the answer reader one of their own). */
export type Transport = Pick<HttpTransport, 'dispatch' | 'close' | 'destroy'>;

export class HttpTransport {
  private http?: http.Agent;
  private https?: https.Agent;
  private readonly inFlight = new Set<Exchange>();
  private readonly targets = new Map<string, Target>();
  private closing?: Promise<void>;
  private drained?: () => void;

  constructor(private readonly opts: TransportOptions) {}

  dispatch(options: RequestOptions, handler: AnswerHandler): void {
    const { secure, hostname, port, agent } = this.target(options.origin);
    const req = (secure ? httpsModule() : httpModule()).request({ agent, method: options.method, hostname, port, path: options.path, headers: options.headers });
    const exchange: Exchange = new Exchange(req, handler, this.opts.connectTimeout, () => {
      this.inFlight.delete(exchange);
      if (this.inFlight.size === 0) this.drained?.();
    });
    this.inFlight.add(exchange);
    if (this.closing) exchange.fail(codedError('the client is closed', 'CLIENT_CLOSED'));
    else req.end(options.body);
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

  /** Where an origin's requests go, worked out once: a lookup of 100 profiles sends 700 requests to one origin. */
  private target(origin: string): Target {
    let t = this.targets.get(origin);
    if (!t) {
      const url = new URL(origin);
      const secure = url.protocol === 'https:';
      const agent = this.opts.proxy?.agentFor(url) ?? (secure ? (this.https ??= new (httpsModule().Agent)(agentOptions(this.opts))) : (this.http ??= new (httpModule().Agent)(agentOptions(this.opts))));
      // URL keeps an IPv6 address in brackets; the socket wants it bare.
      t = { secure, hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port || (secure ? 443 : 80), agent };
      this.targets.set(origin, t);
    }
    return t;
  }

  private destroyAgents(): void {
    this.http?.destroy();
    this.https?.destroy();
    this.opts.proxy?.destroy();
  }
}

/** Kept connections, at most `connections` per origin (Node reuses the most recently freed first). */
export function agentOptions(o: ConnectionLimits): http.AgentOptions {
  return { keepAlive: true, maxSockets: o.connections, maxFreeSockets: o.connections, timeout: o.keepAliveTimeout };
}

/** One request and its answer, told to its handler (AnswerHandler): once ended, nothing more. */
class Exchange implements Controller {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  private ended = false;
  private res?: http.IncomingMessage;

  constructor(
    private readonly req: http.ClientRequest,
    private readonly handler: AnswerHandler,
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
    handler.onRequestStart?.(this);
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
    this.handler.onResponseStart?.(this, res.statusCode ?? 0, headersOf(res));
    res.on('data', (chunk: Buffer) => {
      if (!this.ended) this.handler.onResponseData?.(this, chunk);
    });
    res.on('end', () => {
      if (this.ended) return;
      this.ended = true;
      this.handler.onResponseEnd?.(this);
    });
    // Cut off: a reset, or the connection closed before the end.
    res.on('error', (err) => this.fail(classify(err)));
  }
}

/**
 * A connection the other side closed (FIN) before or during an answer: Node
 * says so with the code of a reset but without a system call (its "socket
 * hang up" and "aborted"); a true reset is a failed read or write, with its
 * syscall. The client says which (http.ts cutError).
 */
function classify(err: Error & { code?: string; syscall?: string }): Error {
  const closed = err.code === 'ECONNRESET' && err.syscall === undefined;
  return closed ? codedError('the other side closed the connection', CONNECTION_CLOSED, err) : err;
}

/** Response headers (Headers): lower-case names, a repeated header as an array; on no prototype. */
function headersOf(res: http.IncomingMessage): Headers {
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
