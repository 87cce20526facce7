import { compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWKS_PATH } from '../../../src/sandbox/routes.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, expectErrorShape } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

describe('the sandbox-only webhook endpoints (sandbox emit)', () => {
  it('sign: any known company token; the JWS verifies against the published key set', async () => {
    for (const token of [s.tokens.companyA, s.tokens.companyB]) {
      const r = await call(s, '/_sandbox/webhooks/sign', { method: 'POST', token, body: { payload: { eventType: 'X', n: 1 } } });
      expect(r.status).toBe(200);
      expect(r.body.kid).toBe(s.signer.kid);
      const jwks = (await call(s, JWKS_PATH, { token: null })).body;
      const { payload } = await compactVerify(r.body.jws, createLocalJWKSet(jwks));
      expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ eventType: 'X', n: 1 });
    }
  });

  it('refuses no token, an unknown token, other routes and methods, bad and missing bodies', async () => {
    expect((await call(s, '/_sandbox/webhooks/sign', { method: 'POST', token: null, body: { payload: 1 } })).status).toBe(401);
    expect((await call(s, '/_sandbox/webhooks/sign', { method: 'POST', token: 'sbx_nobody', body: { payload: 1 } })).status).toBe(401);
    expectErrorShape(await call(s, '/_sandbox/webhooks/nope', { method: 'POST', body: {} }), 404, 'NOT_FOUND');
    const get = await call(s, '/_sandbox/webhooks/sign');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await call(s, '/_sandbox/webhooks/sign', { method: 'POST', rawBody: '{nope' })).status).toBe(400);
    const missing = await call(s, '/_sandbox/webhooks/sign', { method: 'POST', body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/payload is required/);
  });

  it('rotate-key: a new kid is signing; the old key stays published unless dropOld', async () => {
    const before = s.signer.kid;
    const r = await call(s, '/_sandbox/webhooks/rotate-key', { method: 'POST', body: {} });
    expect(r.status).toBe(200);
    expect(r.body.kid).not.toBe(before);
    expect(r.body.jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([before, r.body.kid]));
    const dropped = await call(s, '/_sandbox/webhooks/rotate-key', { method: 'POST', body: { dropOld: true } });
    expect(dropped.body.jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([dropped.body.kid]);
  });
});

describe('request bodies', () => {
  it('a body over 1 MB is 413, and the server keeps answering', async () => {
    const big = await call(s, '/v1/employees/gp-employments', { method: 'POST', rawBody: JSON.stringify({ x: 'a'.repeat(1_100_000) }) });
    expect(big.status).toBe(413);
    expect((await call(s, '/v1/employees?pageSize=1')).status).toBe(200);
  });
});
