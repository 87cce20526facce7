// Values from a red-team pass, served by a loopback API (port 0) to the built
// CLI: invisible characters (direction marks, line separators, zero-width,
// BOM, tags) never reach a terminal raw in any format, and JSON keeps them
// exactly as \u escapes; CSV cells that an importer trims to a formula (a
// leading space, line break, BOM or zero-width character) are neutralised,
// every element of a list too; a value nested 100,000 levels deep is a clear
// error naming its field, never a stack overflow ("This is a bug"). Piped
// output runs the CLI in-process (test/helpers/main-in-process.ts); the
// pseudo-terminal cases spawn it.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasScript } from '../helpers/pty.js';
import { isolatedEnv, runOnTerminal, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const uuid = (i: number) => `5e1f0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const employee = (i: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id: uuid(i), employeeCode: `RT-${i}`, fullName: `Person ${i}`, status: 'ACTIVE', ...extra });

/** Every kind of invisible character, in the fields a table shows. */
const INVISIBLE_ROW = employee(1, {
  fullName: 'Ann\u200f Lee\u2028Smith',
  department: 'Eng\u200bineering\u2029',
  designation: '\ufeffLead\u061c\u00ad \u2066x\u2069',
  lastName: 'Lee\u{e0041}\u{e0042}',
  displayName: 'a\u180e\u2060\u2064\u200e\u200d\u200c\u034f\u3164b\ufe0f',
  country: 'DEU\u202e',
});
/** Formulas behind what an importer trims, and in lists (joined with "; "). */
const FORMULA_ROW = employee(2, { designation: ' =1+1', department: '\n=1+1', middleName: '\ufeff=HYPERLINK("http://x")', displayName: '\u200b@SUM(A1)', lastName: [null, '=1'], firstName: ['x', ' -2+3'], customerName: '\u00a0+1' });
/** Its cells in a CSV file: a leading ' on each (each element of a list). */
const FORMULA_CELLS: Record<string, string> = { designation: "' =1+1", department: "'\n=1+1", middleName: '\'\ufeff=HYPERLINK("http://x")', displayName: "'\u200b@SUM(A1)", lastName: "; '=1", firstName: "x; ' -2+3", customerName: "'\u00a0+1" };

const DEPTH = 100_000;
/** JSON text of a value nested DEPTH arrays deep (JSON.stringify itself would overflow building it). */
const DEEP_JSON = `${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}`;

/** What must never reach a terminal: C0 but tab and newline (a pty's CRs are dropped), DEL, C1, invisible characters. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Default_Ignorable_Code_Point}\u2028\u2029\ufff9-\ufffb]/gu;
/** A cell a spreadsheet may run: tab or CR first, or = + - @ first once blanks, controls and invisible characters are trimmed. */
const LIVE_FORMULA = /^[\t\r]|^[\s\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029\ufff9-\ufffb]*[=+\-@]/u;

interface Api {
  url: string;
  close: () => Promise<void>;
}

/**
 * /v1/employees in pages of `pages` (page 2 may carry the deep department),
 * and one profile section (personal) whose `nested` member may be deep.
 */
async function fakeApi(opts: { deep: boolean }): Promise<Api> {
  const pages = [[INVISIBLE_ROW, FORMULA_ROW], [employee(3), employee(4, { department: '@DEEP@' })]];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let body: string;
    if (u.pathname === '/v1/employees') {
      const page = Number(u.searchParams.get('page') ?? '1');
      const data = pages[page - 1] ?? [];
      body = JSON.stringify({ data, pagination: { currentPage: page, pageSize: 2, totalPages: pages.length, totalItems: 4, hasNextPage: page < pages.length, hasPreviousPage: page > 1 } });
    } else {
      body = JSON.stringify({ firstName: 'Ann\u200f', lastName: ' =1+1', nested: '@DEEP@' });
    }
    body = body.replace('"@DEEP@"', opts.deep ? DEEP_JSON : '"shallow"');
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  const { port } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => closeServer(server),
  };
}

let dir: { path: string; cleanup: () => void };
let shallow: Api;
let deep: Api;
const envFor = (api: Api) => isolatedEnv(dir.path, { PARTNER_BASE_URL: api.url, PARTNER_TOKEN: 'test-token-1234' });

beforeAll(async () => {
  dir = tempDir();
  [shallow, deep] = await Promise.all([fakeApi({ deep: false }), fakeApi({ deep: true })]);
});
afterAll(async () => {
  await Promise.all([shallow?.close(), deep?.close()]);
  dir?.cleanup();
});

describe.skipIf(!hasScript)('invisible characters on a terminal (a pseudo-terminal)', () => {
  // Each with text it must show (the run worked), and none of the invisible characters.
  const cases: [string, string[], string][] = [
    ['employees list -o csv', ['employees', 'list', '--all', '--no-progress', '-o', 'csv'], 'Person 3'],
    ['employees list -o ndjson', ['employees', 'list', '--all', '--no-progress', '-o', 'ndjson'], 'Person 3'],
    ['employees list -o json', ['employees', 'list', '--all', '--no-progress', '-o', 'json'], 'Person 3'],
    ['employees list -o table', ['employees', 'list', '--all', '--no-progress', '-o', 'table'], 'Person 3'],
    ['employees list --fields -o table', ['employees', 'list', '-o', 'table', '--fields', 'lastName,displayName,country'], 'DEU'],
    ['profile get -o table (key/value block)', ['profile', 'get', uuid(1), 'personal', '-o', 'table'], 'Ann'],
    ['profile get -o csv', ['profile', 'get', uuid(1), 'personal', '-o', 'csv'], 'Ann'],
  ];
  for (const [name, args, shown] of cases) {
    it(`${name}: none reaches the screen raw`, async () => {
      const out = await runOnTerminal(args, { env: envFor(shallow), columns: 200 });
      expect(out).toContain(shown);
      expect(out).not.toMatch(/Error:/);
      expect(out.match(UNSAFE) ?? []).toEqual([]);
    });
  }

  it('NDJSON and JSON on a terminal are still the exact values (escaped)', async () => {
    const nd = await runOnTerminal(['employees', 'list', '-o', 'ndjson'], { env: envFor(shallow), columns: 200 });
    expect(nd.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([INVISIBLE_ROW, FORMULA_ROW]);
    const doc = await runOnTerminal(['employees', 'list', '-o', 'json', '--fields', 'fullName,lastName'], { env: envFor(shallow), columns: 200 });
    expect((JSON.parse(doc) as { data: unknown[] }).data[0]).toEqual({ fullName: INVISIBLE_ROW.fullName, lastName: INVISIBLE_ROW.lastName });
  });
});

describe('CSV in a file', () => {
  it('keeps invisible characters, neutralises every formula an importer could trim to, elements of lists too', async () => {
    const file = join(dir.path, 'employees.csv');
    const r = await runMain(['employees', 'list', '-o', 'csv', '--output-file', file], { env: envFor(shallow) });
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.id)).toEqual([uuid(1), uuid(2)]);
    expect(rows[0]!.fullName).toBe(INVISIBLE_ROW.fullName);
    expect(rows[0]!.lastName).toBe(INVISIBLE_ROW.lastName);
    for (const [field, cell] of Object.entries(FORMULA_CELLS)) expect(rows[1]![field], field).toBe(cell);
    for (const row of rows) {
      for (const cell of Object.values(row)) {
        expect(cell).not.toMatch(LIVE_FORMULA);
        // Opened as semicolon-separated values, the joined lists still hold no formula.
        for (const piece of cell.split(';')) if (!/["\n]/.test(cell)) expect(piece).not.toMatch(LIVE_FORMULA);
      }
    }
  });

  it('--csv-raw keeps them as sent', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--csv-raw'], { env: envFor(shallow) });
    expect(r.code, r.stderr).toBe(0);
    const row = (parse(r.stdout, { columns: true }) as Record<string, string>[])[1]!;
    expect(row.designation).toBe(' =1+1');
    expect(row.lastName).toBe('; =1');
  });
});

describe('a value nested 100,000 levels deep', () => {
  const refused: [string, string[], RegExp][] = [
    ['employees list --all -o csv (on page 2)', ['employees', 'list', '--all', '--no-progress', '-o', 'csv'], /department\.0\.0\.0/],
    ['employees list --all -o table', ['employees', 'list', '--all', '--no-progress', '-o', 'table', '--fields', 'employeeCode,department'], /department\.0\.0\.0/],
    ['employees list --fields department.0 -o ndjson', ['employees', 'list', '--all', '--no-progress', '-o', 'ndjson', '--fields', 'employeeCode,department.0'], /department\.0\.0\.0/],
    ['employees list --jq', ['employees', 'list', '--all', '--no-progress', '--jq', '.data | length'], /data\.3\.department\.0/],
    // The key/value block of a section is rendered from the section, so its path starts there.
    ['profile get -o table', ['profile', 'get', uuid(1), 'personal', '-o', 'table'], /nested\.0\.0/],
    ['profile get -o csv', ['profile', 'get', uuid(1), 'personal', '-o', 'csv'], /personal\.nested\.0\.0/],
    ['profile get -o json', ['profile', 'get', uuid(1), 'personal', '-o', 'json'], /personal\.nested\.0\.0/],
  ];
  for (const [name, args, path] of refused) {
    it(`${name}: exit 1, an error naming the field, no stack overflow`, async () => {
      const r = await runMain(args, { env: envFor(deep), timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(1);
      // Piped JSON output has its errors as one JSON line (with the code); the others a text block.
      const json = r.stderr.startsWith('{') ? (JSON.parse(r.stderr) as { error: { message: string; code: string } }).error : undefined;
      if (json) expect(json.code).toBe('NESTED_TOO_DEEP');
      else expect(r.stderr).toMatch(/^Error: /);
      expect(json?.message ?? r.stderr).toMatch(path);
      expect(json?.message ?? r.stderr).toMatch(/nested more than 64 levels deep/);
      expect(r.stderr).not.toMatch(/This is a bug|Maximum call stack|\n\s+at /);
    });
  }

  it('-o ndjson without --fields writes the rows as the API sent them, deep one included', async () => {
    const r = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--no-progress'], { env: envFor(deep), timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toContain(`"department":${DEEP_JSON}`);
  });
});
