// Secrets: a sweep of commands with --debug and recognisable tokens. The
// token never appears in stdout, stderr, error messages, the process's
// arguments, or any file under HOME (config, cache, drafts, temp) except the
// config file itself; config, draft and cache files are 0600 in 0700 dirs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, ROOT, spawnCli, tempDir, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let home: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let secrets: string[];
const BOGUS = 'sbx_bogus_S3CR3T_9d8c7b6a5f4e';
const ENTITY = 'Acme Deutschland GmbH';
const values = join(ROOT, 'test/fixtures/forms/deu-values.json');

const configDir = () => join(home.path, '.config', 'partner');
const cacheDir = () => join(home.path, '.cache', 'partner');
const configFile = () => join(configDir(), 'config.json');

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 45 });
  home = tempDir('partner-secrets-');
  // The real default locations under a private HOME (no PARTNER_CONFIG_DIR/PARTNER_CACHE_DIR), temp files there too.
  env = isolatedEnv(home.path, { PARTNER_CONFIG_DIR: undefined, PARTNER_CACHE_DIR: undefined, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, HOME: home.path, TMPDIR: home.path });
  // Every token the sandbox knows, a bogus one, and their distinctive tails.
  secrets = [sandbox.tokens.companyA, sandbox.tokens.companyB, sandbox.tokens.noPermission, BOGUS];
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

const transcript: { args: string; out: string }[] = [];

function expectNoSecret(text: string, where: string): void {
  for (const s of secrets) {
    expect(text.includes(s), `${where} contains a token`).toBe(false);
    expect(text.includes(s.slice(-12)), `${where} contains the end of a token`).toBe(false);
  }
}

