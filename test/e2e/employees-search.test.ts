// `employees list --search TEXT`: every page, on the client,
// case- and accent-insensitively, combined with the server's filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { runCli, runOnTerminal, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { hasScript, strip } from '../helpers/pty.js';

let env: NodeJS.ProcessEnv;
let sandbox: Sandbox;
let close: () => Promise<void>;
let dir: string;
type Emp = { employeeCode: string; fullName: string; displayName: string; workEmail: string; status: string };
let everyone: Emp[];

beforeAll(async () => {
  ({ env, sandbox, close, dir } = await sandboxEnv());
  const r = await runMain(['employees', 'list', '--all', '-o', 'ndjson'], { env, timeoutMs: 15_000 });
  everyone = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
});
afterAll(async () => {
  await close?.();
});

const list = (args: string[]) => runMain(['employees', 'list', ...args], { env, timeoutMs: 15_000 });
/** The same, as a process of its own: an export piped or to a file runs on the worker thread. */
const spawned = (args: string[]) => runCli(['employees', 'list', ...args], { env, timeoutMs: 15_000 });
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

  it('-o json: the pagination describes the matches printed, not the employees read', async () => {
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

  describe('says its summary once', () => {
    /** How many times "N matches" is said: the summary, in whatever words. */
    const summaries = (text: string) => strip(text).replace(/\s+/g, ' ').match(/\b\d+ match(es)?\b/g)?.length ?? 0;
    const want = () => everyone.filter((e) => has(e, 'an')).length;

    it.skipIf(!hasScript)('a table on a terminal: the rows, then the summary once', async () => {
      const out = await runOnTerminal(['employees', 'list', '--search', 'an', '--no-pager'], { env, columns: 120 });
      expect(out).toMatch(/ACME-\d{5}/);
      expect(summaries(out)).toBe(1);
      expect(strip(out).replace(/\s+/g, ' ')).toContain(`Searched ${everyone.length} employees on the client (the API has no name search): ${want()} matches.`);
    });

    it('piped, in every format (on the worker thread): once, on stderr, and none on stdout', async () => {
      for (const format of ['table', 'json', 'ndjson', 'csv']) {
        const r = await spawned(['--search', 'an', '-o', format]);
        expect(r.code).toBe(0);
        expect(summaries(r.stdout)).toBe(0);
        expect(summaries(r.stderr)).toBe(1);
      }
    });

    it('into a file on the worker thread: once on stderr, none in the file', async () => {
      const out = join(dir, 'search.txt');
      const r = await spawned(['--search', 'an', '-o', 'table', '--output-file', out]);
      expect(r.code).toBe(0);
      expect(summaries(r.stderr)).toBe(1);
      expect(summaries(readFileSync(out, 'utf8'))).toBe(0);
    });
  });

  it('--page with --search is a usage error', async () => {
    const r = await list(['--search', 'priya', '--page', '2']);
    expect(r.code).toBe(2);
  });
});
