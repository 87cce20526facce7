// partner's files are always under a real home, and
// credentials go only where they are meant.
// Item 3: with HOME= (set but empty), partner used ./.config/partner and
// ./.cache/partner of the current directory: a config.json planted there got
// PARTNER_TOKEN sent to its base URL (and was chmodded), a planted key cache
// made a webhook signed by the planter's own key valid. The planted files are
// those of the account that runs partner (as a planter in a shared directory
// would make them look); the CLI runs as `nobody`, whose home
// (/nonexistent) has nothing: this needs root, as CI runs.
// Item 4: a base URL with user:pass@ is refused from every source, and its
// password is printed nowhere.
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult, expectCode, isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { closedPort } from '../helpers/loopback-server.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
/**
 * The `nobody` account must be able to run this node and this checkout (a Node kept under /root's
 * 0700 home, as `.ci/run`'s Node 24 is, or a clone there, cannot be): otherwise these tests are
 * skipped, saying why.
 */
const nobodyCanRun = asRoot && spawnSync(process.execPath, [BIN, '--version'], { uid: NOBODY, gid: NOBODY, timeout: 20_000 }).status === 0;
const TOKEN = 'pk_test_Home9Zx2WmR4tLc8VbN3sKd6Yf';
const server = scriptedServer();

/** An environment with HOME set but empty and no partner or XDG directory variables: only the current directory to go by. */
function emptyHome(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = isolatedEnv('/unused', { HOME: '', PARTNER_CONFIG_DIR: undefined, PARTNER_CACHE_DIR: undefined, PARTNER_STATE_DIR: undefined, ...extra });
  for (const k of Object.keys(env)) if (k.startsWith('XDG_')) delete env[k];
  return env;
}

/** Writes `text` at dir/rel, parents made, every part owned by `nobody` (the account partner runs as here). */
function plant(dir: string, rel: string, text: string, mode: number): string {
  const parts = rel.split('/');
  let at = dir;
  for (const p of parts.slice(0, -1)) {
    at = join(at, p);
    mkdirSync(at, { recursive: true, mode: 0o700 });
    chownSync(at, NOBODY, NOBODY);
  }
  const file = join(at, parts.at(-1)!);
  writeFileSync(file, text, { mode });
  chmodSync(file, mode);
  chownSync(file, NOBODY, NOBODY);
  return file;
}

/** A temp directory the `nobody` account may enter (the current directory of the run). */
function sharedCwd(): { path: string; cleanup: () => void } {
  const d = tempDir('partner-home-');
  chmodSync(d.path, 0o755);
  return d;
}

