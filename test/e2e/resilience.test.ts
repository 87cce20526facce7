import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { closedPort, listenOnLoopback, type Listening } from '../helpers/loopback-server.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 300, seed: 7 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});
beforeEach(() => sandbox.setFaults({ latencyMs: 0, failRate: 0, resetRate: 0, html502Rate: 0, retryAfterSeconds: 0 }));

describe('server faults', () => {
  it('returns every employee exactly once through latency, 20% 503s, 5% dropped connections and HTML 502s', async () => {
    sandbox.setFaults({ latencyMs: 5, failRate: 0.2, resetRate: 0.05, html502Rate: 0.03, retryAfterSeconds: 0 });
    const before = sandbox.requests.length;
    // One page at a time keeps the seeded fault schedule reproducible run to run.
    const r = await runMain(['employees', 'list', '--all', '--page-size', '20', '--concurrency', '1', '-o', 'ndjson'], { env, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split('\n').map((l) => JSON.parse(l).id as string);
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    // The faults really happened: more requests than pages.
    expect(sandbox.requests.length - before).toBeGreaterThan(15);
  });

  it('exits 1 with a clear message, in bounded time, when the server stays down', async () => {
    sandbox.setFaults({ failRate: 1, retryAfterSeconds: 0 });
    const started = Date.now();
    // -o table: the text error block (piped data commands report errors as JSON, )
    const r = await runMain(['employees', 'list', '--all', '-o', 'table'], { env, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/upstream dependency error|Service|unavailable/i);
    expect(r.stderr).toMatch(/HTTP 503/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('a refused connection is a network error (exit 1) naming what to check', async () => {
    // A loopback port nothing listens on (port 9, "discard", may have a listener on a CI host).
    const port = await closedPort();
    const r = await runMain(['employees', 'list'], { env: { ...env, PARTNER_BASE_URL: `http://127.0.0.1:${port}` }, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Could not reach GET http://127.0.0.1:${port}/v1/employees: ECONNREFUSED`);
    expect(r.stderr).toMatch(/proxy/);
  });
});

describe('Ctrl-C', () => {
  it('stops a long export within a second and exits 130', async () => {
    sandbox.setFaults({ latencyMs: 3000 });
    const run = spawnCli(['--debug', 'employees', 'list', '--all', '--page-size', '10'], { env });
    await waitFor(() => sandbox.requests.some((r) => r.status === 0));
    const t0 = Date.now();
    run.child.kill('SIGINT');
    const r = await run.done;
    // Far below the 3 s the pending response would take: the request was aborted.
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted/);
  });
});

describe('a closed pipe (`partner … | head`)', () => {
  it('stops quietly with exit 0 when stdout is closed early', async () => {
    const run = spawnCli(['employees', 'list', '--all', '--page-size', '5', '-o', 'ndjson'], { env });
    await waitFor(() => run.stdout().length > 0);
    run.child.stdout!.destroy();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('proxies', () => {
  let listening: Listening;
  let proxyUrl: string;
  const proxied: string[] = [];
  beforeAll(async () => {
    // A minimal forward proxy for plain-http absolute-form requests.
    const proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    // CONNECT tunnels (what an https base URL goes through).
    proxy.on('connect', (req, socket, head) => {
      proxied.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(':');
      const upstream = connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      // As a real proxy does when it cannot reach the host: a 502 for the CONNECT (PROXY_REFUSED).
      upstream.on('error', () => (socket.writable ? socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : socket.destroy()));
      socket.on('error', () => upstream.destroy());
    });
    listening = await listenOnLoopback(proxy);
    proxyUrl = listening.url;
  });
  afterAll(() => listening.close());

  it('goes through HTTPS_PROXY, and around it for NO_PROXY hosts (a loopback base URL never goes through it: proxy-loopback.test.ts)', async () => {
    // A host that is not loopback (loopback is always reached directly); it resolves nowhere, so the
    // tunnel fails after the proxy was asked for it: the CONNECT is what is checked.
    const remote = { ...env, PARTNER_BASE_URL: 'https://api.partner.invalid' };
    const r = await runCli(['employees', 'list', '--page-size', '2', '--timeout', '5'], { env: { ...remote, HTTPS_PROXY: proxyUrl, NO_PROXY: '' } });
    expect(r.code, r.stderr).toBe(1);
    expect(proxied).toContain('CONNECT api.partner.invalid:443');
    const count = proxied.length;
    const direct = await runCli(['employees', 'list', '--page-size', '2', '--timeout', '5'], { env: { ...remote, HTTPS_PROXY: proxyUrl, NO_PROXY: 'api.partner.invalid' } });
    expect(direct.code).toBe(1);
    expect(direct.stderr).toMatch(/Could not reach GET https:\/\/api\.partner\.invalid/);
    expect(proxied.length).toBe(count);
  });
});
