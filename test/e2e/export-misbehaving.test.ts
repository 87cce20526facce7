// The red-team table of loopback servers (port 0) that misbehave in
// ways the first table did not cover (totals missing or wrong, ids that are
// not strings, pages that never end, page numbers off by one). 200 employees,
// --page-size 20, so 10 pages. The built CLI must either write every row
// exactly once and exit 0, or say what is wrong and exit 1; never walk
// forever.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { fakeApi } from '../helpers/fake-api.js';

const TOTAL = 200;
const SIZE = 20;
const PAGES = TOTAL / SIZE;
// Lower-case UUIDs with letters in them (so an upper-cased copy differs).
const uuid = (i: number) => `c0ffee${String(i).padStart(2, '0').slice(-2)}-dead-4bee-8fab-${String(i).padStart(12, '0')}`;
const ALL = Array.from({ length: TOTAL }, (_, i) => ({ id: uuid(i + 1), employeeCode: `E-${i + 1}`, fullName: `Person ${i + 1}`, status: 'ACTIVE' }));
const rowsOf = (page: number) => ALL.slice((page - 1) * SIZE, page * SIZE);

interface Answer {
  data: unknown[];
  pagination: Record<string, unknown>;
}
const honest = (page: number): Answer => ({
  data: rowsOf(page),
  pagination: { currentPage: page, pageSize: SIZE, totalPages: PAGES, totalItems: TOTAL, hasNextPage: page < PAGES, hasPreviousPage: page > 1 },
});
/** The honest answer with some pagination fields replaced (undefined: left out). */
const withPagination = (page: number, fields: Record<string, unknown>, data: unknown[] = rowsOf(page)): Answer => ({ data, pagination: { ...honest(page).pagination, ...fields } });

let dir: { path: string; cleanup: () => void };
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir?.cleanup());

async function exportFrom(answer: (page: number) => unknown, extra: string[] = [], timeoutMs = 20_000) {
  const api = await fakeApi(answer);
  try {
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: api.url, PARTNER_TOKEN: 'test-token-1234' });
    const started = Date.now();
    const res = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--no-progress', '--page-size', String(SIZE), ...extra], { env, timeoutMs });
    const rows = res.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: unknown } | null);
    return { ...res, rows, ids: rows.map((r) => r?.id), requests: api.requests, ms: Date.now() - started };
  } finally {
    await api.close();
  }
}

describe('repeats without a total to check them against (red team 1)', () => {
  for (const [name, totalItems] of [
    ['missing', undefined],
    ['a string', '200'],
    ['not an integer', 200.5],
  ] as const) {
    it(`totalItems ${name}, page 3 repeats page 1: exit 1 naming the page and the rows written, not 180 rows and exit 0`, async () => {
      const r = await exportFrom((p) => withPagination(p, { totalItems }, p === 3 ? rowsOf(1) : rowsOf(p)));
      expect(r.code).toBe(1);
      expect(r.ids).toHaveLength(180);
      expect(new Set(r.ids).size).toBe(180);
      expect(r.stderr).toContain('20 employees already sent on earlier pages came again (page 3) and were written once; with no total announced, nothing shows that no employee was missed');
      expect(r.stderr).toContain('180 rows written.');
    });
  }

  it('--output-file keeps the previous file (it was replaced by the incomplete one)', async () => {
    const out = join(dir.path, 'no-total.ndjson');
    writeFileSync(out, 'previous export\n');
    const r = await exportFrom((p) => withPagination(p, { totalItems: undefined }, p === 3 ? rowsOf(1) : rowsOf(p)), ['--output-file', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`180 rows fetched, ${out} left untouched.`);
    expect(readFileSync(out, 'utf8')).toBe('previous export\n');
  });

  it('with a valid total the count proves nothing was lost: repeats alone stay a warning (exit 0)', async () => {
    // Page 9 sends 5 of page 1 again, plus its own 20: every employee once, 200 of 200.
    const r = await exportFrom((p) => (p === 9 ? withPagination(p, {}, [...rowsOf(1).slice(0, 5), ...rowsOf(9)]) : honest(p)));
    expect(r.code).toBe(0);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.stderr).toContain('5 employees already sent on earlier pages came again (page 9) and were written once.');
  });
});

