// `partner doctor` against a server that echoes the first 40 characters of
// the token (and its base64): nothing printed carries 8+ characters of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { MIN_SECRET_RUN, secretForms } from '../../src/api/redact.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const TOKEN = 'pk_live_7Hq2Zx9WmR4tLc8VbN3sKd6YfJ1gPa5EuQ0oXi';
let server: Server;
let url: string;
const dir = tempDir();

beforeAll(async () => {
  server = createServer((req, res) => {
    const auth = String(req.headers.authorization ?? '').slice('Bearer '.length);
    res.writeHead(401, { 'content-type': 'application/json', date: new Date().toUTCString() });
    res.end(JSON.stringify({ error: 'UNAUTHORIZED', message: `unknown token ${auth.slice(0, 40)} / ${auth.toUpperCase().slice(0, 20)} / ${Buffer.from(`x:${auth}`).toString('base64')}` }));
  });
  const serverAt = await listenOnLoopback(server);
  url = serverAt.url;
});
afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

describe('doctor never prints an echo of the token', () => {
  it('table and json output: the refused-token check shows the masked tail only', async () => {
    for (const args of [['doctor'], ['doctor', '-o', 'json']]) {
      const r = await runMain(args, { env: isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: TOKEN }) });
      const all = r.stdout + r.stderr;
      expect(r.code).toBe(3);
      expect(all).toMatch(/unknown token \*\*\*/);
      for (const f of secretForms(TOKEN)) for (let i = 0; i + MIN_SECRET_RUN <= f.length; i++) expect(all).not.toContain(f.slice(i, i + MIN_SECRET_RUN));
    }
  });
});
