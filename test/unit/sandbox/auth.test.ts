import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, expectErrorShape } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

const ENDPOINTS = [
  '/v1/employees',
  '/v1/employees/onboarding-tracker',
  '/v1/employees/offboarding-tracker',
  '/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=Acme%20Deutschland%20GmbH',
  '/v1/employees/00000000-0000-4000-8000-000000000000/personal',
];

describe('authentication', () => {
  it.each(ENDPOINTS)('401 AUTHORIZATION_MISSING_TOKEN without a token: %s', async (path) => {
    const r = await call(s, path, { token: null });
    const b = expectErrorShape(r, 401, 'UNAUTHORIZED');
    expect(b.message).toBe('AUTHORIZATION_MISSING_TOKEN');
    expect(b.error.message).toBe('AUTHORIZATION_MISSING_TOKEN');
    expect(b.error.details).toBeNull();
    expect(b.path).toBe(path.split('?')[0]);
  });

  it('401 for an unknown token and for a non-bearer scheme', async () => {
    expectErrorShape(await call(s, '/v1/employees', { token: 'sbx_nope_000000000000' }), 401, 'UNAUTHORIZED');
    const res = await fetch(`${s.url}/v1/employees`, { headers: { authorization: `Basic ${s.tokens.companyA}` } });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  });

  it.each(ENDPOINTS)('403 Insufficient permissions for the no-permission token: %s', async (path) => {
    const b = expectErrorShape(await call(s, path, { token: s.tokens.noPermission }), 403, 'FORBIDDEN');
    expect(b.message).toBe('Insufficient permissions');
  });

  it('403 also on writes', async () => {
    expectErrorShape(await call(s, '/v1/employees/gp-employments', { method: 'POST', token: s.tokens.noPermission, body: {} }), 403, 'FORBIDDEN');
  });

  it('the JWKS is public', async () => {
    const r = await call(s, '/v1/partner/.well-known/jwks.json', { token: null });
    expect(r.status).toBe(200);
    expect(r.body.keys.length).toBeGreaterThan(0);
  });

  it('tokens are fixed, recognisable strings', () => {
    expect(s.tokens).toEqual({ companyA: 'sbx_acme_7f3c9a1e2b4d', companyB: 'sbx_globex_5d1e8c2a9f0b', noPermission: 'sbx_noperm_3a9e1c7d5b2f' });
  });
});

describe('company scoping', () => {
  it("company B sees only its own 12 employees", async () => {
    const r = await call(s, '/v1/employees?pageSize=100', { token: s.tokens.companyB });
    expect(r.status).toBe(200);
    expect(r.body.pagination.totalItems).toBe(12);
    for (const e of r.body.data) {
      expect(e.employeeCode).toMatch(/^GLX-\d{4}$/);
      expect(e.customerId).toBe(s.companies.B.id);
      expect(e.customerName).toBe(s.companies.B.name);
    }
    const a = await call(s, '/v1/employees?pageSize=100');
    for (const e of a.body.data) {
      expect(e.employeeCode).toMatch(/^ACME-\d{5}$/);
      expect(e.customerId).toBe(s.companies.A.id);
    }
    const namesA = new Set(a.body.data.map((e: { fullName: string }) => e.fullName));
    expect(r.body.data.some((e: { fullName: string }) => namesA.has(e.fullName))).toBe(false);
  });

  it("company A's ids are 404 NOT_FOUND for company B on every profile section", async () => {
    const a = await call(s, '/v1/employees?pageSize=1');
    const id = a.body.data[0].id;
    for (const section of ['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation']) {
      expect((await call(s, `/v1/employees/${id}/${section}`)).status).toBe(200);
      expectErrorShape(await call(s, `/v1/employees/${id}/${section}`, { token: s.tokens.companyB }), 404, 'NOT_FOUND');
    }
    const patch = await call(s, `/v1/employees/${id}/dynamic-details`, { method: 'PATCH', token: s.tokens.companyB, body: { customFields: { costCenter: 'CC-1234' } } });
    expectErrorShape(patch, 404, 'NOT_FOUND');
  });

  it("company A's employees are filtered out of B's list and trackers", async () => {
    const onA = await call(s, '/v1/employees/onboarding-tracker');
    expect(onA.body.length).toBeGreaterThan(0);
    const id = onA.body[0].id;
    const code = onA.body[0].employeeCode;
    const list = await call(s, `/v1/employees?employeeId=${id}`, { token: s.tokens.companyB });
    expect(list.body.data).toEqual([]);
    expect(list.body.pagination.totalItems).toBe(0);
    expect((await call(s, `/v1/employees?employeeCode=${code}`, { token: s.tokens.companyB })).body.data).toEqual([]);
    const onB = await call(s, '/v1/employees/onboarding-tracker', { token: s.tokens.companyB });
    expect(onB.body.length).toBeGreaterThan(0);
    expect(onB.body.some((t: { id: string }) => t.id === id)).toBe(false);
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeId=${id}`, { token: s.tokens.companyB })).body).toEqual([]);
    const offB = await call(s, '/v1/employees/offboarding-tracker', { token: s.tokens.companyB });
    for (const t of offB.body) expect(t.employeeCode).toMatch(/^GLX-/);
  });
});