async function run(args: string[], opts: { input?: string; extraEnv?: Record<string, string | undefined> } = {}): Promise<CliResult> {
  const r = await runMain(['--debug', ...args], { env: { ...env, ...opts.extraEnv }, input: opts.input });
  transcript.push({ args: args.join(' '), out: r.stdout + r.stderr });
  expectNoSecret(r.stdout, `stdout of ${args.join(' ')}`);
  expectNoSecret(r.stderr, `stderr of ${args.join(' ')}`);
  return r;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe('a sweep of commands with --debug never shows the token', () => {
  it('auth login --with-token saves it (0600 file, 0700 dir) without echoing it', async () => {
    // --insecure-storage: this sweep checks the one file that may hold the token (the keyring: keyring.test.ts).
    const r = await run(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { input: `${sandbox.tokens.companyA}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(configFile(), 'utf8')).toContain(sandbox.tokens.companyA);
    expect(mode(configFile())).toBe(0o600);
    expect(mode(configDir())).toBe(0o700);
  });

  it('the token cannot be given as a flag (it would land in shell history and ps)', async () => {
    const r = await run(['auth', 'login', '--token', sandbox.tokens.companyA]);
    expect(r.code).toBe(2);
  });

  it('employees list (one page, and --all as CSV): the debug log shows requests, not the token', async () => {
    const r = await run(['employees', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GET .*\/v1\/employees/);
    const all = await run(['employees', 'list', '--all', '-o', 'csv']);
    expect(all.code, all.stderr).toBe(0);
  });

  it('auth status (text and JSON)', async () => {
    const r = await run(['auth', 'status']);
    expect(r.code, r.stderr).toBe(0);
    const j = await run(['auth', 'status', '-o', 'json']);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toBeTypeOf('object');
  });

  it('webhook verify with the profile\'s key set (writes the key-set cache: 0600 in 0700)', async () => {
    const jws = await sandbox.signer.sign({ eventType: 'EMPLOYEE_CREATED', timestamp: '2025-03-01T09:30:00.000Z', data: { id: '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a', customerId: sandbox.companies.A.id, employeeCode: 'ACME-00001', status: 'ONBOARDING', type: 'EMPLOYEE', country: 'DEU' } });
    const r = await run(['webhook', 'verify', jws, '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const files = walk(cacheDir());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(mode(f), f).toBe(0o600);
    expect(mode(cacheDir())).toBe(0o700);
  });

  it('doctor (text and JSON)', async () => {
    const r = await run(['doctor', '-o', 'table']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const j = await run(['doctor', '-o', 'json']);
    expect(j.code, j.stdout + j.stderr).toBe(0);
  });

  it('gp create --dry-run', async () => {
    const r = await run(['gp', 'create', '--entity', ENTITY, '--from-file', values, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('gp create whose dynamic-details PATCH fails: the draft left behind is 0600 in a 0700 dir', async () => {
    sandbox.injectFault({ kind: '500', times: 1, method: 'PATCH', path: /dynamic-details$/ });
    const r = await run(['gp', 'create', '--entity', ENTITY, '--from-file', values, '--set', 'employment.workEmail=ada.secret.sweep@acme.example', '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const drafts = join(configDir(), 'drafts');
    const files = walk(drafts);
    expect(files.length, r.stderr).toBeGreaterThan(0);
    for (const f of files) expect(mode(f), f).toBe(0o600);
    expect(mode(drafts)).toBe(0o700);
  });

  it('errors: 401 (a bogus token), 403, 422, 500 — messages never carry the token', async () => {
    // -o table: the text error blocks (piped data commands report errors as JSON, )
    const e401 = await run(['employees', 'list', '-o', 'table'], { extraEnv: { PARTNER_TOKEN: BOGUS } });
    expect(e401.code, e401.stderr).toBe(3);
    expect(e401.stderr).toMatch(/HTTP 401/);
    const e403 = await run(['employees', 'list'], { extraEnv: { PARTNER_TOKEN: sandbox.tokens.noPermission } });
    expect(e403.code, e403.stderr).toBe(4);
    const e422 = await run(['gp', 'schema', '--entity', 'No Such Entity GmbH', '-o', 'table']);
    expect(e422.code, e422.stderr).toBe(7);
    expect(e422.stderr).toMatch(/HTTP 422/);
    // A 500 on the create POST (never retried, so no back-off to wait for).
    sandbox.injectFault({ kind: '500', times: 1, method: 'POST', path: '/v1/employees/gp-employments' });
    const e500 = await run(['gp', 'create', '--entity', ENTITY, '--from-file', values, '--set', 'employment.workEmail=ada.e500@acme.example', '-o', 'table']);
    expect(e500.code, e500.stderr).toBe(1);
    expect(e500.stderr).toMatch(/HTTP 500/);
  });

  it('proxy credentials are masked too (doctor shows the proxy in use)', async () => {
    const proxy = 'http://proxyuser:Pr0xyPa55w0rd@127.0.0.1:9';
    const extraEnv = { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, NO_PROXY: '' };
    for (const args of [['doctor', '-o', 'table'], ['doctor', '-o', 'json']]) {
      const r = await run(args, { extraEnv });
      // The sandbox is on loopback, reached directly whatever the proxy: doctor names the proxy, masked.
      expect(r.stdout).toContain('***:***@127.0.0.1:9');
      expect(r.stdout + r.stderr).not.toContain('Pr0xyPa55w0rd');
    }
  });

  it('a server whose error bodies echo the Authorization header: the token is redacted from the message', async () => {
    const { createServer } = await import('node:http');
    let mode = 0;
    const server = createServer((req, res) => {
      const auth = String(req.headers.authorization);
      if (mode === 0) res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'UNAUTHORIZED', message: `token ${auth} is not valid`, correlationId: auth, error: { details: [{ field: 'Authorization', message: auth }] } }));
      else if (mode === 1) res.writeHead(502, { 'content-type': 'text/html' }).end(`<html><body>Bad gateway for ${auth}</body></html>`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(`{"broken": "${auth}`);
    });
    const serverAt = await listenOnLoopback(server);
    const url = serverAt.url;
    try {
      for (mode = 0; mode < 3; mode++) {
        const r = await run(['employees', 'list', '-o', 'table'], { extraEnv: { PARTNER_BASE_URL: url, PARTNER_TOKEN: BOGUS } });
        expect(r.code, r.stderr).not.toBe(0);
        expect(r.stderr).toMatch(/^Error: /m);
      }
    } finally {
      await closeServer(server);
    }
  });

  it('the token is not in the process arguments of a running command', async () => {
    sandbox.setFaults({ latencyMs: 2000 });
    const running = spawnCli(['--debug', 'employees', 'list', '--all'], { env });
    try {
      await waitFor(() => sandbox.requests.some((q) => q.status === 0));
      const cmdline = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8');
      expect(cmdline).toContain('employees');
      expectNoSecret(cmdline, 'the process arguments');
    } finally {
      running.child.kill('SIGINT');
      await running.done;
      sandbox.setFaults({ latencyMs: 0 });
    }
  });

  it('auth logout forgets it', async () => {
    const r = await run(['auth', 'logout']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(configFile(), 'utf8')).not.toContain(sandbox.tokens.companyA);
  });

  it('no file under HOME holds a token, except the config file', () => {
    const files = walk(home.path).filter((f) => f !== configFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expectNoSecret(readFileSync(f, 'latin1'), f);
    // And the sweep really ran with the debug log on.
    expect(transcript.filter((t) => /GET /.test(t.out)).length).toBeGreaterThan(5);
  });
});
