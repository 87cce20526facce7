// How `employees list --all` uses its connections: never more requests in
// flight than --concurrency, each kept alive and reused. A direct connection
// goes through node:http (api/node-transport.ts), which hands a kept
// connection to the next request as soon as an answer is in: no more
// connections than requests in flight (through a proxy too: the same
// transport).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const TOTAL = 200;
const SIZE = 10;
const PAGES = TOTAL / SIZE;
const uuid = (i: number) => `c0ec0000-0000-4000-8000-${String(i).padStart(12, '0')}`;

let server: Server;
let url: string;
let dir: { path: string; cleanup: () => void };
const connections = new Set<string>();
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  dir = tempDir();
  server = createServer((req, res) => {
    connections.add(`${req.socket.remotePort}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
    const data = Array.from({ length: SIZE }, (_, k) => ({ id: uuid((page - 1) * SIZE + k + 1), employeeCode: `E-${(page - 1) * SIZE + k + 1}` }));
    const body = JSON.stringify({ data, pagination: { currentPage: page, pageSize: SIZE, totalPages: PAGES, totalItems: TOTAL, hasNextPage: page < PAGES } });
    // Latency, so that the window fills: every request after the first waits for a slot.
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, 30);
  });
  const serverAt = await listenOnLoopback(server);
  url = serverAt.url;
});

afterAll(async () => {
  await new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  dir?.cleanup();
});

it('keeps --concurrency requests in flight over as many kept connections', async () => {
  const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: 'test-token-1234' });
  const r = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--page-size', String(SIZE), '--concurrency', '4'], { env, timeoutMs: 30_000 });
  expect(r.code).toBe(0);
  expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(TOTAL);
  expect(maxInFlight).toBe(4);
  expect(connections.size).toBe(4);
});
