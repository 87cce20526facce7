// startSandbox(): the embedded mock of the whole API over real HTTP on
// loopback. HTTP plumbing, routing, auth and company scoping, faults,
// latency, the request log and webhook delivery; endpoint logic is in
// routes.ts, data in store.ts/data.ts, forms in forms.ts, drift in
// drift-plans.ts, the sign/rotate endpoints in webhook-admin.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { COMPANY_A, COMPANY_B, COMPANY_B_EMPLOYEES } from './companies.js';
import { Faults, type FaultRule } from './faults.js';
import { DriftPlans, type DriftPlan } from './drift-plans.js';
import { bearerToken, BodyTooLargeError, error, json, readBody, type RequestInfo, type SbxResponse } from './http.js';
import { JWKS_PATH, ROUTES, type RouteContext } from './routes.js';
import { createSigner, type Signer } from './signing.js';
import { CompanyStore } from './store.js';
import { envelope, WebhookSender } from './webhook.js';
import { WEBHOOK_ADMIN_PREFIX, webhookAdmin } from './webhook-admin.js';

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

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = loopbackHost(opts.host ?? '127.0.0.1');
  const employees = opts.employees ?? DEFAULT_EMPLOYEES;
  if (!Number.isInteger(employees) || employees < 0 || employees > MAX_EMPLOYEES) {
    throw new RangeError(`employees must be an integer between 0 and ${MAX_EMPLOYEES}`);
  }
  const seed = opts.seed ?? 1;
  if (opts.webhookUrl !== undefined && !/^https?:\/\//.test(opts.webhookUrl)) {
    throw new Error(`webhookUrl must be an http(s) URL, got "${opts.webhookUrl}"`);
  }

  const stores = {
    A: new CompanyStore(COMPANY_A, seed, employees),
    B: new CompanyStore(COMPANY_B, seed, COMPANY_B_EMPLOYEES),
  };
  const tokenToCompany = new Map<string, 'A' | 'B'>([
    [SANDBOX_TOKENS.companyA, 'A'],
    [SANDBOX_TOKENS.companyB, 'B'],
  ]);
  const signer = await createSigner({ keysFile: opts.signingKeysFile, warn: opts.warn });
  const faults = new Faults(seed, opts);
  const drift = new DriftPlans(stores, faults);
  const sender = new WebhookSender();
  const requests: RequestLogEntry[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function emitter(): { emit: RouteContext['emit']; flush: () => void } {
    const queued: { eventType: string; data: Record<string, unknown> }[] = [];
    return {
      emit: (eventType, data) => {
        if (opts.webhookUrl) queued.push({ eventType, data });
      },
      flush: () => {
        for (const ev of queued) {
          void signer
            .sign(envelope(ev.eventType, ev.data))
            .then((jws) => (closed ? undefined : sender.deliver(opts.webhookUrl!, jws)))
            .catch(() => undefined); // delivery is best effort, like the real service's first attempt
        }
      },
    };
  }

  const admin = webhookAdmin(signer, (token) => tokenToCompany.has(token));

  async function dispatch(req: IncomingMessage, info: RequestInfo, entry: RequestLogEntry): Promise<SbxResponse> {
    const { method, path } = info;
    const isV1 = path === '/v1' || path.startsWith('/v1/');
    const isJwks = path === JWKS_PATH;

    const fault = faults.pick(method, path, isV1 && !isJwks);
    if (fault) return faults.response(fault, info);

    if (isJwks) {
      if (method !== 'GET') return { ...error(405, info), headers: { 'content-type': 'application/json', allow: 'GET' } };
      return { ...json(200, signer.jwks()), headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' } };
    }
    if (path.startsWith(WEBHOOK_ADMIN_PREFIX)) return admin(req, info);
    if (!isV1) return error(404, info, { message: `no route for ${method} ${path}` });

    // Authentication and permission, before routing (like a gateway).
    const token = bearerToken(req);
    if (token === undefined) return error(401, info);
    if (token === SANDBOX_TOKENS.noPermission) return error(403, info);
    const company = tokenToCompany.get(token);
    if (!company) return error(401, info, { message: 'AUTHORIZATION_INVALID_TOKEN' });

    const pathMatches = ROUTES.filter((r) => r.pattern.test(path));
    if (pathMatches.length === 0) return error(404, info, { message: `no route for ${method} ${path}` });
    const route = pathMatches.find((r) => r.method === method);
    if (!route) {
      const allow = pathMatches.map((r) => r.method).join(', ');
      const r = error(405, info, { message: `method ${method} not allowed on ${path}; allowed: ${allow}` });
      return { ...r, headers: { ...r.headers, allow } };
    }

    if (method === 'GET' && path === '/v1/employees') drift.beforeList(company);
    const { emit, flush } = emitter();
    const ctx: RouteContext = { store: stores[company], req: info, emit };
    if (method === 'POST' || method === 'PATCH') {
      let raw: string;
      try {
        raw = await readBody(req);
      } catch (e) {
        if (e instanceof BodyTooLargeError) return error(413, info);
        throw e;
      }
      if (raw.trim() === '') return error(400, info, { message: 'request body is required', details: [{ field: 'body', message: 'is required' }] });
      try {
        ctx.body = JSON.parse(raw) as unknown;
        entry.body = JSON.parse(raw) as unknown; // its own copy: routes may keep and change ctx.body
      } catch (e) {
        return error(400, info, { message: 'request body is not valid JSON', details: [{ field: 'body', message: (e as Error).message }] });
      }
    }
    const params = route.pattern.exec(path)!.slice(1);
    const res = await route.handler(ctx, params);
    return { ...res, after: flush };
  }

  function write(req: IncomingMessage, res: ServerResponse, entry: RequestLogEntry, info: RequestInfo, out: SbxResponse): void {
    if (closed || res.destroyed || res.headersSent) return;
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

  const server = createServer((req, res) => {
    const correlationId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const rawPath = url.pathname;
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') || '/' : rawPath;
    const method = (req.method ?? 'GET').toUpperCase();
    const info: RequestInfo = { method, path, query: url.searchParams, correlationId };
    const entry: RequestLogEntry = {
      method,
      path: rawPath,
      query: firstValues(url.searchParams),
      authorization: req.headers.authorization !== undefined,
      status: 0,
      at: Date.now(),
    };
    requests.push(entry);

    dispatch(req, info, entry)
      .catch((e: unknown) => error(500, info, { message: `an unexpected error occurred: ${(e as Error)?.message ?? String(e)}` }))
      .then((out) => {
        const delay = faults.latencyMs;
        if (delay > 0 && !closed) {
          const t = setTimeout(() => {
            timers.delete(t);
            write(req, res, entry, info, out);
          }, delay);
          timers.add(t);
        } else {
          write(req, res, entry, info, out);
        }
      })
      .catch(() => undefined);
  });

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    if (!closing) {
      closed = true;
      closing = new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        sender.close();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
    }
    return closing;
  };

  return {
    url,
    tokens: { ...SANDBOX_TOKENS },
    companies: {
      A: { id: COMPANY_A.id, name: COMPANY_A.name },
      B: { id: COMPANY_B.id, name: COMPANY_B.name },
    },
    signer,
    requests,
    setFaults: (f) => faults.set(f),
    injectFault: (rule) => faults.inject(rule),
    drift: (plan) => drift.schedule(plan),
    close,
  };
}