describe('totals smaller than the data while hasNextPage says more (red team 2)', () => {
  for (const [name, fields] of [
    ['totalPages 5, totalItems 100', { totalPages: 5, totalItems: 100 }],
    ['totalPages 5, no totalItems', { totalPages: 5, totalItems: undefined }],
  ] as const) {
    it(`${name}, hasNextPage true: the next page is read once, its new rows are an error (exit 1), nothing chased further`, async () => {
      const r = await exportFrom((p) => withPagination(p, { ...fields, hasNextPage: true }));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("The server's pages do not add up: page 5 said it had a next page, past the 5 pages announced, and page 6 held 20 more employees; stopped there;");
      expect(r.stderr).toContain('120 rows written.');
      expect(r.ids).toEqual(ALL.slice(0, 120).map((x) => x.id));
      expect(Math.max(...r.requests)).toBe(6);
      expect(r.requests.filter((p) => p === 6)).toHaveLength(1);
    });
  }
});

describe('ids that are not strings, items that are not objects (red team 3, 4)', () => {
  it('numeric ids are de-duplicated too: page 3 repeating page 1 is caught (exit 1, no doubled row)', async () => {
    const numeric = (p: number) => rowsOf(p).map((e, i) => ({ ...e, id: (p - 1) * SIZE + i + 1 }));
    const r = await exportFrom((p) => withPagination(p, {}, numeric(p === 3 ? 1 : p)));
    expect(r.code).toBe(1);
    expect(r.ids).toHaveLength(180);
    expect(new Set(r.ids).size).toBe(180);
    expect(r.stderr).toContain('20 employees already sent on earlier pages came again (page 3)');
    expect(r.stderr).toContain('180 of the 200 employees announced were found');
  });

  for (const [name, bend] of [
    ['null', (e: object) => ({ ...e, id: null })],
    ['missing', ({ id: _id, ...e }: { id: string }) => e],
    ['a boolean', (e: object) => ({ ...e, id: true })],
  ] as const) {
    it(`ids ${name} from page 2 on, page 3 repeating page 1 with the right total: exit 1 naming the first page and count`, async () => {
      const bent = (p: number) => (p === 1 ? rowsOf(1) : rowsOf(p === 3 ? 1 : p).map((e) => bend(e as { id: string })));
      const r = await exportFrom((p) => withPagination(p, {}, bent(p)));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('180 items came without a usable id (first on page 2): nothing shows that no employee was written twice');
    });
  }

  it('items that are not objects (null, text, a number, an array) are left out, counted, and fail the export', async () => {
    const r = await exportFrom((p) => (p === 3 ? withPagination(p, {}, [null, 'x', 42, [], ...rowsOf(3).slice(4)]) : honest(p)));
    expect(r.code).toBe(1);
    // No blank rows: every row written is an employee, once.
    expect(r.rows.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x))).toBe(true);
    expect(r.ids).toHaveLength(196);
    expect(new Set(r.ids).size).toBe(196);
    expect(r.stderr).toContain('4 items came without a usable id (first on page 3), 4 of them not an object at all (left out)');
  });

  it('UUIDs are case-insensitive: page 3 repeating page 1 in upper case is caught, no row twice', async () => {
    const upper = rowsOf(1).map((e) => ({ ...e, id: e.id.toUpperCase() }));
    const r = await exportFrom((p) => withPagination(p, {}, p === 3 ? upper : rowsOf(p)));
    expect(r.code).toBe(1);
    expect(r.ids).toHaveLength(180);
    expect(new Set(r.ids.map((id) => String(id).toLowerCase())).size).toBe(180);
    expect(r.stderr).toContain('20 employees already sent on earlier pages came again (page 3)');
  });
});

