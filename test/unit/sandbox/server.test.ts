import { Agent, get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, expectErrorShape } from './helpers.js';
import { waitFor } from '../../helpers/wait-for.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

describe('plumbing', () => {
  it('url is loopback without a trailing slash', () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses non-loopback hosts and bad sizes', async () => {
    await expect(startSandbox({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(startSandbox({ host: '192.168.1.10' })).rejects.toThrow(/loopback/);
    await expect(startSandbox({ employees: -1 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ employees: 1.5 })).rejects.toThrow(RangeError);
  });

  it('works with an empty company A', async () => {
    const t = await startSandbox({ employees: 0 });
    try {
      const r = await call(t, '/v1/employees');
      expect(r.body).toEqual({ data: [], pagination: { currentPage: 1, pageSize: 20, totalPages: 0, totalItems: 0, hasNextPage: false, hasPreviousPage: false } });
      expect((await call(t, '/v1/employees/onboarding-tracker')).body).toEqual([]);
      expect((await call(t, '/v1/employees?pageSize=100', { token: t.tokens.companyB })).body.data).toHaveLength(12);
    } finally {
      await t.close();
    }
  });

  it('unknown paths are 404 NOT_FOUND in the declared shape', async () => {
    expectErrorShape(await call(s, '/v1/nope'), 404, 'NOT_FOUND');
    expectErrorShape(await call(s, '/v1/employees/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectErrorShape(await call(s, '/elsewhere', { token: null }), 404, 'NOT_FOUND');
  });

  it('a wrong method is 405 with Allow, in the declared shape', async () => {
    const r = await call(s, '/v1/employees', { method: 'DELETE' });
    expectErrorShape(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET');
    expect((await call(s, '/v1/employees/gp-employments')).status).toBe(405);
  });

  it('invalid JSON and an empty body are 400 BAD_REQUEST', async () => {
    const bad = await call(s, '/v1/employees/gp-employments', { method: 'POST', rawBody: '{"entity": ' });
    const b = expectErrorShape(bad, 400, 'BAD_REQUEST');
    expect(b.error.details[0].field).toBe('body');
    expectErrorShape(await call(s, '/v1/employees/gp-employments', { method: 'POST', rawBody: '' }), 400, 'BAD_REQUEST');
  });

  it('correlation ids are unique per request and sent as x-correlation-id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await call(s, '/v1/nope');
      ids.add(r.body.correlationId);
      expect(r.headers.get('x-correlation-id')).toBe(r.body.correlationId);
    }
    expect(ids.size).toBe(5);
    const ok = await call(s, '/v1/employees');
    expect(ok.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('content-type')).toBe('application/json');
  });
});

describe('request log', () => {
  it('records every request in order, never the token', async () => {
    const t = await startSandbox();
    try {
      expect(t.requests).toEqual([]);
      await call(t, '/v1/employees?page=2&pageSize=5&status=ACTIVE');
      await call(t, '/v1/employees/onboarding-tracker', { token: null });
      await call(t, '/v1/employees/gp-employments', { method: 'POST', body: { entity: 'x' } });
      expect(t.requests.map((r) => [r.method, r.path, r.status, r.authorization])).toEqual([
        ['GET', '/v1/employees', 200, true],
        ['GET', '/v1/employees/onboarding-tracker', 401, false],
        ['POST', '/v1/employees/gp-employments', 404, true],
      ]);
      expect(t.requests[0]!.query).toEqual({ page: '2', pageSize: '5', status: 'ACTIVE' });
      expect(typeof t.requests[0]!.at).toBe('number');
      expect(JSON.stringify(t.requests)).not.toContain(t.tokens.companyA);
    } finally {
      await t.close();
    }
  });
});

describe('keep-alive and close', () => {
  it('reuses connections and close() does not hang on idle keep-alive sockets', async () => {
    const t = await startSandbox();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      const r = await new Promise<IncomingMessage>((resolve, reject) => get(`${t.url}/v1/employees?pageSize=1`, { agent, headers: { authorization: `Bearer ${t.tokens.companyA}` } }, resolve).on('error', reject));
      sockets.add(r.socket);
      expect(r.statusCode).toBe(200);
      expect(r.headers.connection).not.toBe('close');
      for await (const _ of r);
    }
    expect(sockets.size).toBe(1);
    await t.close(); // would hang on the idle keep-alive socket if not destroyed
    await t.close(); // idempotent
    agent.destroy();
  });

  it('close() ends requests still waiting on latency', async () => {
    const t = await startSandbox({ latencyMs: 20_000 });
    const pending = fetch(`${t.url}/v1/employees`, { headers: { authorization: `Bearer ${t.tokens.companyA}` } });
    await waitFor(() => t.requests.length > 0, { what: 'the request received', intervalMs: 5 });
    const started = Date.now();
    await t.close();
    // Far below the 20 s latency: the waiting request was ended, not served.
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(pending).rejects.toThrow();
  });
});
