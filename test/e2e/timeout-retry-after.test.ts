// --timeout bounds every wait, rate-limit retries included. A
// 429 whose Retry-After asks for more than --timeout fails at once, saying
// when the server asked to come back (before: four 60 s waits, 241 s).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

let server: Server;
let base: string;
let dir: ReturnType<typeof tempDir>;
let retryAfter = '';
let requests = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
    res.end(JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests' }));
  });
  const serverAt = await listenOnLoopback(server);
  base = serverAt.url;
  dir = tempDir();
});

afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

describe('a Retry-After past --timeout', () => {
  it.each([
    ['1000000000', /come back in 1000000000 s \(at \d{4}-/],
    ['Fri, 01 Jan 2999 00:00:00 GMT', /come back in \d+ s \(at 2999-01-01T00:00:00Z\)/],
  ])('Retry-After: %s with --timeout 5: exit 1 at once, one request, when to come back', async (value, when) => {
    retryAfter = value;
    requests = 0;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: 'tok-retry-after-01' });
    // The spawn's own limit (15 s) is far below what the old policy took (241 s).
    const r = await runMain(['employees', 'list', '--all', '-o', 'csv', '--timeout', '5'], { env, timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^Error: Too many requests; the server asked to come back in /);
    expect(r.stderr).toMatch(when);
    expect(r.stderr).toMatch(/later than --timeout 5 s allows/);
    expect(requests).toBe(1);
  });
});
