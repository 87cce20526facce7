// `partner api <path>`: against the sandbox, and against a
// loopback server that records every request (what was sent, and that a
// refused path sent nothing).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { scriptedServer } from '../helpers/scripted-server.js';

let env: NodeJS.ProcessEnv;
let sandbox: Sandbox;
let dir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, sandbox, dir, close } = await sandboxEnv());
});
afterAll(async () => {
  await close?.();
});

const api = (args: string[], e = env, input?: string) => runMain(['api', ...args], { env: e, timeoutMs: 15_000, input });

describe('partner api against the sandbox', () => {
  it('prints one page as the API answered it, with -f as query parameters', async () => {
    const r = await api(['/v1/employees', '-f', 'pageSize=5', '-f', 'status=ACTIVE']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data).toHaveLength(5);
    expect(doc.data.every((e: { status: string }) => e.status === 'ACTIVE')).toBe(true);
    expect(doc.pagination.pageSize).toBe(5);
    const last = sandbox.requests.at(-1)!;
    expect(last.method).toBe('GET');
    expect(last.path).toBe('/v1/employees');
    expect(last.query).toMatchObject({ pageSize: '5', status: 'ACTIVE' });
  });

  it('--paginate walks every page and --jq runs over the whole document, not per page', async () => {
    const one = JSON.parse((await api(['/v1/employees', '-f', 'pageSize=1'])).stdout);
    const total = one.pagination.totalItems;
    expect(total).toBeGreaterThan(20);
    const r = await api(['/v1/employees', '--paginate', '-f', 'pageSize=7', '--jq', '{n: (.data | length), ids: ([.data[].id] | unique | length), last: .pagination.currentPage}']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({ n: total, ids: total, last: Math.ceil(total / 7) });
  });

  it('--paginate -o ndjson prints one record per line, every page', async () => {
    const r = await api(['/v1/employees', '--paginate', '-f', 'pageSize=10', '-o', 'ndjson', '--fields', 'employeeCode']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(20);
    expect(Object.keys(lines[0])).toEqual(['employeeCode']);
  });

  it('a bare-array endpoint: JSON as it came, NDJSON and CSV record by record', async () => {
    const json = await api(['/v1/employees/onboarding-tracker']);
    expect(json.code).toBe(0);
    const arr = JSON.parse(json.stdout);
    expect(Array.isArray(arr)).toBe(true);
    expect(arr.length).toBeGreaterThan(0);
    const nd = await api(['/v1/employees/onboarding-tracker', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(arr);
    const csv = await api(['/v1/employees/onboarding-tracker', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe(Object.keys(arr[0]).join(','));
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(arr.length + 1);
  });

  it('--paginate on an endpoint that is not a paginated list fails and says to drop it', async () => {
    const r = await api(['/v1/employees/onboarding-tracker', '--paginate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NOT_PAGINATED');
  });

  it('-i prints the status line and the headers, then the body', async () => {
    const r = await api(['-i', '/v1/employees', '-f', 'pageSize=1']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body!).data).toHaveLength(1);
  });

  it('--fields with a name the records lack exits 2 (UNKNOWN_FIELD) with nothing written', async () => {
    for (const extra of [[], ['--paginate']]) {
      const r = await api(['/v1/employees', '-f', 'pageSize=3', '-o', 'csv', '--fields', 'employeeCode,fullname', ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/"fullname" is not a field of this record \(did you mean fullName\?\)/);
      expect(r.stdout).toBe('');
    }
  });

  it('a missing employee exits 5 with the API error', async () => {
    const r = await api(['/v1/employees/00000000-0000-4000-8000-000000000000/personal']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('NOT_FOUND');
  });

  it('works with --sandbox and no account', async () => {
    const d = tempDir();
    try {
      const r = await runMain(['--sandbox', 'api', '/v1/employees', '-f', 'pageSize=2', '--jq', '.data | length'], { env: isolatedEnv(d.path), timeoutMs: 15_000 });
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('2');
    } finally {
      d.cleanup();
    }
  });
});

describe('partner api against a recording server', () => {
  const server = scriptedServer();
  const TOKEN = 'tok_recording_0123456789abcdef';
  const envFor = () => ({ ...env, PARTNER_BASE_URL: server.url, PARTNER_TOKEN: TOKEN });

  it.each([
    ['an absolute URL', 'https://evil.example/v1/employees'],
    ['another scheme', 'http://127.0.0.1:1/v1/employees'],
    ['a //host path', '//evil.example/v1/employees'],
    ['a path without / that climbs', 'v1/../../x'],
    ['a .. segment', '/v1/../../x'],
    ['an encoded .. segment', '/v1/%2E%2E/x'],
    ['a backslash', '/\\evil.example/x'],
    ['an encoded slash', '/v1/..%2Fx'],
  ])('refuses %s with exit 2 and sends nothing', async (_what, path) => {
    const r = await api([path], envFor());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('INVALID_API_PATH');
    expect(server.seen).toHaveLength(0);
  });

  it('takes a path without its leading slash, as gh api does', async () => {
    server.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"pagination":{"currentPage":1,"pageSize":20,"totalItems":0,"totalPages":0}}'));
    const r = await api(['v1/employees', '-f', 'pageSize=3'], envFor());
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /v1/employees?pageSize=3']);
  });

  it('-i on an error answer prints its status line, headers and body before the error', async () => {
    server.queue.push((_q, res) =>
      res.writeHead(404, { 'content-type': 'application/json', 'x-correlation-id': 'corr-404-abc' }).end(`{"code":"NOT_FOUND","message":"no such employee","echo":"${TOKEN}"}`),
    );
    const r = await api(['-i', '/v1/employees/00000000-0000-0000-0000-000000000000/personal'], envFor());
    expect(r.code).toBe(5);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(head).toMatch(/^x-correlation-id: corr-404-abc$/m);
    expect(body).toContain('"message":"no such employee"');
    // The token an error answer echoes is masked there too.
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stderr).toMatch(/no such employee/);
    expect(r.stderr).toMatch(/corr-404-abc/);
  });

  it('refuses --bom with -i: the status block would come before the byte order mark (exit 2, nothing sent)', async () => {
    const r = await api(['-i', '/v1/employees', '-o', 'csv', '--bom'], envFor());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--bom cannot be used with -i');
    expect(r.stdout).toBe('');
    expect(server.seen).toHaveLength(0);
  });

  it('refuses an Authorization header (exit 2, nothing sent)', async () => {
    const r = await api(['/v1/employees', '-H', 'Authorization: Bearer other'], envFor());
    expect(r.code).toBe(2);
    expect(server.seen).toHaveLength(0);
  });

  it('sends the token, extra headers, and -X POST with typed -F and string -f as a JSON body', async () => {
    server.queue.push((_q, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'from a file');
    const r = await api(['-X', 'POST', '/v1/things', '-F', 'n=42', '-F', 'b=true', '-F', 'z=null', '-F', `note=@${file}`, '-f', 's=42', '-H', 'X-Trace: abc'], envFor());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true });
    expect(server.seen).toHaveLength(1);
    const q = server.seen[0]!;
    expect(q.method).toBe('POST');
    expect(q.url).toBe('/v1/things');
    expect(q.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(q.headers['x-trace']).toBe('abc');
    expect(JSON.parse(q.body)).toEqual({ n: 42, b: true, z: null, note: 'from a file', s: '42' });
  });

  it('-F sends a number as a JSON number with its digits as typed, however many (never a string, never rounded)', async () => {
    server.queue.push((_q, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const r = await api(['-X', 'POST', '/v1/things', '-F', 'n=12345678901234567890', '-F', 'x=1.0', '-F', 'e=1e400', '-F', 'k=-0.5', '-F', 'code=007'], envFor());
    expect(r.code).toBe(0);
    // The body's text: the digits as written, unquoted; 007 is not a JSON number, so it stays text.
    expect(server.seen[0]!.body).toBe('{"n":12345678901234567890,"x":1.0,"e":1e400,"k":-0.5,"code":"007"}');
  });

  it('--input - sends stdin as the body (POST by default)', async () => {
    server.queue.push((_q, res) => res.writeHead(204).end());
    const r = await api(['/v1/things', '--input', '-'], envFor(), '{"a":[1,2]}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(server.seen[0]!.method).toBe('POST');
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ a: [1, 2] });
  });

  it('-i masks the token when a header echoes it', async () => {
    server.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-echo': `Bearer ${TOKEN}` }).end('{}'));
    const r = await api(['-i', '/v1/x'], envFor());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^x-echo: /m);
    expect(r.stdout).not.toContain(TOKEN.slice(4, 16));
  });

  it('--paginate applies the walk\'s integrity checks: a server that ignores page fails the walk (exit 1)', async () => {
    const page1 = (i: number) => ({ data: [{ id: `id-${i}` }], pagination: { currentPage: 1, pageSize: 1, totalPages: 3, totalItems: 3, hasNextPage: true, hasPreviousPage: false } });
    for (let i = 0; i < 12; i++) server.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page1(i))));
    const r = await api(['/v1/list', '--paginate', '-f', 'pageSize=1'], envFor());
    expect(r.code).toBe(1);
    expect(server.seen.length).toBeGreaterThan(1);
    expect(server.seen.every((q) => q.url.startsWith('/v1/list?'))).toBe(true);
  });
});
