import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await startSandbox({ employees: 200 });
});
afterEach(async () => {
  await s.close();
});

const total = async (query = '') => (await call(s, `/v1/employees?pageSize=100${query}`)).body.pagination.totalItems as number;

describe('drift: the company changes while it is read', () => {
  it('drift() creates employees at the end of the list just before the chosen list request', async () => {
    const done = s.drift({ create: 2, atListRequest: 2 });
    expect(await total()).toBe(200);
    expect(await total()).toBe(202);
    const ids = await done;
    expect(ids).toHaveLength(2);
    const last = (await call(s, '/v1/employees?page=3&pageSize=100')).body.data as { id: string; status: string; firstName: string }[];
    expect(last.map((e) => e.id)).toEqual(ids);
    expect(last.every((e) => e.status === 'ONBOARDING' && e.firstName === 'Drift')).toBe(true);
  });

  it('ended employees leave the ACTIVE list (its pages shift) and show as ENDED everywhere', async () => {
    const active = await total('&status=ACTIVE');
    const ended = await total('&status=ENDED');
    const [id] = await Promise.all([s.drift({ end: 1 }), total()]).then(([ids]) => ids);
    expect(await total('&status=ACTIVE')).toBe(active - 1);
    expect(await total('&status=ENDED')).toBe(ended + 1);
    expect(await total()).toBe(200);
    const one = (await call(s, `/v1/employees?employeeId=${id}`)).body.data[0];
    expect(one.status).toBe('ENDED');
    expect(one.endDate).toBe('2025-06-30');
    // Another company is not touched.
    expect((await call(s, '/v1/employees', { token: s.tokens.companyB })).body.pagination.totalItems).toBe(12);
  });

  it('--drift-rate: only employee-list requests change the company', async () => {
    const before = [await total(), await total('&status=ACTIVE')];
    s.setFaults({ driftRate: 1 });
    for (let i = 0; i < 10; i++) await call(s, '/v1/employees/onboarding-tracker');
    s.setFaults({ driftRate: 0 });
    expect([await total(), await total('&status=ACTIVE')]).toEqual(before);
    s.setFaults({ driftRate: 1 });
    await total();
    s.setFaults({ driftRate: 0 });
    // One list request, one change: an employee created (total + 1) or one ACTIVE ended.
    const after = [await total(), await total('&status=ACTIVE')];
    expect([[before[0]! + 1, before[1]], [before[0], before[1]! - 1]]).toContainEqual(after);
  });

  it('--drift-rate: about that share of list requests', async () => {
    s.setFaults({ driftRate: 0.5 });
    let changes = 0;
    let before = await total();
    let active = await total('&status=ACTIVE');
    for (let i = 0; i < 40; i++) {
      s.setFaults({ driftRate: 0.5 });
      await call(s, '/v1/employees?pageSize=1');
      s.setFaults({ driftRate: 0 });
      const [t, a] = [await total(), await total('&status=ACTIVE')];
      if (t !== before || a !== active) changes++;
      before = t;
      active = a;
    }
    expect(changes).toBeGreaterThan(8);
    expect(changes).toBeLessThan(32);
  });
});
