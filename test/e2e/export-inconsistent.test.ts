// table of inconsistent servers, each a small loopback server
// (port 0) that bends offset pagination one way: the built CLI must either
// write every row exactly once and exit 0, or say what is wrong and exit 1
// (and never walk forever).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { fakeApi } from '../helpers/fake-api.js';

const TOTAL = 1000;
const SIZE = 100;
const PAGES = TOTAL / SIZE;
const uuid = (i: number) => `5e1f0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const ALL = Array.from({ length: TOTAL }, (_, i) => ({ id: uuid(i + 1), employeeCode: `E-${i + 1}`, fullName: `Person ${i + 1}`, status: 'ACTIVE' }));

interface Answer {
  data: unknown[];
  pagination: Record<string, unknown>;
}
type Bend = (page: number, honest: Answer) => Answer;

const honest = (page: number): Answer => ({
  data: ALL.slice((page - 1) * SIZE, page * SIZE),
  pagination: { currentPage: page, pageSize: SIZE, totalPages: PAGES, totalItems: TOTAL, hasNextPage: page < PAGES, hasPreviousPage: page > 1 },
});

let dir: { path: string; cleanup: () => void };
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir?.cleanup());

async function exportFrom(bend: Bend, extra: string[] = []) {
  const api = await fakeApi((page) => bend(page, honest(page)));
  try {
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: api.url, PARTNER_TOKEN: 'test-token-1234' });
    const res = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--no-progress', ...extra], { env, timeoutMs: 30_000 });
    const ids = res.stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    return { ...res, ids, requests: api.requests };
  } finally {
    await api.close();
  }
}

describe('exports from inconsistent servers (table)', () => {
  it('an honest server: 1,000 rows once, exit 0, nothing on stderr', async () => {
    const r = await exportFrom((_p, a) => a);
    expect(r.code).toBe(0);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.stderr).toBe('');
  });

  it('page 4 of 10 empty: exit 1, says which page, the rest still walked', async () => {
    const r = await exportFrom((p, a) => (p === 4 ? { ...a, data: [] } : a));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("The server's pages do not add up: page 4 of 10 had 0 employees instead of 100 (read twice); 900 of the 1,000 employees announced were found; 900 rows written.");
    expect(new Set(r.ids).size).toBe(900);
    expect(r.requests.filter((p) => p === 4)).toHaveLength(2);
  });

  it('page 4 short (50 items): exit 1 with 950 found', async () => {
    const r = await exportFrom((p, a) => (p === 4 ? { ...a, data: a.data.slice(0, 50) } : a));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('page 4 of 10 had 50 employees instead of 100 (read twice); 950 of the 1,000 employees announced were found');
    expect(r.ids).toHaveLength(950);
  });

  it('page 3 repeats 10 items of page 1: no duplicate row, exit 1 naming the 10 lost', async () => {
    const r = await exportFrom((p, a) => (p === 3 ? { ...a, data: [...ALL.slice(0, 10), ...a.data.slice(10)] } : a));
    expect(r.code).toBe(1);
    expect(r.ids).toHaveLength(990);
    expect(new Set(r.ids).size).toBe(990);
    expect(r.stderr).toContain('10 employees already sent on earlier pages came again (page 3)');
    expect(r.stderr).toContain('990 of the 1,000 employees announced were found');
  });

  it('repeats 7 pages apart: still no duplicate row (exact id set), exit 1', async () => {
    const r = await exportFrom((p, a) => (p === 9 ? { ...a, data: [...ALL.slice(100, 110), ...a.data.slice(10)] } : a));
    expect(r.code).toBe(1);
    expect(new Set(r.ids).size).toBe(r.ids.length);
    expect(r.ids).toHaveLength(990);
    expect(r.stderr).toContain('(page 9)');
  });

  it('a server that ignores `page`: exit 1 at once, not 200 rows of duplicates', async () => {
    const r = await exportFrom((_p, _a) => honest(1));
    expect(r.code).toBe(1);
    expect(r.ids).toEqual(ALL.slice(0, 100).map((x) => x.id));
    expect(r.stderr).toContain('Asked for page 2, the server answered page 1 (twice): it seems to ignore the page parameter; 100 rows written.');
    expect(r.requests.length).toBeLessThanOrEqual(PAGES + 1);
  });

  it('hasNextPage always true: stops at the 10 pages announced (page 11 read once, empty), every row once, exit 0 with a warning', async () => {
    const r = await exportFrom((_p, a) => ({ ...a, pagination: { ...a.pagination, hasNextPage: true } }));
    expect(r.code).toBe(0);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.requests.filter((p) => p > PAGES)).toEqual([PAGES + 1]);
    expect(r.stderr).toContain('The server said page 10 had a next page, past the 10 pages it announced; stopped there.');
  });

  it('--allow-drift keeps what was seen: exit 0 with a warning, still no duplicate', async () => {
    const r = await exportFrom((p, a) => (p === 3 ? { ...a, data: [...ALL.slice(0, 10), ...a.data.slice(10)] } : a), ['--allow-drift']);
    expect(r.code).toBe(0);
    expect(new Set(r.ids).size).toBe(990);
    expect(r.stderr).toContain('Kept as seen (--allow-drift).');
  });

  it('--output-file: an inconsistent export leaves the previous file untouched', async () => {
    const out = join(dir.path, 'employees.ndjson');
    writeFileSync(out, 'previous export\n');
    const r = await exportFrom((p, a) => (p === 4 ? { ...a, data: [] } : a), ['--output-file', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`900 rows fetched, ${out} left untouched.`);
    expect(readFileSync(out, 'utf8')).toBe('previous export\n');
  });
});
