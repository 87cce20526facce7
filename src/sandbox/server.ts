// startSandbox(): the embedded mock of the whole API over real HTTP on
// loopback. Here: its options, the HTTP plumbing (request log, latency,
// writing the answer, closing every socket); what a request is answered is
// decided in gateway.ts (faults, auth and company scoping, routing), endpoint
// logic is in routes.ts, data in store.ts/data.ts, forms in forms.ts, drift
// in drift-plans.ts, the sign/rotate endpoints in webhook-admin.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { COMPANY_A, COMPANY_B, COMPANY_B_EMPLOYEES } from './companies.js';
import { Faults, type FaultRule } from './faults.js';
import { DriftPlans, type DriftPlan } from './drift-plans.js';
import { Gateway, type Company } from './gateway.js';
import { error, type RequestInfo, type SbxResponse } from './http.js';
import { createSigner, type Signer } from './signing.js';
import { CompanyStore } from './store.js';
import { WebhookSender } from './webhook.js';

export type { FaultKind, FaultRule } from './faults.js';
export type { Signer, Jwks, PublicJwk, RotateOptions, SignOptions } from './signing.js';

export interface SandboxOptions {
  /** default 0 (OS-chosen) */
  port?: number;
  /** default '127.0.0.1'; only loopback allowed */
  host?: string;
  /** employees of company A (default 45); company B has 12 fixed */
  employees?: number;
  /** default 1 */
  seed?: number;
  /** added before every response */
  latencyMs?: number;
  /** 0..1 share of requests answered 503 with Retry-After */
  failRate?: number;
  /** Retry-After on injected 503/429 (default 1) */
  retryAfterSeconds?: number;
  /** 0..1 share of requests whose socket is destroyed with no response */
  resetRate?: number;
  /** 0..1 share answered 502 with an HTML page (text/html) */
  html502Rate?: number;
  /** 0..1 share of employee-list requests before which the company changes: an employee is created or ended (drift) */
  driftRate?: number;
  /** creating a GP employee POSTs a signed EMPLOYEE_CREATED here; PATCH dynamic-details an EMPLOYEE_UPDATED */
  webhookUrl?: string;
  /** keep the webhook signing keys in this file across processes (the embedded sandbox); default: new keys per start */
  signingKeysFile?: string;
  /** told when the signing keys file cannot be used */
  warn?: (message: string) => void;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  /** whether an Authorization header was sent (the token itself is never stored) */
  authorization: boolean;
  /** 0 while in flight and for dropped connections */
  status: number;
  at: number;
  /** the parsed JSON body of a POST or PATCH that reached a route (tests assert exact bodies) */
  body?: unknown;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:43123 (no trailing slash) */
  url: string;
  tokens: { companyA: string; companyB: string; noPermission: string };
  companies: { A: { id: string; name: string }; B: { id: string; name: string } };
  signer: Signer;
  /** every request received, in order */
  requests: RequestLogEntry[];
  setFaults(f: Partial<Pick<SandboxOptions, 'latencyMs' | 'failRate' | 'retryAfterSeconds' | 'resetRate' | 'html502Rate' | 'driftRate'>>): void;
  /**
   * Test hook: the company changes under a walk. Just before the employee
   * list request number `atListRequest` (1-based, counted from now; default
   * 1) is answered, `create` employees are added and `end` ACTIVE ones are
   * ended. Resolves with the ids touched once it has happened.
   */
  drift(plan: DriftPlan): Promise<string[]>;
  /** Test hook: the company changes between two runs, at once (employees removed from every list, list-item fields set). */
  edit(plan: { company?: 'A' | 'B'; remove?: readonly string[]; set?: readonly { id: string; fields: Record<string, unknown> }[] }): void;
  /** the next `times` matching requests get this fault; rules take priority over rates */
  injectFault(rule: FaultRule): void;
  /** closes the server and all open sockets (keep-alive too); idempotent */
  close(): Promise<void>;
}

export const SANDBOX_TOKENS = Object.freeze({
  companyA: 'sbx_acme_7f3c9a1e2b4d',
  companyB: 'sbx_globex_5d1e8c2a9f0b',
  noPermission: 'sbx_noperm_3a9e1c7d5b2f',
});

export const DEFAULT_EMPLOYEES = 45;
const MAX_EMPLOYEES = 50_000_000;

function loopbackHost(host: string): string {
  if (host === 'localhost') return '127.0.0.1';
  if (host === '::1' || host === '[::1]') return '::1';
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return host;
  throw new Error(`sandbox host must be a loopback address (127.0.0.1, ::1 or localhost), got "${host}"`);
}

function firstValues(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of q) if (!(k in out)) out[k] = v;
  return out;
}

