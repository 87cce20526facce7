// What the sandbox answers to one request, in the order a gateway in front of
// the real API decides it: an injected fault, the webhook key set, the
// sandbox-only webhook endpoints, then for /v1 the token and its company, the
// route, the JSON body and the route's handler. The HTTP plumbing around it
// (request log, latency, writing, closing) is in server.ts.
import type { IncomingMessage } from 'node:http';
import type { DriftPlans } from './drift-plans.js';
import type { Faults } from './faults.js';
import { bearerToken, BodyTooLargeError, error, json, readBody, type RequestInfo, type SbxResponse } from './http.js';
import { JWKS_PATH, ROUTES, type Route, type RouteContext } from './routes.js';
import type { Signer } from './signing.js';
import type { CompanyStore } from './store.js';
import { envelope, type WebhookSender } from './webhook.js';
import { WEBHOOK_ADMIN_PREFIX, webhookAdmin } from './webhook-admin.js';

export type Company = 'A' | 'B';

export interface GatewayParts {
  stores: Record<Company, CompanyStore>;
  /** the token of each company */
  tokens: ReadonlyMap<string, Company>;
  /** a known token without the permission to read anything (403) */
  noPermissionToken: string;
  signer: Signer;
  faults: Faults;
  drift: DriftPlans;
  /** where events are delivered, if anywhere */
  webhooks?: { url: string; sender: WebhookSender };
}

/** The part of a request log entry the gateway fills in. */
export interface LoggedBody {
  body?: unknown;
}

export class Gateway {
  private readonly admin: ReturnType<typeof webhookAdmin>;

  constructor(private readonly parts: GatewayParts) {
    this.admin = webhookAdmin(parts.signer, (token) => parts.tokens.has(token));
  }

  /** The answer to one request; throws only on a handler's own failure (the server answers 500). */
  async dispatch(req: IncomingMessage, info: RequestInfo, entry: LoggedBody): Promise<SbxResponse> {
    const { method, path } = info;
    const isV1 = path === '/v1' || path.startsWith('/v1/');
    const isJwks = path === JWKS_PATH;

    const fault = this.parts.faults.pick(method, path, isV1 && !isJwks);
    if (fault) return this.parts.faults.response(fault, info);

    if (isJwks) return this.keySet(info);
    if (path.startsWith(WEBHOOK_ADMIN_PREFIX)) return this.admin(req, info);
    if (!isV1) return noRoute(info);
    return this.api(req, info, entry);
  }

  /** GET of the webhook signing keys (public, cacheable). */
  private keySet(info: RequestInfo): SbxResponse {
    if (info.method !== 'GET') return { ...error(405, info), headers: { 'content-type': 'application/json', allow: 'GET' } };
    return { ...json(200, this.parts.signer.jwks()), headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' } };
  }

  /** A /v1 request: authenticated and permitted before it is routed, as behind a gateway. */
  private async api(req: IncomingMessage, info: RequestInfo, entry: LoggedBody): Promise<SbxResponse> {
    const company = this.authenticate(req, info);
    if (typeof company !== 'string') return company;
    const route = match(info);
    if (!('handler' in route)) return route;

    if (info.method === 'GET' && info.path === '/v1/employees') this.parts.drift.beforeList(company);
    const outbox = this.outbox();
    const ctx: RouteContext = { store: this.parts.stores[company], req: info, emit: outbox.emit };
    if (info.method === 'POST' || info.method === 'PATCH') {
      const refused = await readJsonBody(req, info, ctx, entry);
      if (refused) return refused;
    }
    const params = route.pattern.exec(info.path)!.slice(1);
    const res = await route.handler(ctx, params);
    return { ...res, after: outbox.flush };
  }

  /** The company of the request's token, or the 401/403 that refuses it. */
  private authenticate(req: IncomingMessage, info: RequestInfo): Company | SbxResponse {
    const token = bearerToken(req);
    if (token === undefined) return error(401, info);
    if (token === this.parts.noPermissionToken) return error(403, info);
    return this.parts.tokens.get(token) ?? error(401, info, { message: 'AUTHORIZATION_INVALID_TOKEN' });
  }

  /**
   * The events a route announces, signed and delivered once its response is
   * written (`flush`, the response's `after`); nothing without a webhook URL.
   */
  private outbox(): { emit: RouteContext['emit']; flush: () => void } {
    const { webhooks, signer } = this.parts;
    const queued: { eventType: string; data: Record<string, unknown> }[] = [];
    return {
      emit: (eventType, data) => {
        if (webhooks) queued.push({ eventType, data });
      },
      flush: () => {
        if (!webhooks) return;
        for (const ev of queued) {
          // Best effort, like the real service's first attempt; a closed sandbox's sender refuses.
          void signer
            .sign(envelope(ev.eventType, ev.data))
            .then((jws) => webhooks.sender.deliver(webhooks.url, jws))
            .catch(() => undefined);
        }
      },
    };
  }
}

function noRoute(info: RequestInfo): SbxResponse {
  return error(404, info, { message: `no route for ${info.method} ${info.path}` });
}

/** The route of the request's method and path, or the 404 (no such path) or 405 (naming the methods allowed). */
function match(info: RequestInfo): Route | SbxResponse {
  const { method, path } = info;
  const pathMatches = ROUTES.filter((r) => r.pattern.test(path));
  if (pathMatches.length === 0) return noRoute(info);
  const route = pathMatches.find((r) => r.method === method);
  if (route) return route;
  const allow = pathMatches.map((r) => r.method).join(', ');
  const r = error(405, info, { message: `method ${method} not allowed on ${path}; allowed: ${allow}` });
  return { ...r, headers: { ...r.headers, allow } };
}

/**
 * Reads a POST's or PATCH's body into the route's context and the request
 * log (each its own copy: a route may keep and change ctx.body); answers the
 * 413, or the 400 of an empty body or one that is not JSON.
 */
async function readJsonBody(req: IncomingMessage, info: RequestInfo, ctx: RouteContext, entry: LoggedBody): Promise<SbxResponse | undefined> {
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
    entry.body = JSON.parse(raw) as unknown;
  } catch (e) {
    return error(400, info, { message: 'request body is not valid JSON', details: [{ field: 'body', message: (e as Error).message }] });
  }
  return undefined;
}
