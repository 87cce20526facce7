import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call } from './helpers.js';

const N = 200_000;
let s: Sandbox;
// Speed is measured in test/bench, never here: these assert correctness at scale.
beforeAll(async () => {
  s = await startSandbox({ employees: N });
});
afterAll(async () => {
  await s.close();
});

describe(`${N} employees`, () => {
  it('the last page of 100 has correct totals', async () => {
    const r = await call(s, '/v1/employees?page=2000&pageSize=100');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(100);
    expect(r.body.pagination).toEqual({ currentPage: 2000, pageSize: 100, totalPages: 2000, totalItems: N, hasNextPage: false, hasPreviousPage: true });
    expect(r.body.data[99].employeeCode).toBe('ACME-200000');
    expect((await call(s, '/v1/employees?page=2001&pageSize=100')).body.data).toEqual([]);
  });

  it('status filters page through index arrays and add up', async () => {
    let sum = 0;
    for (const status of ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED']) {
      const first = await call(s, `/v1/employees?status=${status}&pageSize=100`);
      const total = first.body.pagination.totalItems;
      sum += total;
      const last = await call(s, `/v1/employees?status=${status}&pageSize=100&page=${first.body.pagination.totalPages}`);
      expect(last.body.data.length).toBe(total - (first.body.pagination.totalPages - 1) * 100);
      for (const e of last.body.data) expect(e.status).toBe(status);
    }
    expect(sum).toBe(N);
    const active = (await call(s, '/v1/employees?status=ACTIVE&pageSize=1')).body.pagination.totalItems;
    expect(active / N).toBeGreaterThan(0.7);
  });

  it('DESC starts at the newest employee; lookups are exact', async () => {
    const desc = (await call(s, '/v1/employees?sortBy=startOn&sortOrder=DESC&pageSize=3')).body.data;
    expect(desc.map((e: { employeeCode: string }) => e.employeeCode)).toEqual(['ACME-200000', 'ACME-199999', 'ACME-199998']);
    const e = (await call(s, '/v1/employees?employeeCode=ACME-150000')).body.data[0];
    expect(e.employeeCode).toBe('ACME-150000');
    expect((await call(s, `/v1/employees?employeeId=${e.id}`)).body.data).toEqual([e]);
    expect((await call(s, `/v1/employees/${e.id}/employment`)).body.employeeCode).toBe('ACME-150000');
  });

  it('trackers list every employee in the lifecycle', async () => {
    const onboarding = (await call(s, '/v1/employees?status=ONBOARDING&pageSize=1')).body.pagination.totalItems;
    const tracker = (await call(s, '/v1/employees/onboarding-tracker')).body;
    expect(tracker).toHaveLength(onboarding);
  });
});