/** The options checked, with their defaults: a loopback host, a bounded company, an http(s) webhook URL. */
function checkedOptions(opts: SandboxOptions): { host: string; employees: number; seed: number } {
  const host = loopbackHost(opts.host ?? '127.0.0.1');
  const employees = opts.employees ?? DEFAULT_EMPLOYEES;
  if (!Number.isInteger(employees) || employees < 0 || employees > MAX_EMPLOYEES) {
    throw new RangeError(`employees must be an integer between 0 and ${MAX_EMPLOYEES}`);
  }
  if (opts.webhookUrl !== undefined && !/^https?:\/\//.test(opts.webhookUrl)) {
    throw new Error(`webhookUrl must be an http(s) URL, got "${opts.webhookUrl}"`);
  }
  return { host, employees, seed: opts.seed ?? 1 };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const { host, employees, seed } = checkedOptions(opts);
  const stores = {
    A: new CompanyStore(COMPANY_A, seed, employees),
    B: new CompanyStore(COMPANY_B, seed, COMPANY_B_EMPLOYEES),
  };
  const tokens = new Map<string, Company>([
    [SANDBOX_TOKENS.companyA, 'A'],
    [SANDBOX_TOKENS.companyB, 'B'],
  ]);
  const signer = await createSigner({ keysFile: opts.signingKeysFile, warn: opts.warn });
  const faults = new Faults(seed, opts);
  const drift = new DriftPlans(stores, faults);
  const sender = new WebhookSender();
  const webhooks = opts.webhookUrl ? { url: opts.webhookUrl, sender } : undefined;
  const gateway = new Gateway({ stores, tokens, noPermissionToken: SANDBOX_TOKENS.noPermission, signer, faults, drift, webhooks });
  const server = new SandboxServer(gateway, faults, sender);
  const url = await server.listen(opts.port ?? 0, host);

  return {
    url,
    tokens: { ...SANDBOX_TOKENS },
    companies: {
      A: { id: COMPANY_A.id, name: COMPANY_A.name },
      B: { id: COMPANY_B.id, name: COMPANY_B.name },
    },
    signer,
    requests: server.requests,
    setFaults: (f) => faults.set(f),
    injectFault: (rule) => faults.inject(rule),
    drift: (plan) => drift.schedule(plan),
    edit: (plan) => stores[plan.company ?? 'A'].edit(plan),
    close: () => server.close(),
  };
}

/**
 * The HTTP plumbing around the gateway: every request logged, answered after
 * the configured latency (or dropped, for a reset fault), and on close every
 * socket (keep-alive too), pending answer and webhook delivery ended.
 */
class SandboxServer {
  /** every request received, in order */
  readonly requests: RequestLogEntry[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly gateway: Gateway,
    private readonly faults: Faults,
    private readonly sender: WebhookSender,
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  /** Listens on host:port (0: OS-chosen); resolves with the base URL. */
  async listen(port: number, host: string): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  /** Idempotent: every call resolves when the server has closed. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      this.closing = new Promise<void>((resolve) => {
        for (const t of this.timers) clearTimeout(t);
        this.timers.clear();
        this.sender.close();
        this.server.close(() => resolve());
        this.server.closeAllConnections();
        for (const s of this.sockets) s.destroy();
        this.sockets.clear();
      });
    }
    return this.closing;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const { info, entry } = this.logged(req);
    this.gateway
      .dispatch(req, info, entry)
      .catch((e: unknown) => error(500, info, { message: `an unexpected error occurred: ${(e as Error)?.message ?? String(e)}` }))
      .then((out) => this.answerAfterLatency(req, res, entry, info, out))
      .catch(() => undefined);
  }

  /** The request's facts for the gateway, and its entry in the request log (the token itself is never kept). */
  private logged(req: IncomingMessage): { info: RequestInfo; entry: RequestLogEntry } {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const rawPath = url.pathname;
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') || '/' : rawPath;
    const method = (req.method ?? 'GET').toUpperCase();
    const info: RequestInfo = { method, path, query: url.searchParams, correlationId: randomUUID() };
    const entry: RequestLogEntry = {
      method,
      path: rawPath,
      query: firstValues(url.searchParams),
      authorization: req.headers.authorization !== undefined,
      status: 0,
      at: Date.now(),
    };
    this.requests.push(entry);
    return { info, entry };
  }

  private answerAfterLatency(req: IncomingMessage, res: ServerResponse, entry: RequestLogEntry, info: RequestInfo, out: SbxResponse): void {
    const delay = this.faults.latencyMs;
    if (delay <= 0 || this.closed) {
      this.write(req, res, entry, info, out);
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.write(req, res, entry, info, out);
    }, delay);
    this.timers.add(t);
  }

  private write(req: IncomingMessage, res: ServerResponse, entry: RequestLogEntry, info: RequestInfo, out: SbxResponse): void {
    if (this.closed || res.destroyed || res.headersSent) return;
    if (out.reset) {
      entry.status = 0;
      req.socket.destroy();
      return;
    }
    entry.status = out.status;
    const body = out.body ?? '';
    const headers: Record<string, string | number> = { ...out.headers, 'x-correlation-id': info.correlationId };
    if (out.status !== 204 && out.status !== 304) headers['content-length'] = Buffer.byteLength(body);
    res.writeHead(out.status, headers);
    res.end(out.status === 204 ? undefined : body);
    if (out.after) out.after();
  }
}
