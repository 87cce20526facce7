import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { DOWN, ENTER, hasScript, Pty } from '../helpers/pty.js';

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
    // --insecure-storage: the file's 0600 storage (no keyring in this environment; the keyring: keyring.test.ts).
    const r = await runMain(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: `${sandbox.tokens.companyA}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Logged in: profile "default"/);
    // Which profile is now active, and whose token it is (customerName of the first employee).
    expect(r.stderr).toMatch(/Active profile is now "default"; the token belongs to Acme Corporation\./);
    expect(r.stdout + r.stderr).not.toContain(sandbox.tokens.companyA);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir.path, 'config')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.default).toEqual({ baseUrl: sandbox.url, token: sandbox.tokens.companyA });

    const list = await runMain(['employees', 'list', '-o', 'json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).pagination.totalItems).toBeGreaterThan(0);
  });

  it('status shows the profile, the masked token and its source, and checks it', async () => {
    const r = await runMain(['auth', 'status', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ profile: 'default', baseUrl: sandbox.url, baseUrlSource: 'profile', tokenSource: 'profile', check: 'token accepted' });
    expect(s.token).toBe(`••••${sandbox.tokens.companyA.slice(-4)}`);
    // A table only when asked for: piped, auth status prints JSON like every command.
    const fromEnv = await runMain(['auth', 'status', '-o', 'table'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.companyB } });
    // human labels; the source in words.
    expect(fromEnv.stdout).toMatch(/^ +Token +••••\S{4} \(from PARTNER_TOKEN\)$/m);
    expect(fromEnv.stdout).not.toContain(sandbox.tokens.companyB);
  });

  it('status exits 3 when the token is refused', async () => {
    const r = await runMain(['auth', 'status'], { env: { ...env, PARTNER_TOKEN: 'expired-token-123456' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/refused: HTTP 401/);
  });

  it('login refuses a token the server rejects and saves nothing', async () => {
    const r = await runMain(['--profile', 'bad', 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: 'nope-nope-nope\n' });
    expect(r.code).toBe(3);
    expect(readFileSync(configFile(), 'utf8')).not.toContain('nope-nope-nope');
  });

  it('login without a terminal and without --with-token says how to pipe the token', async () => {
    const r = await runMain(['auth', 'login', '--base-url', sandbox.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
  });

  it('login rejects an empty token and a non-https base URL', async () => {
    // --insecure-storage: no keyring runs here, and login asks it first (before reading the token).
    expect((await runMain(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: '  \n' })).code).toBe(2);
    const r = await runMain(['auth', 'login', '--base-url', 'http://example.com', '--with-token'], { env, input: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/only https/);
  });

  it('logout removes the profile and its token', async () => {
    const r = await runMain(['auth', 'logout'], { env });
    expect(r.code).toBe(0);
    expect(readFileSync(configFile(), 'utf8')).not.toContain(sandbox.tokens.companyA);
    const after = await runMain(['employees', 'list'], { env });
    expect(after.code).toBe(3);
  });
});

describe('profiles you can see and switch', () => {
  let pdir: ReturnType<typeof tempDir>;
  let penv: NodeJS.ProcessEnv;
  const login = (profile: string, token: string) => runMain(['--profile', profile, 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env: penv, input: `${token}\n` });

  beforeAll(async () => {
    pdir = tempDir();
    penv = isolatedEnv(pdir.path);
    expect((await login('default', sandbox.tokens.companyA)).code).toBe(0);
    expect((await login('staging', sandbox.tokens.companyB)).code).toBe(0);
  });
  afterAll(() => pdir.cleanup());

  it('auth status lists every profile, the active one marked and checked, the others masked and not checked', async () => {
    const before = sandbox.requests.length;
    const r = await runMain(['auth', 'status', '-o', 'table'], { env: penv });
    expect(r.code, r.stderr).toBe(0);
    // The last login made "staging" active.
    expect(r.stdout).toMatch(/^\* staging \(active\)\n +Base URL +http:\/\/127\.0\.0\.1:\d+ \(from the config file\)\n +Token +••••\S{4} \(from the config file\)\n +Check +token accepted\n/);
    expect(r.stdout).toMatch(/^ {2}default\n +Base URL +http:\/\/127\.0\.0\.1:\d+\n +Token +••••\S{4} \(from the config file\)\n +Check +not checked \(--all checks every profile\)\n/m);
    for (const t of [sandbox.tokens.companyA, sandbox.tokens.companyB]) {
      expect(r.stdout).toContain(`••••${t.slice(-4)}`);
      expect(r.stdout + r.stderr).not.toContain(t);
    }
    expect(sandbox.requests.length - before).toBe(1);
  });

  it('auth status --all checks every profile (JSON: one entry per profile)', async () => {
    const before = sandbox.requests.length;
    const r = await runMain(['auth', 'status', '--all', '-o', 'json'], { env: penv });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { profile: string; profiles: { name: string; active: boolean; check: string; company?: string }[] };
    expect(s.profile).toBe('staging');
    expect(s.profiles.map((p) => [p.name, p.active, p.check])).toEqual([
      ['staging', true, 'token accepted'],
      ['default', false, 'token accepted'],
    ]);
    expect(s.profiles.find((p) => p.name === 'default')!.company).toBe('Acme Corporation');
    expect(sandbox.requests.length - before).toBe(2);
  });

  it('auth switch NAME makes it active; PARTNER_PROFILE still wins, with a warning', async () => {
    const r = await runMain(['auth', 'switch', 'default'], { env: penv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Active profile: "default" \(http:\/\/127\.0\.0\.1:\d+\)\.$/m);
    const status = JSON.parse((await runMain(['auth', 'status', '-o', 'json'], { env: penv })).stdout) as { profile: string; profileSource: string };
    expect(status).toMatchObject({ profile: 'default', profileSource: 'profile' });
    const warned = await runMain(['auth', 'switch', 'staging'], { env: { ...penv, PARTNER_PROFILE: 'default' } });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/PARTNER_PROFILE=default is set and wins/);
    expect((await runMain(['auth', 'switch', 'default'], { env: penv })).code).toBe(0);
  });

  it('auth switch to an unknown profile is a usage error (exit 2) naming the saved ones, not "not authenticated"', async () => {
    const r = await runMain(['auth', 'switch', 'nope'], { env: penv });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^Error: No profile "nope"; known: default, staging\n/);
    expect(r.stderr).toMatch(/Run `partner auth switch --help` for usage\./);
    expect(r.stderr).not.toMatch(/Not logged in|not authenticated/i);
    expect(JSON.parse(readFileSync(join(pdir.path, 'config', 'config.json'), 'utf8')).activeProfile).toBe('default');
    // No name and no terminal to ask on: exit 2, naming them too.
    const bare = await runMain(['auth', 'switch'], { env: penv });
    expect(bare.code, bare.stderr).toBe(2);
    expect(bare.stderr).toMatch(/^Error: auth switch needs a profile name; known: default, staging\n/);
  });

  it.skipIf(!hasScript)('auth switch with no name on a terminal offers the saved profiles to pick from (80 columns)', async () => {
    const pty = new Pty(['auth', 'switch'], penv, { columns: 80, rows: 24 });
    try {
      await pty.expect(/Profile to use/);
      await pty.expect(/default \(active\)/);
      await pty.expect(/staging/);
      pty.send(DOWN);
      await new Promise((r) => setTimeout(r, 50));
      pty.send(ENTER);
      expect(await pty.done).toBe(0);
      expect(pty.out).toMatch(/Active profile: "staging" \(http:\/\/127\.0\.0\.1:\d+\)\./);
      expect(JSON.parse(readFileSync(join(pdir.path, 'config', 'config.json'), 'utf8')).activeProfile).toBe('staging');
    } finally {
      pty.kill();
    }
    expect((await runMain(['auth', 'switch', 'default'], { env: penv })).code).toBe(0);
  });

  it('an unknown profile names the known ones (exit 3): --profile and PARTNER_PROFILE; nothing sent', async () => {
    const before = sandbox.requests.length;
    for (const [args, extra] of [
      [['--profile', 'nope', 'employees', 'list', '-o', 'table'], {}],
      [['employees', 'list', '-o', 'table'], { PARTNER_PROFILE: 'nope' }],
    ] as const) {
      const r = await runMain([...args], { env: { ...penv, ...extra } });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^Error: No profile "nope"( \(PARTNER_PROFILE\))?; known: default, staging\n/);
      expect(r.stderr).not.toMatch(/Not logged in/);
    }
    expect(sandbox.requests.length).toBe(before);
    // The active profile did not change.
    expect(JSON.parse(readFileSync(join(pdir.path, 'config', 'config.json'), 'utf8')).activeProfile).toBe('default');
  });

  it('with no saved profile at all, says so and how to create one', async () => {
    const empty = tempDir();
    try {
      const r = await runMain(['--profile', 'nope', 'employees', 'list', '-o', 'table'], { env: isolatedEnv(empty.path) });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^Error: No profile "nope"; no profiles are saved yet\nCreate it with `partner --profile nope auth login --base-url URL`\./);
    } finally {
      empty.cleanup();
    }
  });
});