describe.skipIf(!nobodyCanRun)('HOME= (set but empty): nothing is read from or done to the current directory (item 3; needs root, and a node and checkout that nobody may run)', () => {
  it('a planted config.json is not used: PARTNER_TOKEN goes nowhere, the file is not chmodded', async () => {
    const cwd = sharedCwd();
    try {
      const file = plant(cwd.path, '.config/partner/config.json', JSON.stringify({ activeProfile: 'x', profiles: { x: { baseUrl: server.url } } }), 0o644);
      const r = await runCli(['employees', 'list', '-o', 'json'], { env: emptyHome({ PARTNER_TOKEN: TOKEN }), cwd: cwd.path, uid: NOBODY, gid: NOBODY });
      expect(server.seen, 'the token was sent to the planted base URL').toEqual([]);
      expect(r.stderr).toMatch(/No API base URL is configured/);
      expectCode(r, 2);
      expect(statSync(file).mode & 0o777).toBe(0o644);
    } finally {
      cwd.cleanup();
    }
  });

  it('a planted key cache (and its HMAC key) does not make a webhook signed by the planter valid', async () => {
    const cwd = sharedCwd();
    try {
      const planter = ecKey('evil');
      // Nothing answers there: the key set can only come from the cache.
      const url = `http://127.0.0.1:${await closedPort()}/v1/partner/.well-known/jwks.json`;
      const key = randomBytes(32);
      plant(cwd.path, '.config/partner/cache.key', `${key.toString('hex')}\n`, 0o600);
      const body = { version: 1 as const, url, uat: Date.now(), maxAgeMs: 3_600_000, jwks: { keys: [planter.jwk] } };
      const mac = createHmac('sha256', key).update(JSON.stringify([body.version, body.url, body.uat, body.maxAgeMs, null, body.jwks])).digest('hex');
      const name = `${createHash('sha256').update(url).digest('hex').slice(0, 24)}.json`;
      plant(cwd.path, `.cache/partner/jwks/${name}`, JSON.stringify({ ...body, mac }), 0o600);
      const jws = signEs({ alg: 'ES512', kid: 'evil' }, employeeCreated(), planter.privateKey);
      const r = await runCli(['webhook', 'verify', jws, '--jwks-url', url, '-o', 'json', '--timeout', '5'], { env: emptyHome(), cwd: cwd.path, uid: NOBODY, gid: NOBODY });
      expect(r.stdout).not.toMatch(/"valid":\s*true/);
      expect(r.code).not.toBe(0);
    } finally {
      cwd.cleanup();
    }
  });

  it('a relative PARTNER_CONFIG_DIR is refused (exit 2), never resolved against the current directory', async () => {
    const cwd = sharedCwd();
    try {
      plant(cwd.path, 'cfg/config.json', JSON.stringify({ activeProfile: 'x', profiles: { x: { baseUrl: server.url } } }), 0o600);
      const r = await runCli(['employees', 'list'], { env: emptyHome({ PARTNER_TOKEN: TOKEN, PARTNER_CONFIG_DIR: 'cfg' }), cwd: cwd.path, uid: NOBODY, gid: NOBODY });
      expectCode(r, 2);
      expect(r.stderr.replace(/\\"/g, '"')).toMatch(/PARTNER_CONFIG_DIR is "cfg", not an absolute path/);
      expect(server.seen).toEqual([]);
    } finally {
      cwd.cleanup();
    }
  });
});

describe('a base URL with user:pass@ is refused, its password shown nowhere (item 4)', () => {
  const PASSWORD = 'Hunter2Secret';
  const withCreds = () => server.url.replace('http://', `http://ops:${PASSWORD}@`);

  const expectRefused = (r: CliResult, from: string) => {
    expectCode(r, 2);
    expect(r.stderr).toMatch(/holds a user name or password/);
    // The error is text, or one JSON object (its quotes escaped) when the output is JSON.
    expect(r.stderr.replace(/\\"/g, '"')).toContain(from);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(server.seen, 'a request was sent').toEqual([]);
  };

  it('from --base-url, PARTNER_BASE_URL and auth login --base-url', async () => {
    const dir = tempDir();
    try {
      const env = isolatedEnv(dir.path, { PARTNER_TOKEN: TOKEN });
      expectRefused(await runCli(['--base-url', withCreds(), 'employees', 'list'], { env }), '--base-url');
      expectRefused(await runCli(['employees', 'list', '-o', 'json'], { env: { ...env, PARTNER_BASE_URL: withCreds() } }), 'PARTNER_BASE_URL');
      expectRefused(await runCli(['auth', 'status'], { env: { ...env, PARTNER_BASE_URL: withCreds() } }), 'PARTNER_BASE_URL');
      const login = await runCli(['auth', 'login', '--with-token', '--base-url', withCreds()], { env: isolatedEnv(dir.path), input: `${TOKEN}\n` });
      expectRefused(login, '--base-url');
      expect(readdirSync(dir.path)).not.toContain('config');
    } finally {
      dir.cleanup();
    }
  });

  it('from a profile in the config file: commands, auth status and doctor refuse it without printing the password', async () => {
    const dir = tempDir();
    try {
      const env = isolatedEnv(dir.path);
      mkdirSync(env.PARTNER_CONFIG_DIR!, { mode: 0o700 });
      const config = { activeProfile: 'ops', profiles: { ops: { baseUrl: withCreds(), token: TOKEN }, other: { baseUrl: withCreds().replace('ops:', 'two:'), token: TOKEN } } };
      writeFileSync(join(env.PARTNER_CONFIG_DIR!, 'config.json'), JSON.stringify(config), { mode: 0o600 });
      expectRefused(await runCli(['employees', 'list'], { env }), 'profile "ops"');
      expectRefused(await runCli(['auth', 'status'], { env }), 'profile "ops"');
      const doctor = await runCli(['doctor', '-o', 'json'], { env });
      expect(doctor.code).not.toBe(0);
      expect(doctor.stdout + doctor.stderr).not.toContain(PASSWORD);
      expect(doctor.stdout).toMatch(/holds a user name or password/);
      expect(server.seen).toEqual([]);
      // The active profile is fine; another one holds a password: listed, its password not shown.
      const status = await runCli(['auth', 'status', '-o', 'json'], { env: { ...env, PARTNER_PROFILE: undefined, PARTNER_BASE_URL: server.url, PARTNER_TOKEN: TOKEN } });
      expect(status.stdout + status.stderr).not.toContain(PASSWORD);
    } finally {
      dir.cleanup();
    }
  });
});
