// Transport faults in the middle of `employees list --all`, each from a small
// loopback server (port 0) that misbehaves on page 3: a body cut off
// mid-answer is asked for again from the start (never resumed with Range);
// when a page cannot be had, the error says which page, how many rows were
// already written, and that an --output-file was left untouched.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const TOTAL = 500;
const SIZE = 100;
const PAGES = TOTAL / SIZE;
const uuid = (i: number) => `5e1f0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const ALL = Array.from({ length: TOTAL }, (_, i) => ({ id: uuid(i + 1), employeeCode: `E-${i + 1}`, fullName: `Person ${i + 1}`, status: 'ACTIVE' }));

/** Page `page` as an honest server sends it. */
const pageBody = (page: number) =>
  JSON.stringify({
    data: ALL.slice((page - 1) * SIZE, page * SIZE),
    pagination: { currentPage: page, pageSize: SIZE, totalPages: PAGES, totalItems: TOTAL, hasNextPage: page < PAGES, hasPreviousPage: page > 1 },
  });

const honest = (page: number, res: ServerResponse) => {
  const body = pageBody(page);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** Answers page `page` (`nth` time it was asked for); `honest` for the pages it leaves alone. */
type Respond = (page: number, nth: number, req: IncomingMessage, res: ServerResponse) => void;

interface Seen {
  page: number;
  range?: string;
}

async function fakeApi(respond: Respond): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
    seen.push({ page, range: req.headers.range });
    respond(page, seen.filter((s) => s.page === page).length, req, res);
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

/** Headers and the first 700 bytes of the page, then the connection reset. */
const cutAfter700 = (framing: 'content-length' | 'chunked') => (page: number, req: IncomingMessage, res: ServerResponse) => {
  const body = pageBody(page);
  res.writeHead(200, { 'content-type': 'application/json', ...(framing === 'content-length' ? { 'content-length': Buffer.byteLength(body) } : {}) });
  res.write(body.slice(0, 700), () => setTimeout(() => req.socket.resetAndDestroy(), 20));
};

let dir: { path: string; cleanup: () => void };
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir?.cleanup());

async function exportFrom(respond: Respond, extra: string[] = [], format = 'ndjson') {
  const api = await fakeApi(respond);
  try {
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: api.url, PARTNER_TOKEN: 'test-token-1234' });
    const res = await runMain(['employees', 'list', '--all', '-o', format, '--no-progress', ...extra], { env, timeoutMs: 30_000 });
    return { ...res, seen: api.seen, url: api.url };
  } finally {
    await api.close();
  }
}

const idsOf = (ndjson: string) => ndjson.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);

describe('a body cut off mid-answer', () => {
  for (const framing of ['content-length', 'chunked'] as const) {
    it(`page 3 cut once after 700 bytes (${framing}): asked again from the start, every row once, exit 0`, async () => {
      const r = await exportFrom((page, nth, req, res) => (page === 3 && nth === 1 ? cutAfter700(framing)(page, req, res) : honest(page, res)));
      expect(r.code, r.stderr).toBe(0);
      expect(idsOf(r.stdout)).toEqual(ALL.map((x) => x.id));
      expect(r.stderr).toBe('');
      expect(r.seen.filter((s) => s.page === 3)).toEqual([{ page: 3 }, { page: 3 }]);
      expect(r.seen.filter((s) => s.range !== undefined)).toEqual([]);
      expect(r.seen).toHaveLength(PAGES + 1);
    });
  }

  it('page 3 cut every time: exit 1, the reset named with the attempts, not "could not reach"', async () => {
    const r = await exportFrom((page, _nth, req, res) => (page === 3 ? cutAfter700('content-length')(page, req, res) : honest(page, res)));
    expect(r.code).toBe(1);
    expect(r.seen.filter((s) => s.page === 3)).toHaveLength(5);
    expect(r.seen.filter((s) => s.range !== undefined)).toEqual([]);
    const error = (JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string; hint: string } }).error;
    expect(error.code).toBe('RESPONSE_CUT');
    expect(error.message).toBe(`The connection was reset while the answer of GET ${r.url}/v1/employees was being received (5 attempts)`);
    expect(r.stderr).not.toMatch(/Could not reach|UND_ERR_REQ_RETRY|base URL/);
  });
});

/** Page 3's answer when the server misbehaves, and what the error must say about it. */
const FAULTS: { name: string; respond: (req: IncomingMessage, res: ServerResponse) => void; code: string; says: RegExp; args?: string[] }[] = [
  {
    name: 'an HTML page with 200',
    respond: (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Please sign in</h1></body></html>'),
    code: 'BAD_RESPONSE',
    says: /HTTP 200 with invalid JSON/,
  },
  {
    name: 'truncated JSON',
    respond: (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(pageBody(3).slice(0, 900)),
    code: 'BAD_RESPONSE',
    says: /HTTP 200 with invalid JSON/,
  },
  {
    name: 'an empty 200',
    respond: (_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end(),
    code: 'BAD_RESPONSE',
    says: /no data array or pagination object/,
  },
  {
    name: 'a 302 to a sign-in page',
    respond: (_q, res) => res.writeHead(302, { location: '/sso/login?next=%2Fv1%2Femployees' }).end(),
    code: 'HTTP_302',
    says: /HTTP 302, a redirect to http:\/\/127\.0\.0\.1:\d+\/sso\/login\?next=%2Fv1%2Femployees; partner does not follow redirects/,
  },
  {
    name: '429 after every retry',
    respond: (_q, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests' })),
    code: 'RATE_LIMITED',
    says: /Too many requests/,
  },
  {
    name: 'no answer within --timeout',
    respond: () => undefined,
    code: 'TIMEOUT',
    says: /No complete answer from GET .* within 1 s/,
    args: ['--timeout', '1'],
  },
];

describe('a page that cannot be had says where the export stopped', () => {
  for (const f of FAULTS) {
    it(`page 3 of 5 is ${f.name}: exit 1; the 200 rows of pages 1-2 on stdout, the page and the rows in the error (text)`, async () => {
      const r = await exportFrom((page, _nth, req, res) => (page === 3 ? f.respond(req, res) : honest(page, res)), ['--concurrency', '1', ...(f.args ?? [])], 'csv');
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout.trim().split('\n')).toHaveLength(1 + 200);
      expect(r.stderr).toMatch(/^Error: /);
      expect(r.stderr).toMatch(f.says);
      expect(r.stderr).toContain('\n  Stopped at page 3 of 5; 200 rows written.\n');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });

    it(`page 3 of 5 is ${f.name}, -o ndjson: the JSON error carries the progress`, async () => {
      const r = await exportFrom((page, _nth, req, res) => (page === 3 ? f.respond(req, res) : honest(page, res)), ['--concurrency', '1', ...(f.args ?? [])]);
      expect(r.code, r.stderr).toBe(1);
      expect(idsOf(r.stdout)).toEqual(ALL.slice(0, 200).map((x) => x.id));
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      const { error } = JSON.parse(lines[0]!) as { error: { code: string; message: string; progress: unknown; exitCode: number } };
      expect(error.code).toBe(f.code);
      expect(error.message).toMatch(f.says);
      expect(error.progress).toEqual({ page: 3, pages: 5, rowsFetched: 200, rowsWritten: 200 });
      expect(error.exitCode).toBe(1);
    });
  }

  it('--output-file: the error says the previous file was left untouched (text and JSON); no temp file', async () => {
    const out = join(dir.path, 'of');
    mkdirSync(out, { recursive: true });
    const target = join(out, 'e.csv');
    writeFileSync(target, 'previous export\n');
    const html = FAULTS[0]!.respond;
    const text = await exportFrom((page, _nth, req, res) => (page === 3 ? html(req, res) : honest(page, res)), ['--concurrency', '1', '--output-file', target], 'csv');
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(`\n  Stopped at page 3 of 5; 200 rows fetched, ${target} left untouched.\n`);
    const json = await exportFrom((page, _nth, req, res) => (page === 3 ? html(req, res) : honest(page, res)), ['--concurrency', '1', '--output-file', target]);
    expect(json.code, json.stderr).toBe(1);
    expect((JSON.parse(json.stderr) as { error: { progress: unknown } }).error.progress).toEqual({ page: 3, pages: 5, rowsFetched: 200, rowsWritten: 0, outputFile: target, outputFileUntouched: true });
    expect(readFileSync(target, 'utf8')).toBe('previous export\n');
    expect(readdirSync(out)).toEqual(['e.csv']);
  });

  it('--jq prints once every page is in: nothing was written, and the error says so', async () => {
    const html = FAULTS[0]!.respond;
    const r = await exportFrom((page, _nth, req, res) => (page === 3 ? html(req, res) : honest(page, res)), ['--concurrency', '1', '--jq', '.data[].id'], 'json');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect((JSON.parse(r.stderr) as { error: { progress: unknown } }).error.progress).toEqual({ page: 3, pages: 5, rowsFetched: 200, rowsWritten: 0 });
  });

  it('a redirect of the whole API (it moved): the hint suggests the new base URL', async () => {
    let moved = '';
    const r = await exportFrom((page, _nth, req, res) => {
      if (page < 3) return honest(page, res);
      moved = `http://${req.headers.host}/partner`;
      res.writeHead(301, { location: `${moved}${req.url}` }).end();
    }, ['--concurrency', '1'], 'csv');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`The base URL is probably out of date: if ${moved} is the API's address now, use --base-url ${moved}`);
  });
});
