import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, expectErrorShape } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterEach(() => {
  s.setFaults({ latencyMs: 0, failRate: 0, resetRate: 0, html502Rate: 0, retryAfterSeconds: 1 });
});
afterAll(async () => {
  await s.close();
});

const JWKS = '/v1/partner/.well-known/jwks.json';

describe('injectFault', () => {
  it('503 SERVICE_UNAVAILABLE with Retry-After, for exactly `times` requests', async () => {
    s.setFaults({ retryAfterSeconds: 7 });
    s.injectFault({ kind: '503', times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await call(s, '/v1/employees');
      const b = expectErrorShape(r, 503, 'SERVICE_UNAVAILABLE');
      expect(b.message).toBe('upstream dependency error');
      expect(r.headers.get('retry-after')).toBe('7');
    }
    expect((await call(s, '/v1/employees')).status).toBe(200);
  });

  it('429 with Retry-After', async () => {
    s.injectFault({ kind: '429', times: 1 });
    const r = await call(s, '/v1/employees/onboarding-tracker');
    expectErrorShape(r, 429, 'TOO_MANY_REQUESTS');
    expect(r.headers.get('retry-after')).toBe('1');
  });

  it('500 INTERNAL_SERVER_ERROR', async () => {
    s.injectFault({ kind: '500', times: 1 });
    expectErrorShape(await call(s, '/v1/employees'), 500, 'INTERNAL_SERVER_ERROR');
  });

  it('reset destroys the socket without a response', async () => {
    s.injectFault({ kind: 'reset', times: 1 });
    await expect(call(s, '/v1/employees')).rejects.toThrow();
    expect(s.requests.at(-1)!.status).toBe(0);
    expect((await call(s, '/v1/employees')).status).toBe(200);
  });

  it('html502 answers an HTML proxy page', async () => {
    s.injectFault({ kind: 'html502', times: 1 });
    const r = await call(s, '/v1/employees');
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toBe('text/html');
    expect(r.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(r.body).toBeUndefined();
  });

  it('badjson answers 200 with a truncated JSON body', async () => {
    s.injectFault({ kind: 'badjson', times: 1 });
    const res = await fetch(`${s.url}/v1/employees`, { headers: { authorization: `Bearer ${s.tokens.companyA}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    await expect(res.json()).rejects.toThrow();
  });

  it('rules match path (string exact or RegExp) and method; first matching rule wins', async () => {
    s.injectFault({ kind: '500', times: 1, path: '/v1/employees/offboarding-tracker' });
    s.injectFault({ kind: '429', times: 1, path: /tracker$/, method: 'get' });
    expect((await call(s, '/v1/employees')).status).toBe(200);
    expect((await call(s, '/v1/employees/onboarding-tracker')).status).toBe(429);
    expect((await call(s, '/v1/employees/offboarding-tracker')).status).toBe(500);
    expect((await call(s, '/v1/employees/offboarding-tracker')).status).toBe(200);
    s.injectFault({ kind: '503', times: 1, method: 'POST' });
    expect((await call(s, '/v1/employees')).status).toBe(200);
    expect((await call(s, '/v1/employees/gp-employments', { method: 'POST', body: {} })).status).toBe(503);
  });

  it('times: Infinity keeps failing until the same rule is injected with times: 0', async () => {
    const t = await startSandbox();
    try {
      t.injectFault({ kind: '503', times: Infinity, path: '/v1/employees' });
      t.injectFault({ kind: '500', times: Infinity, path: /tracker/ });
      for (let i = 0; i < 5; i++) expect((await call(t, '/v1/employees')).status).toBe(503);
      t.injectFault({ kind: '503', times: 0, path: '/v1/employees/onboarding-tracker' }); // other target: no effect
      expect((await call(t, '/v1/employees')).status).toBe(503);
      t.injectFault({ kind: '503', times: 0, path: '/v1/employees' });
      expect((await call(t, '/v1/employees')).status).toBe(200);
      expect((await call(t, '/v1/employees/onboarding-tracker')).status).toBe(500);
      t.injectFault({ kind: '500', times: 0, path: /tracker/ });
      expect((await call(t, '/v1/employees/onboarding-tracker')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('faults apply before auth, but not to the JWKS unless a rule names it', async () => {
    s.injectFault({ kind: '503', times: 1 });
    expect((await call(s, JWKS, { token: null })).status).toBe(200);
    expect((await call(s, '/v1/employees', { token: null })).status).toBe(503);
    s.injectFault({ kind: 'html502', times: 1, path: JWKS });
    expect((await call(s, JWKS, { token: null })).status).toBe(502);
    s.setFaults({ failRate: 1 });
    expect((await call(s, JWKS, { token: null })).status).toBe(200);
  });
});

describe('rates and latency', () => {
  it('failRate 1 answers every /v1 request 503; rules take priority', async () => {
    s.setFaults({ failRate: 1, retryAfterSeconds: 3 });
    const r = await call(s, '/v1/employees');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('3');
    s.injectFault({ kind: '429', times: 1 });
    expect((await call(s, '/v1/employees')).status).toBe(429);
  });

  it('resetRate and html502Rate', async () => {
    s.setFaults({ resetRate: 1 });
    await expect(call(s, '/v1/employees')).rejects.toThrow();
    s.setFaults({ resetRate: 0, html502Rate: 1 });
    expect((await call(s, '/v1/employees')).status).toBe(502);
  });

  it('random faults are reproducible for a seed', async () => {
    const run = async (seed: number) => {
      const t = await startSandbox({ seed, failRate: 0.5 });
      const out: number[] = [];
      try {
        for (let i = 0; i < 20; i++) out.push((await call(t, '/v1/employees?pageSize=1')).status);
      } finally {
        await t.close();
      }
      return out;
    };
    const a = await run(42);
    expect(a).toEqual(await run(42));
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  it('latency is added before every response', async () => {
    s.setFaults({ latencyMs: 120 });
    const t0 = performance.now();
    expect((await call(s, '/v1/employees?pageSize=1')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    s.setFaults({ latencyMs: 0 });
  });

  it('latency from the options', async () => {
    const t = await startSandbox({ latencyMs: 80 });
    try {
      const t0 = performance.now();
      await call(t, '/v1/employees?pageSize=1');
      expect(performance.now() - t0).toBeGreaterThanOrEqual(70);
    } finally {
      await t.close();
    }
  });
});
