import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
const configFile = () => join(dir.path, 'config', 'config.json');

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
  env = isolatedEnv(dir.path);
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('auth', () => {
  it('login reads the token from stdin, checks it, and stores it 0600 in a 0700 dir', async () => {
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token'], { env, input: `${sandbox.tokens.companyA}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Logged in: profile "default"/);
    expect(r.stdout + r.stderr).not.toContain(sandbox.tokens.companyA);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir.path, 'config')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.default).toEqual({ baseUrl: sandbox.url, token: sandbox.tokens.companyA });

    const list = await runCli(['employees', 'list', '-o', 'json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).pagination.totalItems).toBeGreaterThan(0);
  });

  it('status shows the profile, the masked token and its source, and checks it', async () => {
    const r = await runCli(['auth', 'status', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ profile: 'default', baseUrl: sandbox.url, baseUrlSource: 'profile', tokenSource: 'profile', check: 'token accepted' });
    expect(s.token).toBe(`••••${sandbox.tokens.companyA.slice(-4)}`);
    // A table only when asked for: piped, auth status prints JSON like every command (issue 11).
    const fromEnv = await runCli(['auth', 'status', '-o', 'table'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.companyB } });
    expect(fromEnv.stdout).toMatch(/tokenSource +env/);
    expect(fromEnv.stdout).not.toContain(sandbox.tokens.companyB);
  });

  it('status exits 3 when the token is refused', async () => {
    const r = await runCli(['auth', 'status'], { env: { ...env, PARTNER_TOKEN: 'expired-token-123456' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/refused: HTTP 401/);
  });

  it('login refuses a token the server rejects and saves nothing', async () => {
    const r = await runCli(['--profile', 'bad', 'auth', 'login', '--base-url', sandbox.url, '--with-token'], { env, input: 'nope-nope-nope\n' });
    expect(r.code).toBe(3);
    expect(readFileSync(configFile(), 'utf8')).not.toContain('nope-nope-nope');
  });

  it('login without a terminal and without --with-token says how to pipe the token', async () => {
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
  });

  it('login rejects an empty token and a non-https base URL', async () => {
    expect((await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token'], { env, input: '  \n' })).code).toBe(2);
    const r = await runCli(['auth', 'login', '--base-url', 'http://example.com', '--with-token'], { env, input: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/only https/);
  });

  it('logout removes the profile and its token', async () => {
    const r = await runCli(['auth', 'logout'], { env });
    expect(r.code).toBe(0);
    expect(readFileSync(configFile(), 'utf8')).not.toContain(sandbox.tokens.companyA);
    const after = await runCli(['employees', 'list'], { env });
    expect(after.code).toBe(3);
  });
});
