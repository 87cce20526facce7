// Sandbox-only endpoints behind `partner sandbox emit`: sign any payload with
// the current key (POST /_sandbox/webhooks/sign {payload} -> {jws, kid}) and
// rotate the signing key (POST /_sandbox/webhooks/rotate-key {dropOld?} -> {kid, jwks}).
// Any company's token may use them; the real service has no such routes.
import type { IncomingMessage } from 'node:http';
import { bearerToken, error, json, readBody, type RequestInfo, type SbxResponse } from './http.js';
import type { Signer } from './signing.js';

export const WEBHOOK_ADMIN_PREFIX = '/_sandbox/webhooks/';

export function webhookAdmin(signer: Signer, knownToken: (token: string) => boolean) {
  return async (req: IncomingMessage, info: RequestInfo): Promise<SbxResponse> => {
    const token = bearerToken(req);
    if (token === undefined || !knownToken(token)) return error(401, info);
    const route = info.path.slice(WEBHOOK_ADMIN_PREFIX.length);
    if (route !== 'sign' && route !== 'rotate-key') return error(404, info, { message: `no route for ${info.method} ${info.path}` });
    if (info.method !== 'POST') return { ...error(405, info), headers: { 'content-type': 'application/json', allow: 'POST' } };
    let body: { payload?: unknown; dropOld?: unknown };
    try {
      const raw = await readBody(req);
      body = raw.trim() === '' ? {} : (JSON.parse(raw) as typeof body);
    } catch {
      return error(400, info, { message: 'request body is not valid JSON' });
    }
    if (route === 'rotate-key') {
      const kid = await signer.rotate({ dropOld: body?.dropOld === true });
      return json(200, { kid, jwks: signer.jwks() });
    }
    if (body?.payload === undefined) return error(400, info, { message: 'payload is required', details: [{ field: 'payload', message: 'is required' }] });
    return json(200, { jws: await signer.sign(body.payload), kid: signer.kid });
  };
}
