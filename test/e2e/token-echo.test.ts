// a token that a server echoes is never printed, in any form.
// A loopback server answers every request with an error that echoes the
// bearer token it received: in X-Correlation-Id / X-Request-Id (as is and
// upper-cased), as JSON \u escapes in the message, inside a 422's
// errors[].property and message, percent-encoded, in a non-JSON body and in
// invalid JSON. Neither the token nor any 8-character piece of any of its
// forms reaches stdout or stderr: text errors, JSON errors, with --debug.
// Runs the CLI in-process (test/helpers/main-in-process.ts): all it prints goes
// through its IO, which the harness collects whole.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_SECRET_RUN, secretForms } from '../../src/api/redact.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const TOKEN = 'pk_live_7Hq2Zx9WmR4tLc8VbN3sKd6YfJ1gPa5EuQ0oXi';
const jsonEscaped = (s: string) => [...s].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const percent = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

type Echo = (token: string) => { status: number; headers?: Record<string, string>; body: string };
const ECHOES: Record<string, Echo> = {
  'X-Correlation-Id header': (t) => ({ status: 500, headers: { 'x-correlation-id': t }, body: JSON.stringify({ message: 'boom' }) }),
  'X-Correlation-Id header, upper-cased': (t) => ({ status: 500, headers: { 'x-correlation-id': t.toUpperCase() }, body: JSON.stringify({ message: 'boom' }) }),
  'X-Request-Id header': (t) => ({ status: 403, headers: { 'x-request-id': t }, body: JSON.stringify({ message: 'no' }) }),
  'X-Request-Id header on a non-JSON answer': (t) => ({ status: 502, headers: { 'x-request-id': t, 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' }),
  'correlationId in the body': (t) => ({ status: 500, body: JSON.stringify({ message: 'boom', correlationId: t.toLowerCase() }) }),
  'JSON \\u escapes in the message': (t) => ({ status: 401, body: `{"code":"UNAUTHORIZED","message":"token ${jsonEscaped(t)} is not valid"}` }),
  'JSON \\u escapes in invalid JSON': (t) => ({ status: 400, body: `{"message":"token ${jsonEscaped(t)}` }),
  '422 errors[].property and message': (t) => ({
    status: 422,
    body: JSON.stringify({ code: 'VALIDATION_ERROR', message: 'invalid', errors: [{ property: `header.${t}`, message: `must not be ${t.slice(3, 30)}` }], error: { details: [{ field: t.toUpperCase(), message: Buffer.from(t).toString('base64') }] } }),
  }),
  'percent-encoded in the message and path': (t) => ({ status: 404, body: JSON.stringify({ message: `no such token ${percent(t)} / ${percent(t).toLowerCase()} / ${encodeURIComponent(`a b ${t}`)}`, path: `/v1/x?t=${percent(t)}` }) }),
  'percent-encoded, escaped in a code': (t) => ({ status: 409, body: `{"code":"${jsonEscaped(percent(t.slice(0, 20)))}","message":"conflict"}` }),
  'a redirect to a URL carrying the token': (t) => ({ status: 302, headers: { location: `https://login.example/?token=${t}`, 'x-correlation-id': t }, body: '' }),
};

let server: Server;
let base: string;
let echo: Echo;
const dir = tempDir();

beforeAll(async () => {
  server = createServer((req, res) => {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const a = echo(token);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  const serverAt = await listenOnLoopback(server);
  base = serverAt.url;
});

afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

/** Every 8-character piece of every form of the token (as is, cases, base64, base64url, percent-encoded). */
const PIECES = [...new Set(secretForms(TOKEN).flatMap((f) => Array.from({ length: f.length - MIN_SECRET_RUN + 1 }, (_, i) => f.slice(i, i + MIN_SECRET_RUN))))];

function expectNoPiece(text: string, what: string): void {
  const found = PIECES.find((p) => text.includes(p));
  expect(found, `${what}: ${text}`).toBeUndefined();
}

describe('a server that echoes the token', () => {
  it('the percent-encoded forms are among those checked', () => {
    expect(secretForms(TOKEN)).toContain(percent(TOKEN));
    expect(secretForms(TOKEN)).toContain(percent(TOKEN).toLowerCase());
  });

  for (const [name, e] of Object.entries(ECHOES)) {
    it(`${name}: no piece of it in text, JSON or --debug output`, async () => {
      echo = e;
      const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: TOKEN });
      const runs = [
        ['employees', 'list', '-o', 'table'],
        ['employees', 'list', '-o', 'json'],
        ['--debug', 'employees', 'list', '-o', 'csv'],
        ['--debug', 'profile', 'get', 'ACME-00001', '-o', 'json', '--timeout', '5'],
      ];
      // Side by side (the same echo; most of each run is the CLI's backoff between retries).
      const results = await Promise.all(runs.map((args) => runMain(args, { env, timeoutMs: 30_000 })));
      for (const [i, args] of runs.entries()) {
        const r = results[i]!;
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).not.toBe(0);
        expect(r.signal).toBeNull();
        expectNoPiece(r.stdout + r.stderr, args.join(' '));
      }
    });
  }

  it('an echo cut into pieces of 4 between separators (sbx_-SECR-ET_t-…): no 8 letters of it, separators skipped', async () => {
    const pieces = (t: string) => t.match(/.{1,4}/g)!.join('-');
    echo = (t) => ({ status: 401, headers: { 'x-correlation-id': pieces(t) }, body: JSON.stringify({ message: `token ${pieces(t)} is not valid`, path: pieces(t.toUpperCase()) }) });
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: TOKEN });
    const letters = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
    const grams = new Set([TOKEN, TOKEN.toUpperCase()].flatMap((f) => Array.from({ length: letters(f).length - MIN_SECRET_RUN + 1 }, (_, i) => letters(f).slice(i, i + MIN_SECRET_RUN))));
    for (const args of [['employees', 'list', '-o', 'table'], ['employees', 'list', '-o', 'json'], ['--debug', 'employees', 'list', '-o', 'csv']]) {
      const r = await runMain(args, { env });
      expect(r.code, r.stderr).toBe(3);
      const shown = letters(r.stdout + r.stderr);
      expect([...grams].find((g) => shown.includes(g)), `${args.join(' ')}: ${r.stderr}`).toBeUndefined();
      expect(r.stderr, r.stderr).toContain("***");
    }
  });

  it('the masked error still says what happened (the mask shows where the echo was)', async () => {
    echo = ECHOES['X-Correlation-Id header']!;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: TOKEN });
    const text = await runMain(['employees', 'list', '-o', 'table'], { env });
    expect(text.stderr).toMatch(/^Error: boom/);
    expect(text.stderr).toMatch(/Correlation id: \*\*\*/);
    const json = await runMain(['employees', 'list', '-o', 'json'], { env });
    expect((JSON.parse(json.stderr) as { error: { correlationId: string } }).error.correlationId).toBe('***');
    echo = ECHOES['422 errors[].property and message']!;
    const v = await runMain(['employees', 'list', '-o', 'json'], { env });
    const doc = JSON.parse(v.stderr) as { error: { details: { field: string; message: string }[] } };
    expect(doc.error.details).toContainEqual({ field: 'header.***', message: 'must not be ***' });
  });
});