describe('a server that announces far more than it has: never endless (red team 5)', () => {
  for (const [name, fields, of] of [
    ['totalPages 1,000,000', { totalPages: 1_000_000, totalItems: undefined }, '1,000,000'],
    ['totalPages 1e9', { totalPages: 1e9, totalItems: undefined }, '1,000,000,000'],
    ['totalItems 1e9 and no totalPages', { totalPages: undefined, totalItems: 1e9 }, '50,000,000'],
  ] as const) {
    it(`${name}: stops after two empty pages, exit 1, a handful of requests`, async () => {
      const r = await exportFrom((p) => withPagination(p, { ...fields, hasNextPage: true }, p <= PAGES ? rowsOf(p) : []), [], 15_000);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.ids).toEqual(ALL.map((x) => x.id));
      expect(r.stderr).toContain(`page 11 of ${of} was empty (read twice), and so was page 12: the server announced more pages than it has; stopped`);
      expect(r.stderr).toContain('200 rows written.');
      // Pages 1-12, 11 and 12 twice, and what the window (8 in flight, 8 held) had asked for.
      expect(r.requests.length).toBeLessThanOrEqual(14 + 16);
    });
  }

  it('totalPages 1,000,000 and pages past the data that repeat the last one: stops after two, exit 1', async () => {
    const r = await exportFrom((p) => withPagination(p, { totalPages: 1_000_000, totalItems: undefined, hasNextPage: true }, rowsOf(Math.min(p, PAGES))), [], 15_000);
    expect(r.code).toBe(1);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.stderr).toContain('page 11 of 1,000,000 brought no employee not already written, and neither did page 12: the server announced more pages than it has; stopped');
    expect(r.requests.length).toBeLessThanOrEqual(12 + 16);
  });

  it('totalPages 1,000,000 but totalItems 200: the counts disagree, the walk goes by the smaller (10 pages), exit 1', async () => {
    const r = await exportFrom((p) => withPagination(p, { totalPages: 1_000_000, hasNextPage: true }, p <= PAGES ? rowsOf(p) : []));
    expect(r.code).toBe(1);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.stderr).toContain('page 1 announced 1,000,000 pages but 200 employees, which fill 10 pages of 20; the walk went by the smaller');
    expect(Math.max(...r.requests)).toBeLessThanOrEqual(PAGES + 1);
  });
});

describe('what the messages say (red team 6, 7, 8)', () => {
  it('a total of 0 on pages 5 and later: the drift message says what is known, no "0 appeared, 0 disappeared"', async () => {
    const r = await exportFrom((p) => (p >= 5 ? withPagination(p, { totalItems: 0, totalPages: 0, hasNextPage: false }, []) : honest(p)));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The company changed during the export: its total went from 200 to 0 employees (page 5) and back; 80 rows written, 120 employees listed now were not written.');
    expect(r.stderr).not.toContain('0 disappeared');
  });

  it('a server numbering its answers from 0 (currentPage = page - 1): says what it saw and guesses that, exit 1', async () => {
    const r = await exportFrom((p) => withPagination(p, { currentPage: p - 1 }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Asked for page 1, the server answered page 0 (twice): it seems to number pages from 0; 0 rows written.');
    expect(r.stderr).not.toContain('ignore the page parameter');
    expect(r.requests).toEqual([1, 1]);
  });

  it('a server one page behind from page 2 on: says what it saw, without guessing that it ignores `page`', async () => {
    // Page 2 answers late, so the answers for pages 3 and on (naming pages 2 and on) are in first.
    const behind = (p: number) => withPagination(p, { currentPage: Math.max(1, p - 1) }, rowsOf(Math.max(1, p - 1)));
    const r = await exportFrom((p) => (p === 2 ? new Promise((resolve) => setTimeout(() => resolve(behind(p)), 150)) : behind(p)));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Asked for page 2, the server answered page 1 (twice); 20 rows written.');
    expect(r.ids).toEqual(rowsOf(1).map((x) => x.id));
  });

  it('no totals, hasNextPage true on the last page, page 11 empty: 200 of 200, exit 0 with a warning', async () => {
    const r = await exportFrom((p) => withPagination(p, { totalPages: undefined, totalItems: undefined, hasNextPage: true }, p <= PAGES ? rowsOf(p) : []));
    expect(r.code).toBe(0);
    expect(r.ids).toEqual(ALL.map((x) => x.id));
    expect(r.stderr).toContain('The server said there was a next page, but page 11 was empty (read twice); stopped there.');
    expect(Math.max(...r.requests)).toBe(11);
  });
});
