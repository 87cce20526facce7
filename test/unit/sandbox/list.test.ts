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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

describe('GET /v1/employees', () => {
  it('defaults to page 1 of 20 with correct pagination', async () => {
    const r = await call(s, '/v1/employees');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'pagination']);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.pagination).toEqual({ currentPage: 1, pageSize: 20, totalPages: 3, totalItems: 45, hasNextPage: true, hasPreviousPage: false });
  });

  it('every list item carries every field of the spec', async () => {
    const r = await call(s, '/v1/employees?pageSize=100');
    expect(r.body.data).toHaveLength(45);
    for (const e of r.body.data) {
      expect(Object.keys(e).sort()).toEqual(
        ['country', 'customerId', 'customerName', 'department', 'designation', 'displayName', 'employeeCode', 'employeeId', 'endDate', 'entity', 'firstName', 'fullName', 'id', 'lastName', 'middleName', 'startDate', 'status', 'type', 'workEmail'].sort(),
      );
      expect(e.id).toMatch(UUID);
      expect(e.customerId).toMatch(/^[0-9a-f-]{36}$/);
      expect(e.employeeId).toBe(e.employeeCode);
      expect(e.startDate).toMatch(DATE);
      expect(e.endDate === null || DATE.test(e.endDate)).toBe(true);
      expect(e.middleName === null || typeof e.middleName === 'string').toBe(true);
      expect(e.country).toMatch(/^[A-Z]{3}$/);
      expect(['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED']).toContain(e.status);
      expect(['EMPLOYEE', 'HR_MEMBER', 'FREELANCER', 'CONTRACTOR']).toContain(e.type);
      expect(e.workEmail).toMatch(/^[^@\s]+@acme\.example$/);
      if (e.status === 'ENDED' || e.status === 'OFFBOARDING') expect(e.endDate).toMatch(DATE);
    }
    const statuses = new Set(r.body.data.map((e: { status: string }) => e.status));
    expect([...statuses].sort()).toEqual(['ACTIVE', 'ENDED', 'OFFBOARDING', 'ONBOARDING']);
    expect(r.body.data.filter((e: { status: string }) => e.status === 'ACTIVE').length).toBeGreaterThan(25);
  });

  it('pages partition the list; a page past the end is empty with correct pagination', async () => {
    const ids: string[] = [];
    for (let p = 1; p <= 3; p++) ids.push(...(await call(s, `/v1/employees?page=${p}&pageSize=20`)).body.data.map((e: { id: string }) => e.id));
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    const last = await call(s, '/v1/employees?page=3');
    expect(last.body.pagination).toMatchObject({ currentPage: 3, hasNextPage: false, hasPreviousPage: true });
    const past = await call(s, '/v1/employees?page=9&pageSize=10');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ currentPage: 9, pageSize: 10, totalPages: 5, totalItems: 45, hasNextPage: false, hasPreviousPage: true });
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['page=0', 'page'],
    ['page=-3', 'page'],
    ['status=FIRED', 'status'],
    ['status=active', 'status'],
    ['employeeId=not-a-uuid', 'employeeId'],
    ['sortBy=lastName', 'sortBy'],
    ['sortOrder=DOWN', 'sortOrder'],
  ])('%s -> 422 VALIDATION_ERROR naming the parameter', async (query, field) => {
    const b = expectErrorShape(await call(s, `/v1/employees?${query}`), 422, 'VALIDATION_ERROR');
    expect(b.error.details).toEqual([expect.objectContaining({ field })]);
    expect(b.errors).toEqual([expect.objectContaining({ property: field })]);
    expect(typeof b.error.details[0].message).toBe('string');
  });

  it.each(['page=abc', 'pageSize=1.5', 'page=', 'pageSize=ten'])('%s (not an integer) -> 400 BAD_REQUEST', async (query) => {
    const b = expectErrorShape(await call(s, `/v1/employees?${query}`), 400, 'BAD_REQUEST');
    expect(b.error.details[0].field).toBe(query.split('=')[0]);
  });

  it('several invalid parameters are all reported', async () => {
    const b = expectErrorShape(await call(s, '/v1/employees?pageSize=500&status=NOPE'), 422, 'VALIDATION_ERROR');
    expect(b.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['pageSize', 'status']);
  });

  it('pageSize bounds 1 and 100 are accepted', async () => {
    expect((await call(s, '/v1/employees?pageSize=1')).body.data).toHaveLength(1);
    expect((await call(s, '/v1/employees?pageSize=100')).body.pagination.totalPages).toBe(1);
  });

  it('status filters, and the filtered totals add up', async () => {
    let sum = 0;
    for (const status of ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED']) {
      const r = await call(s, `/v1/employees?status=${status}&pageSize=100`);
      expect(r.status).toBe(200);
      for (const e of r.body.data) expect(e.status).toBe(status);
      expect(r.body.pagination.totalItems).toBe(r.body.data.length);
      sum += r.body.pagination.totalItems;
    }
    expect(sum).toBe(45);
  });

  it('employeeId and employeeCode match exactly; employeeId takes precedence', async () => {
    const all = (await call(s, '/v1/employees?pageSize=100')).body.data;
    const [x, y] = [all[5], all[30]];
    const byId = await call(s, `/v1/employees?employeeId=${x.id}`);
    expect(byId.body.data).toEqual([x]);
    expect(byId.body.pagination).toMatchObject({ totalItems: 1, totalPages: 1 });
    expect((await call(s, `/v1/employees?employeeId=${x.id.toUpperCase()}`)).body.data).toEqual([x]);
    expect((await call(s, `/v1/employees?employeeCode=${y.employeeCode}`)).body.data).toEqual([y]);
    expect((await call(s, `/v1/employees?employeeId=${x.id}&employeeCode=${y.employeeCode}`)).body.data).toEqual([x]);
    expect((await call(s, `/v1/employees?employeeCode=${y.employeeCode.toLowerCase()}`)).body.data).toEqual([]);
    expect((await call(s, '/v1/employees?employeeId=00000000-0000-4000-8000-000000000000')).body.data).toEqual([]);
    // combined with a status that does not match
    const other = x.status === 'ACTIVE' ? 'ENDED' : 'ACTIVE';
    expect((await call(s, `/v1/employees?employeeId=${x.id}&status=${other}`)).body.data).toEqual([]);
  });

  it('sortBy=startOn ASC/DESC orders by start date', async () => {
    const asc = (await call(s, '/v1/employees?pageSize=100&sortBy=startOn&sortOrder=ASC')).body.data;
    const desc = (await call(s, '/v1/employees?pageSize=100&sortBy=startOn&sortOrder=DESC')).body.data;
    const dates = (l: { startDate: string }[]) => l.map((e) => e.startDate);
    expect(dates(asc)).toEqual([...dates(asc)].sort());
    expect(desc).toEqual([...asc].reverse());
    const firstDesc = (await call(s, '/v1/employees?pageSize=5&sortBy=startOn&sortOrder=DESC')).body.data;
    expect(firstDesc).toEqual(asc.slice(-5).reverse());
    const page2 = (await call(s, '/v1/employees?page=2&pageSize=5&sortOrder=DESC')).body.data;
    expect(page2).toEqual(asc.slice(-10, -5).reverse());
  });
});

