// International text from the API, end to end: names with joiners
// (Persian ZWNJ), emoji ZWJ sequences, VS16, wide characters are shown as they
// are on a terminal while joiners that hide text are still replaced; --fields
// takes names in any script (the server's own keys, NFC or NFD); an answer that
// is not valid UTF-8 is refused with the request and byte offset, and nothing
// partial is written as if complete.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasScript } from '../helpers/pty.js';
import { expectCode, isolatedEnv, runOnTerminal, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const uuid = (i: number) => `7a1f0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const employee = (i: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id: uuid(i), employeeCode: `IN-${i}`, fullName: `Person ${i}`, status: 'ACTIVE', ...extra });

const PERSIAN = 'علی\u200cرضا';
const CODER = '👩🏽\u200d💻';
const HEART = '❤\ufe0f';
const ROWS = [
  employee(1, { fullName: PERSIAN, department: CODER, designation: `${HEART} 李小龍 한국어` }),
  employee(2, { fullName: 'ad\u200dmin', department: '\u200cعلی', designation: 'user1\ufe0f' }),
];
const ALLOWANCE = '通勤手当';
/** The same allowance's name decomposed (NFD): ｶﾞ is not decomposed, so a Latin name with an accent. */
const NFD_KEY = 'Pr\u0065\u0301mie';
const COMPENSATION = { baseSalary: 500000, currency: 'JPY', allowances: { [ALLOWANCE]: 12000, [NFD_KEY]: 300 } };
const JOSE_LATIN1 = Buffer.from(JSON.stringify({ firstName: 'José', lastName: 'Núñez' }), 'latin1');

interface Api {
  url: string;
  /** Path and query of every request, in order. */
  seen: string[];
  close: () => Promise<void>;
}

/**
 * /v1/employees in pages of one (page `latin1Page` in Latin-1 bytes, labelled
 * UTF-8), /v1/employees/{id}/compensation and /personal (personal in Latin-1
 * when `latin1Page` is set).
 */
async function api(latin1Page?: number): Promise<Api> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const u = new URL(req.url ?? '/', 'http://x');
    let body: Buffer;
    if (u.pathname === '/v1/employees') {
      const page = Number(u.searchParams.get('page') ?? '1');
      const size = Number(u.searchParams.get('pageSize') ?? '20');
      const pages = size >= ROWS.length ? [ROWS] : ROWS.map((r) => [r]);
      const text = JSON.stringify({ data: pages[page - 1] ?? [], pagination: { currentPage: page, pageSize: size, totalPages: pages.length, totalItems: ROWS.length, hasNextPage: page < pages.length, hasPreviousPage: page > 1 } });
      const latin = JSON.stringify({ data: [employee(9, { fullName: 'José Núñez' })], pagination: { currentPage: page, pageSize: size, totalPages: pages.length, totalItems: ROWS.length, hasNextPage: page < pages.length, hasPreviousPage: page > 1 } });
      body = page === latin1Page ? Buffer.from(latin, 'latin1') : Buffer.from(text);
    } else if (u.pathname.endsWith('/compensation')) {
      body = Buffer.from(JSON.stringify(COMPENSATION));
    } else if (u.pathname.endsWith('/personal')) {
      body = latin1Page !== undefined ? JOSE_LATIN1 : Buffer.from(JSON.stringify({ firstName: 'José', lastName: 'Núñez' }));
    } else {
      body = Buffer.from('{"code":"NOT_FOUND","message":"no"}');
      res.writeHead(404, { 'content-type': 'application/json' }).end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  });
  const serverAt = await listenOnLoopback(server);
  return {
    url: serverAt.url,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let dir: { path: string; cleanup: () => void };
let good: Api;
beforeAll(async () => {
  dir = tempDir();
  good = await api();
});
afterAll(async () => {
  await good.close();
  dir.cleanup();
});
const envFor = (a: Api) => isolatedEnv(dir.path, { PARTNER_BASE_URL: a.url, PARTNER_TOKEN: 'test-token' });

describe.skipIf(!hasScript)('international names on a terminal', () => {
  it('shows ZWNJ, an emoji ZWJ sequence and VS16 as they are; joiners that hide text still as U+FFFD', async () => {
    const out = await runOnTerminal(['employees', 'list', '--fields', 'employeeCode,fullName,department,designation'], { env: envFor(good), columns: 160 });
    expect(out).toContain(PERSIAN);
    expect(out).toContain(CODER);
    expect(out).toContain(`${HEART} 李小龍 한국어`);
    expect(out).toContain('ad\ufffdmin');
    expect(out).toContain('\ufffdعلی');
    expect(out).toContain('user1\ufffd');
    expect(out).not.toContain('ad\u200dmin');
    // Aligned: the emoji sequence is one grapheme of 2 cells, so the column after it starts where the header's does.
    const lines = out.split('\n');
    const header = lines.find((l) => l.includes('designation'))!;
    const row = lines.find((l) => l.includes(CODER))!;
    const cellsBefore = (line: string, mark: string) => {
      const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
      let cells = 0;
      for (const { segment } of seg.segment(line.slice(0, line.indexOf(mark)))) cells += /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff]/u.test(segment) ? 2 : /^\p{M}|^[\u200c\u200d]$/u.test(segment) ? 0 : 1;
      return cells;
    };
    expect(cellsBefore(row, HEART)).toBe(cellsBefore(header, 'designation'));
  });
  it('profile get shows them in its key/value blocks', async () => {
    const out = await runOnTerminal(['profile', 'get', uuid(1), 'compensation'], { env: envFor(good), columns: 100 });
    expect(out).toContain(ALLOWANCE);
    expect(out).toContain('12000');
  });
});

describe('--fields with names in any script', () => {
  it('exports the column partner itself heads compensation.allowances.通勤手当', async () => {
    const all = await runMain(['profile', 'get', uuid(1), 'compensation', '-o', 'csv'], { env: envFor(good) });
    expectCode(all, 0);
    expect(all.stdout.split('\r\n')[0]).toContain(`compensation.allowances.${ALLOWANCE}`);
    const r = await runMain(['profile', 'get', uuid(1), 'compensation', '-o', 'csv', '--fields', `id,compensation.allowances.${ALLOWANCE}`], { env: envFor(good) });
    expectCode(r, 0);
    expect(r.stdout).toBe(`id,compensation.allowances.${ALLOWANCE}\r\n${uuid(1)},12000\r\n`);
  });
  it('matches a key the server spells decomposed (NFD) when the name is typed composed (NFC)', async () => {
    const r = await runMain(['profile', 'get', uuid(1), 'compensation', '-o', 'json', '--fields', `compensation.allowances.${NFD_KEY.normalize('NFC')}`], { env: envFor(good) });
    expectCode(r, 0);
    expect(JSON.parse(r.stdout)).toEqual({ compensation: { allowances: { [NFD_KEY.normalize('NFC')]: 300 } } });
  });
  it('still refuses empty segments, control characters and spaces: exit 2, nothing sent', async () => {
    for (const bad of [`compensation..${ALLOWANCE}`, `compensation.allowances.通勤\u0007手当`, '通勤 手当', 'ad\u200dmin']) {
      const before = good.seen.length;
      const r = await runMain(['employees', 'list', '--fields', bad], { env: envFor(good) });
      expectCode(r, 2);
      expect(r.stderr).toMatch(/Invalid --fields/);
      expect(r.stderr).not.toContain('\u0007');
      expect(good.seen.length).toBe(before);
    }
  });
});

describe('an answer that is not valid UTF-8', () => {
  let latin: Api;
  beforeAll(async () => {
    latin = await api(1);
  });
  afterAll(() => latin.close());

  const refused = (stderr: string, request: RegExp) => {
    expect(stderr).toMatch(/sent invalid UTF-8/);
    expect(stderr).toMatch(request);
    expect(stderr).toMatch(/byte offset \d+ of \d+ \(0xe9/);
    expect(stderr).not.toContain('\ufffd');
  };

  it('employees list -o csv: exit 1, the request and byte offset named, no row written', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv'], { env: envFor(latin) });
    expectCode(r, 1);
    refused(r.stderr, /GET http:\/\/127\.0\.0\.1:\d+\/v1\/employees /);
    expect(r.stdout).not.toContain('Jos');
    // The byte offset is the é of José.
    const text = JSON.stringify({ data: [employee(9, { fullName: 'José Núñez' })] });
    expect(Number(/byte offset (\d+)/.exec(r.stderr)![1])).toBe(text.indexOf('José') + 3);
  });
  it('profile get: exit 1, nothing printed as data', async () => {
    const r = await runMain(['profile', 'get', uuid(1), 'personal', '-o', 'json'], { env: envFor(latin) });
    expectCode(r, 1);
    refused(r.stderr, /\/v1\/employees\/7a1f0000-0000-4000-8000-000000000001\/personal/);
    expect(r.stdout).toBe('');
    expect(Number(/byte offset (\d+)/.exec(r.stderr)![1])).toBe(JOSE_LATIN1.indexOf(0xe9));
  });
  it('--all -o ndjson --output-file: the bad page named, the file left as it was (no partial export renamed into place)', async () => {
    const second = await api(2);
    try {
      const out = join(dir.path, 'export');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(out, { recursive: true });
      const file = join(out, 'all.ndjson');
      writeFileSync(file, 'previous export\n');
      const r = await runMain(['employees', 'list', '--all', '--page-size', '1', '-o', 'ndjson', '--output-file', file], { env: envFor(second) });
      expectCode(r, 1);
      refused(r.stderr, /\/v1\/employees\?page=2/);
      expect(readFileSync(file, 'utf8')).toBe('previous export\n');
      expect(readdirSync(out)).toEqual(['all.ndjson']);
      const fresh = join(out, 'new.ndjson');
      const r2 = await runMain(['employees', 'list', '--all', '--page-size', '1', '-o', 'ndjson', '--output-file', fresh], { env: envFor(second) });
      expectCode(r2, 1);
      expect(existsSync(fresh)).toBe(false);
      expect(readdirSync(out)).toEqual(['all.ndjson']);
    } finally {
      await second.close();
    }
  });
  it('-o json on a pipe: the error is one JSON object on stderr with its code', async () => {
    const r = await runMain(['employees', 'list', '-o', 'json'], { env: envFor(latin) });
    expectCode(r, 1);
    const err = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('BAD_RESPONSE_ENCODING');
    expect(err.error.message).toMatch(/invalid UTF-8/);
  });
});
