// each API answer is capped while it is read. A server that
// streams hundreds of megabytes for one page gets RESPONSE_TOO_LARGE (naming
// the path and the limit, exit 1) once 16 MiB have arrived; the CLI closes the
// connection instead of reading on, and never holds the whole answer.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const HUGE = 400 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x20);
let server: Server;
let base: string;
let dir: ReturnType<typeof tempDir>;
/** Bytes handed to the socket for the last answer, and whether the client closed it before the end. */
let sent = 0;
let cutByClient = false;
let declareLength = false;

/** Streams HUGE bytes of JSON-ish padding with backpressure, stopping when the client goes away. */
function flood(res: ServerResponse): void {
  sent = 0;
  cutByClient = false;
  res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(HUGE + 2) } : {}) });
  res.write('{"data":[');
  res.on('close', () => {
    if (sent < HUGE) cutByClient = true;
  });
  const pump = () => {
    while (sent < HUGE && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(']}');
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/employees')) flood(res);
    else res.writeHead(404).end();
  });
  const serverAt = await listenOnLoopback(server);
  base = serverAt.url;
  dir = tempDir();
});

afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

describe('an API answer larger than the cap', () => {
  it.each([
    ['streamed without a length', false],
    ['declared with a 400 MB content-length', true],
  ])('%s: RESPONSE_TOO_LARGE naming the path and the limit, exit 1, the rest never read', async (_name, declared) => {
    declareLength = declared;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: 'tok-cap-test-0001' });
    const r = await runCli(['employees', 'list', '-o', 'json'], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } };
    expect(doc.error.code).toBe('RESPONSE_TOO_LARGE');
    expect(doc.error.message).toBe(`The response of GET ${base}/v1/employees is larger than 16777216 bytes; it was not read further`);
    expect(r.stdout).toBe('');
    // The connection was closed by the CLI, far before the end: what the server could hand over is
    // the cap plus what the socket buffers on both sides hold.
    expect(cutByClient).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('the same in text: one message, the hint, exit 1', async () => {
    declareLength = false;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: base, PARTNER_TOKEN: 'tok-cap-test-0001' });
    const r = await runCli(['employees', 'list', '--all', '-o', 'csv'], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^Error: The response of GET .*\/v1\/employees is larger than 16777216 bytes; it was not read further\n/);
    expect(r.stderr).toMatch(/check the base URL/);
  });
});