describe('trackers', () => {
  it('onboarding tracker: a bare array of {id, employeeCode, stage} for ONBOARDING employees', async () => {
    const r = await call(s, '/v1/employees/onboarding-tracker');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    const onboarding = (await call(s, '/v1/employees?status=ONBOARDING&pageSize=100')).body.data;
    expect(r.body.map((t: { id: string }) => t.id)).toEqual(onboarding.map((e: { id: string }) => e.id));
    for (const t of r.body) {
      expect(Object.keys(t).sort()).toEqual(['employeeCode', 'id', 'stage']);
      expect(typeof t.stage).toBe('string');
    }
  });

  it('offboarding tracker: items carry pendingDocuments', async () => {
    const r = await call(s, '/v1/employees/offboarding-tracker');
    const offboarding = (await call(s, '/v1/employees?status=OFFBOARDING&pageSize=100')).body.data;
    expect(r.body.map((t: { employeeCode: string }) => t.employeeCode)).toEqual(offboarding.map((e: { employeeCode: string }) => e.employeeCode));
    expect(r.body.length).toBeGreaterThan(0);
    for (const t of r.body) {
      expect(Object.keys(t).sort()).toEqual(['employeeCode', 'id', 'pendingDocuments', 'stage']);
      expect(Array.isArray(t.pendingDocuments)).toBe(true);
      for (const d of t.pendingDocuments) expect(typeof d).toBe('string');
    }
    expect(r.body.some((t: { pendingDocuments: string[] }) => t.pendingDocuments.length > 0)).toBe(true);
  });

  it('employeeId and employeeCode filters combine with AND', async () => {
    const [a, b] = (await call(s, '/v1/employees/onboarding-tracker')).body;
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeId=${a.id}`)).body).toEqual([a]);
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeCode=${b.employeeCode}`)).body).toEqual([b]);
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeId=${a.id}&employeeCode=${a.employeeCode}`)).body).toEqual([a]);
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeId=${a.id}&employeeCode=${b.employeeCode}`)).body).toEqual([]);
    // an ACTIVE employee is not in the onboarding tracker
    const active = (await call(s, '/v1/employees?status=ACTIVE&pageSize=1')).body.data[0];
    expect((await call(s, `/v1/employees/onboarding-tracker?employeeId=${active.id}`)).body).toEqual([]);
  });

  it('a malformed employeeId is 422', async () => {
    for (const t of ['onboarding', 'offboarding']) {
      const b = expectErrorShape(await call(s, `/v1/employees/${t}-tracker?employeeId=123`), 422, 'VALIDATION_ERROR');
      expect(b.error.details[0].field).toBe('employeeId');
    }
  });
});
