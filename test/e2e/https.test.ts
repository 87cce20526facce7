// An https base URL (the real API's): the request goes through node:https
// (api/node-transport.ts), verified against the system's CAs and
// NODE_EXTRA_CA_CERTS. A certificate that is not trusted stops the request
// before anything is sent, the token included, and the error says so.
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const CERT = join(ROOT, 'test', 'fixtures', 'tls', 'localhost.crt');
const TOKEN = 'tls-test-token-123456';
const PAGE = { data: [{ id: '0e1f0000-0000-4000-8000-000000000001', employeeCode: 'E-1', fullName: 'Ada Lovelace' }], pagination: { currentPage: 1, pageSize: 20, totalPages: 1, totalItems: 1, hasNextPage: false } };

let server: Server;
let url: string;
let dir: { path: string; cleanup: () => void };
const seen: { authorization?: string; url?: string }[] = [];
let handshakes = 0;

beforeAll(async () => {
  dir = tempDir();
  server = createServer({ key: readFileSync(join(ROOT, 'test', 'fixtures', 'tls', 'localhost.key')), cert: readFileSync(CERT) }, (req, res) => {
    seen.push({ authorization: req.headers.authorization, url: req.url });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PAGE));
  });
  server.on('secureConnection', () => handshakes++);
  url = (await listenOnLoopback(server, 'https')).url;
});

afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

describe('an https base URL', () => {
  it('with its certificate trusted (NODE_EXTRA_CA_CERTS): the page, over one TLS connection, the token sent', async () => {
    seen.length = 0;
    handshakes = 0;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: CERT });
    const r = await runCli(['employees', 'list', '-o', 'json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual(PAGE.data);
    expect(seen).toEqual([{ authorization: `Bearer ${TOKEN}`, url: '/v1/employees' }]);
    expect(handshakes).toBe(1);
  });

  it('with a certificate nothing trusts: exit 1, the certificate named as the cause, nothing sent', async () => {
    seen.length = 0;
    const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: TOKEN });
    const r = await runCli(['employees', 'list', '-o', 'table'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`The TLS certificate of ${url.replace(/\./g, '\\.')} is not trusted \\(DEPTH_ZERO_SELF_SIGNED_CERT\\); nothing was sent`));
    expect(r.stderr).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(r.stderr).not.toContain(TOKEN.slice(-8));
    expect(seen).toEqual([]);
  });
});
