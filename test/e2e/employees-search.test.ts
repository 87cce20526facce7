// `employees list --search TEXT` (issue 23 item 2): every page, on the client,
// case- and accent-insensitively, combined with the server's filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let env: NodeJS.ProcessEnv;
let sandbox: Sandbox;
let close: () => Promise<void>;
type Emp = { employeeCode: string; fullName: string; displayName: string; workEmail: string; status: string };
let everyone: Emp[];

beforeAll(async () => {
  ({ env, sandbox, close } = await sandboxEnv());
  const r = await runMain(['employees', 'list', '--all', '-o', 'ndjson'], { env, timeoutMs: 15_000 });
  everyone = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
});
afterAll(async () => {
  await close?.();
});

const list = (args: string[]) => runMain(['employees', 'list', ...args], { env, timeoutMs: 15_000 });
/** Written out independently of src/text/fold.ts: the expectation by hand. */
const has = (e: Emp, needle: string) => [e.fullName, e.displayName, e.workEmail, e.employeeCode].some((v) => v.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().includes(needle));

describe('employees list --search', () => {
  it('finds the employees whose name contains the text, whatever its case (NDJSON, in page order)', async () => {
    const r = await list(['--search', 'PRIYA', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const codes = r.stdout.trim().split('\n').map((l) => JSON.parse(l).employeeCode);
    const want = everyone.filter((e) => has(e, 'priya')).map((e) => e.employeeCode);
    expect(want.length).toBeGreaterThan(1);
    expect(codes).toEqual(want);
    expect(r.stderr).toContain(`Searched ${everyone.length} employees on the client`);
    expect(r.stderr).toContain(`${want.length} matches`);
  });

  it('-o json: the pagination describes the matches printed, not the employees read (#32 item 8)', async () => {
    const r = await list(['--search', 'PRIYA', '-o', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { data: Emp[]; pagination: { totalItems: number; totalPages: number; currentPage: number; pageSize: number; hasNextPage: boolean } };
    const want = everyone.filter((e) => has(e, 'priya')).length;
    expect(want).toBeLessThan(everyone.length);
    expect(doc.data).toHaveLength(want);
    expect(doc.pagination).toEqual({ currentPage: 1, pageSize: want, totalPages: 1, totalItems: want, hasNextPage: false, hasPreviousPage: false });
  });

  it('ignores accents both ways: "jose" finds José, "JOSÉ" too', async () => {
    const want = everyone.filter((e) => has(e, 'jose')).map((e) => e.fullName);
    expect(want.some((n) => n.includes('José'))).toBe(true);
    for (const text of ['jose', 'JOSÉ']) {
      const r = await list(['--search', text, '-o', 'json', '--fields', 'fullName']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).data.map((e: Emp) => e.fullName)).toEqual(want);
    }
  });

  it('searches work emails and codes, and combines with --status (sent to the server on every page)', async () => {
    const before = sandbox.requests.length;
    const r = await list(['--search', 'acme-0000', '--status', 'ACTIVE', '-o', 'csv', '--fields', 'employeeCode,status']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\r\n').slice(1);
    const want = everyone.filter((e) => e.status === 'ACTIVE' && has(e, 'acme-0000')).map((e) => `${e.employeeCode},ACTIVE`);
    expect(want.length).toBeGreaterThan(0);
    expect(rows).toEqual(want);
    const requests = sandbox.requests.slice(before).filter((q) => q.path === '/v1/employees');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((q) => q.query.status === 'ACTIVE')).toBe(true);
    const active = everyone.filter((e) => e.status === 'ACTIVE').length;
    expect(r.stderr).toContain(`Searched ${active} employees on the client`);
  });

  it('no match: an empty list, exit 0, and stderr still says what was searched', async () => {
    const r = await list(['--search', 'zzzz-nobody', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([]);
    expect(r.stderr).toContain('0 matches');
  });

  it('--limit counts matches, not employees read', async () => {
    const r = await list(['--search', 'priya', '--limit', '2', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(2);
    expect(rows.every((e: Emp) => has(e, 'priya'))).toBe(true);
  });

  it('--page with --search is a usage error', async () => {
    const r = await list(['--search', 'priya', '--page', '2']);
    expect(r.code).toBe(2);
  });
});
