// Tokens in the operating system's keyring, end to end
// against the built CLI: a real Secret Service (gnome-keyring on a private
// D-Bus session, its collection unlocked from the test, or left locked), a
// session bus that never answers, no D-Bus at all, --insecure-storage, and a
// profile saved in the config file before the keyring. Every case checks what
// the keyring and the config file hold afterwards, not only what was printed.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { expectCode, isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { INSTALL_HINT, missingSecretServiceTools, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { closeServer } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir('partner-keyring-');
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

/** A fresh directory per test: config, cache, and the keyring's home. */
function fresh(): string {
  const sub = join(dir.path, `t${n++}`);
  mkdirSync(sub);
  return sub;
}
const configFile = (d: string) => join(d, 'config', 'config.json');
const readConfig = (d: string) => JSON.parse(readFileSync(configFile(d), 'utf8')) as { activeProfile?: string; profiles: Record<string, Record<string, string>> };
const login = (env: NodeJS.ProcessEnv, token: string, ...more: string[]) => runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token', ...more], { env, input: `${token}\n`, timeoutMs: 40_000 });

const missing = missingSecretServiceTools();
if (missing.length) console.warn(`keyring e2e tests skipped: ${missing.join(', ')} not found; ${INSTALL_HINT}`);

// Each test spawns up to a dozen CLI processes and two daemons: more than the default 30 s on a loaded machine.
describe.skipIf(missing.length > 0)(`with a Secret Service (gnome-keyring on a private D-Bus session; ${INSTALL_HINT})`, { timeout: 180_000 }, () => {
  let ss: SecretService;
  let d: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    d = fresh();
    ss = await startSecretService(join(d, 'keyring'));
    env = isolatedEnv(d, ss.env);
  });
  afterEach(async () => {
    await ss.stop();
  });

  it('login stores the token in the keyring and in no file; a fresh process uses it; status, token, logout', async () => {
    const token = sandbox.tokens.companyA;
    expect(ss.items()).toEqual([]);
    const r = await login(env, token);
    expectCode(r, 0);
    expect(r.stderr).toMatch(/Logged in: profile "default" → http:\/\/127\.0\.0\.1:\d+ \(token in the system keyring/);
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(ss.items()).toHaveLength(1);
    // The config file has the profile and where its token is, never the token.
    expect(readConfig(d).profiles.default).toEqual({ baseUrl: sandbox.url, tokenStorage: 'keyring' });
    expect(readFileSync(configFile(d), 'utf8')).not.toContain(token);

    // A fresh process: the token comes from the keyring, and the sandbox accepts it.
    const list = await runCli(['employees', 'list', '-o', 'json'], { env });
    expectCode(list, 0);
    expect(JSON.parse(list.stdout).pagination.totalItems).toBeGreaterThan(0);
    // The sandbox answers 401 to any other token.
    expect(sandbox.requests.at(-1)).toMatchObject({ path: '/v1/employees', authorization: true, status: 200 });

    const status = await runCli(['auth', 'status', '-o', 'json'], { env });
    expectCode(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', tokenStorage: 'keyring', token: `••••${token.slice(-4)}`, check: 'token accepted' });
    const table = await runCli(['auth', 'status', '-o', 'table'], { env });
    expect(table.stdout).toMatch(/^ +Token +••••\S{4} \(from the system keyring\)$/m);

    const printed = await runCli(['auth', 'token'], { env });
    expectCode(printed, 0);
    expect(printed.stdout).toBe(`${token}\n`);
    expect(printed.stderr).toBe('');

    const out = await runCli(['auth', 'logout'], { env });
    expectCode(out, 0);
    expect(out.stderr).toMatch(/Logged out: profile "default" and its token \(from the system keyring\) were removed/);
    expect(ss.items()).toEqual([]);
    expect(readConfig(d).profiles).toEqual({});
    const none = await runCli(['auth', 'token'], { env });
    expect(none.code).toBe(3);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/No token for profile "default"/);
  });

  it('a profile saved in the config file before the keyring keeps working; `auth token | auth login --with-token` moves it into the keyring', async () => {
    const token = sandbox.tokens.companyB;
    mkdirSync(join(d, 'config'), { mode: 0o700 });
    writeFileSync(configFile(d), JSON.stringify({ activeProfile: 'old', profiles: { old: { baseUrl: sandbox.url, token } } }, null, '\t'), { mode: 0o600 });
    const list = await runCli(['employees', 'list', '-o', 'json'], { env });
    expectCode(list, 0);
    const status = await runCli(['auth', 'status', '-o', 'json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'old', tokenStorage: 'file', check: 'token accepted' });
    expect(ss.items()).toEqual([]);

    const printed = await runCli(['auth', 'token'], { env });
    expect(printed.stdout).toBe(`${token}\n`);
    const moved = await runCli(['auth', 'login', '--with-token'], { env, input: printed.stdout, timeoutMs: 40_000 });
    expectCode(moved, 0);
    expect(ss.items()).toHaveLength(1);
    expect(readConfig(d).profiles.old).toEqual({ baseUrl: sandbox.url, tokenStorage: 'keyring' });
    expect(readFileSync(configFile(d), 'utf8')).not.toContain(token);
    expect((await runCli(['auth', 'token'], { env })).stdout).toBe(`${token}\n`);
  });

  it('status names where each profile keeps its token: keyring, file, environment', async () => {
    expectCode(await login(env, sandbox.tokens.companyA), 0);
    expectCode(await runCli(['--profile', 'plain', 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: `${sandbox.tokens.companyB}\n` }), 0);
    const s = JSON.parse((await runCli(['auth', 'status', '-o', 'json', '--all'], { env })).stdout) as { profiles: { name: string; tokenStorage: string; check: string }[] };
    expect(s.profiles.map((p) => [p.name, p.tokenStorage, p.check])).toEqual([
      ['plain', 'file', 'token accepted'],
      ['default', 'keyring', 'token accepted'],
    ]);
    const fromEnv = JSON.parse((await runCli(['auth', 'status', '-o', 'json'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.companyA } })).stdout);
    expect(fromEnv).toMatchObject({ profile: 'plain', tokenStorage: 'environment' });
    // --insecure-storage over a keyring profile takes its entry out of the keyring.
    expectCode(await runCli(['--profile', 'default', 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage', '--no-verify'], { env, input: `${sandbox.tokens.companyA}\n` }), 0);
    expect(ss.items()).toEqual([]);
  });

  it('a locked collection: login refuses and saves nothing; a saved profile says the keyring is locked; doctor fails the keyring check', async () => {
    expectCode(await login(env, sandbox.tokens.companyA), 0);
    await ss.stopKeyring();
    await ss.startKeyring(); // no password: the "login" collection stays locked, and no prompt can be shown
    const before = readFileSync(configFile(d), 'utf8');

    const requests = sandbox.requests.length;
    const r = await runCli(['--profile', 'other', 'auth', 'login', '--base-url', sandbox.url, '--with-token'], { env, input: `${sandbox.tokens.companyB}\n`, timeoutMs: 40_000 });
    expect(r.code).toBe(1);
    // Found out before the token is checked, and said in partner's words; D-Bus's own text only with --debug.
    expect(r.stderr).toMatch(/Cannot store tokens in the system keyring: the keyring is locked, and no unlock prompt could be shown/);
    expect(r.stderr).toMatch(/gnome-keyring-daemon --unlock/);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(r.stderr).toMatch(/Nothing was asked for or saved/);
    expect(r.stderr).not.toMatch(/dismissed|Platform failure|DBus/i);
    expect(sandbox.requests.length).toBe(requests);
    expect(readFileSync(configFile(d), 'utf8')).toBe(before);
    const debug = await runCli(['--debug', '--profile', 'other', 'auth', 'login', '--base-url', sandbox.url, '--with-token'], { env, input: `${sandbox.tokens.companyB}\n`, timeoutMs: 40_000 });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/KeyringError: \S/);

    const list = await runCli(['employees', 'list', '-o', 'table'], { env, timeoutMs: 40_000 });
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/Cannot read the token of profile "default" from the system keyring/);
    expect(list.stderr).not.toMatch(/Not logged in|Could not reach/);

    const doctor = await runCli(['doctor', '-o', 'json'], { env, timeoutMs: 40_000 });
    const keyring = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'keyring');
    expect(keyring).toMatchObject({ status: 'fail', message: expect.stringMatching(/Cannot read the token of profile "default" from the system keyring/) });
    expect(doctor.code).toBe(1);
  });

  it('doctor: a keyring profile read from the keyring is OK; no saved token and a reachable keyring is OK', async () => {
    const empty = JSON.parse((await runCli(['doctor', '-o', 'json'], { env })).stdout);
    expect(empty.checks.find((c: { name: string }) => c.name === 'keyring')).toMatchObject({ status: 'ok', details: { storage: 'none', keyringReachable: true } });
    expectCode(await login(env, sandbox.tokens.companyA), 0);
    const r = await runCli(['doctor', '-o', 'json'], { env });
    expectCode(r, 0);
    expect(JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'keyring')).toMatchObject({ status: 'ok', message: expect.stringMatching(/kept in the system keyring, and was read from it/) });
    // The token's line names the store auth status names.
    const table = await runCli(['doctor', '-o', 'table'], { env });
    expect(table.stdout).toMatch(/^OK\s+token\s+••••\S{4} \(from the system keyring\), accepted/m);
    expect((await runCli(['auth', 'status', '-o', 'table'], { env })).stdout).toMatch(/^ +Token +••••\S{4} \(from the system keyring\)$/m);
  });

  it('logout of a profile whose keyring is gone: the profile is removed, and the warning says the token may remain there and how to delete it', async () => {
    expectCode(await login(env, sandbox.tokens.companyA), 0);
    await ss.stop(); // the bus and the keyring with it
    const r = await runCli(['auth', 'logout'], { env, timeoutMs: 40_000 });
    expectCode(r, 0);
    expect(r.stderr).toMatch(/Logged out: profile "default" was removed\./);
    expect(r.stderr).toMatch(/warning: The token of profile "default" may remain in the system keyring: it could not be deleted \(the D-Bus session bus that DBUS_SESSION_BUS_ADDRESS names is no longer running/);
    expect(r.stderr).toMatch(/secret-tool clear service 'partner:[^']+' username 'default'/);
    expect(r.stderr).not.toMatch(/Platform failure|DBus error/);
    expect(readConfig(d).profiles).toEqual({});
    // The same keyring started again: the entry is there, under the attributes the warning names.
    rmSync(join(d, 'keyring', 'run', 'bus'), { force: true }); // the killed bus's socket
    ss = await startSecretService(join(d, 'keyring'));
    const items = ss.items();
    expect(items).toHaveLength(1);
    expect(ss.attributes(items[0]!)).toMatchObject({ service: `partner:${join(d, 'config')}`, username: 'default' });
  });

  it("another company's token over a keyring profile, with the config file unwritable: exit 1 and the keyring still holds the old token", async () => {
    expectCode(await login(env, sandbox.tokens.companyA), 0);
    const before = readFileSync(configFile(d), 'utf8');
    // The config file's lock cannot be taken (a directory in its place): the config write fails after the keyring's.
    mkdirSync(`${configFile(d)}.lock`);
    const r = await runCli(['auth', 'login', '--base-url', `${sandbox.url}/`, '--with-token', '--no-verify'], { env, input: `${sandbox.tokens.companyB}\n`, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot (change|lock) the config file/);
    expect(readFileSync(configFile(d), 'utf8')).toBe(before);
    const token = await runCli(['auth', 'token'], { env });
    expect(token.stdout).toBe(`${sandbox.tokens.companyA}\n`);
    expect(ss.items()).toHaveLength(1);
  });
});

describe('without a keyring', { timeout: 120_000 }, () => {
  it('no D-Bus at all: login refuses, exit 1, and writes nothing; --insecure-storage keeps the token in a 0600 file', async () => {
    const d = fresh();
    const env = isolatedEnv(d);
    const r = await login(env, sandbox.tokens.companyA);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot store tokens in the system keyring: no D-Bus session bus is running here \(DBUS_SESSION_BUS_ADDRESS is not set\)/);
    expect(r.stderr).toMatch(/dbus-run-session -- sh/);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(r.stderr).not.toMatch(/X11|autolaunch|Platform failure/);
    expect(existsSync(join(d, 'config'))).toBe(false);

    const ok = await login(env, sandbox.tokens.companyA, '--insecure-storage');
    expectCode(ok, 0);
    expect(ok.stderr).toMatch(/token in .*config\.json, mode 0600/);
    expect(statSync(configFile(d)).mode & 0o777).toBe(0o600);
    expect(readConfig(d).profiles.default).toEqual({ baseUrl: sandbox.url, token: sandbox.tokens.companyA });
    expectCode(await runCli(['employees', 'list', '-o', 'json'], { env }), 0);
    // doctor: the token is in the file, and no keyring can be reached: a warning, not a failure.
    const doc = JSON.parse((await runCli(['doctor', '-o', 'json'], { env })).stdout);
    expect(doc.checks.find((c: { name: string }) => c.name === 'keyring')).toMatchObject({ status: 'warn', details: { storage: 'file', keyringReachable: false } });
  });

  describe('a session bus that never answers (an unlock prompt nobody answers)', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    let address = '';
    beforeAll(async () => {
      // A raw server on a Unix socket (a bus address is a path, not a port): not the HTTP fixture, closed as it closes.
      const sock = join(fresh(), 'bus');
      server = createServer((s) => {
        sockets.add(s);
        s.on('data', () => undefined);
      });
      await new Promise<void>((resolve) => server.listen(sock, resolve));
      address = `unix:path=${sock}`;
    });
    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await closeServer(server);
    });

    it('login gives up within the time limit, says so, exit 1, nothing saved; PARTNER_TOKEN needs no keyring', async () => {
      const d = fresh();
      const env = isolatedEnv(d, { DBUS_SESSION_BUS_ADDRESS: address });
      const started = Date.now();
      const r = await login(env, sandbox.tokens.companyA);
      const took = Date.now() - started;
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/Cannot store tokens in the system keyring: the keyring did not answer within 10 s/);
      expect(took).toBeGreaterThanOrEqual(10_000);
      expect(took).toBeLessThan(30_000);
      expect(existsSync(join(d, 'config'))).toBe(false);
      // PARTNER_TOKEN wins over both stores: the keyring is never asked.
      const list = await runCli(['employees', 'list', '-o', 'json'], { env: { ...env, PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA } });
      expectCode(list, 0);
    });
  });
});
