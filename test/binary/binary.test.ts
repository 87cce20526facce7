// `npm run build:binary`, then the executable it built, run with a PATH that holds no node
// and an environment of its own: it needs nothing from the machine but the kernel.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';
import { missingSecretServiceTools, startSecretService, type SecretService } from '../helpers/secret-service.js';

const EXE = join(ROOT, 'dist', 'partner-linux-x64');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; config: { nodeVersions: Record<string, string> } };
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let built: SpawnSyncReturns<string>;

beforeAll(() => {
  built = spawnSync('npm', ['run', 'build:binary'], { cwd: ROOT, encoding: 'utf8', timeout: 590_000 });
  if (built.status !== 0) throw new Error(`npm run build:binary failed: ${built.stdout}\n${built.stderr}`);
  dir = tempDir();
  // An empty bin directory first and last: no node, no npm, nothing a shell would find.
  env = { PATH: join(dir.path, 'empty-bin'), HOME: join(dir.path, 'home'), PARTNER_CONFIG_DIR: join(dir.path, 'config'), PARTNER_CACHE_DIR: join(dir.path, 'cache'), NO_COLOR: '1' };
});
afterAll(() => dir?.cleanup());

function run(args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(EXE, args, { env, encoding: 'utf8', input, timeout: 60_000 });
}

describe('the single-file executable (dist/partner-linux-x64)', () => {
  it("the build prints its own line and nothing else (npm run's headers aside)", () => {
    expect(built.stderr).toBe('');
    const lines = built.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('> '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^built dist\/partner-linux-x64 \([0-9a-f]{12}…, Node v\d+\.\d+\.\d+\) and dist\/SHA256SUMS$/);
  });

  it('sha256sum -c SHA256SUMS passes where the README runs it (in dist/)', () => {
    const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: join(ROOT, 'dist'), encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(check.stdout).toBe('partner-linux-x64: OK\n');
  });

  it('is checksummed in dist/SHA256SUMS', () => {
    const [sum, name] = readFileSync(join(ROOT, 'dist', 'SHA256SUMS'), 'utf8').trim().split(/\s+/);
    expect(name).toBe('partner-linux-x64');
    expect(sum).toBe(createHash('sha256').update(readFileSync(EXE)).digest('hex'));
    expect(statSync(EXE).mode & 0o111).toBe(0o111);
    expect(readdirSync(join(ROOT, 'dist')).includes('sea')).toBe(false); // the build's scratch files are gone
  });

  it('there is no node on the PATH it runs with', () => {
    expect(spawnSync('node', ['--version'], { env }).error).toMatchObject({ code: 'ENOENT' });
  });

  it('--version: the package version, from the pinned Node 24 runtime', () => {
    const r = run(['--version']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')} \\(commit [0-9a-f]{12}(-dirty)?, built \\d{4}-\\d{2}-\\d{2}\\)\\n$`));
    expect(readFileSync(EXE).includes(Buffer.from(`v${pkg.config.nodeVersions['24']}`))).toBe(true);
  });

  it('--sandbox employees list -o json: a page of the embedded sandbox', () => {
    const r = run(['--sandbox', 'employees', 'list', '-o', 'json', '--page-size', '3']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { data: { employeeCode: string }[]; pagination: { pageSize: number } };
    expect(doc.data.map((e) => e.employeeCode)).toEqual(['ACME-00001', 'ACME-00002', 'ACME-00003']);
    expect(doc.pagination.pageSize).toBe(3);
  });

  it('--jq runs (jq is WebAssembly inside the one script)', () => {
    const r = run(['--sandbox', 'employees', 'list', '--page-size', '2', '--jq', '.data[].employeeCode']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ACME-00001\nACME-00002\n');
  });

  it('webhook verify: a genuine JWS is valid (exit 0), a forged one is not (exit 8)', () => {
    const key = ecKey('k1');
    const other = ecKey('k1');
    const jwks = join(dir.path, 'jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [key.jwk] }));
    const good = run(['webhook', 'verify', signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), key.privateKey), '--jwks-file', jwks, '-o', 'json']);
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ valid: true, kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED' } });
    const forged = run(['webhook', 'verify', '--jwks-file', jwks, '-o', 'json'], signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), other.privateKey));
    expect(forged.status).toBe(8);
    expect(JSON.parse(forged.stdout)).toMatchObject({ valid: false, reason: 'BAD_SIGNATURE' });
  });

  it('help and a usage error behave as the npm install does', () => {
    const help = run(['employees', 'list', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage:/m);
    const bad = run(['employees', 'list', '--page-size', '500']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('writes nothing outside the directories it is given (no native module unpacked for these commands)', () => {
    expect(existsSync(join(dir.path, 'home'))).toBe(false);
  });
});

// The keyring too: the addon comes from the executable's own asset, and the
// executable is its own keyring helper (`__keyring-child`), with no node anywhere.
describe.skipIf(missingSecretServiceTools().length > 0)('the single-file executable and the system keyring', () => {
  let service: SecretService;
  let sandboxUrl: string;
  let stopSandbox: () => Promise<void>;
  beforeAll(async () => {
    service = await startSecretService(join(dir.path, 'keyring'));
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const sandbox = await startSandbox({});
    sandboxUrl = sandbox.url;
    stopSandbox = () => sandbox.close();
  }, 30_000);
  afterAll(async () => {
    await stopSandbox?.();
    await service?.stop();
  });

  it('auth login stores the token in the keyring (no file holds it); a fresh process reads it; logout removes it', async () => {
    const keyEnv = { ...env, ...service.env, PARTNER_CONFIG_DIR: join(dir.path, 'kconfig'), PARTNER_STATE_DIR: join(dir.path, 'kstate') };
    // Not spawnSync: the sandbox answers from this process, whose event loop must keep running.
    const exe = (args: string[], input?: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(EXE, args, { env: keyEnv, stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
        child.stdin.end(input ?? '');
      });
    const before = service.items().length;
    const login = await exe(['auth', 'login', '--base-url', sandboxUrl, '--with-token'], 'sbx_acme_7f3c9a1e2b4d\n');
    expect(login.status, login.stderr).toBe(0);
    expect(service.items()).toHaveLength(before + 1);
    expect(readFileSync(join(dir.path, 'kconfig', 'config.json'), 'utf8')).not.toContain('sbx_acme');
    const list = await exe(['employees', 'list', '--page-size', '2', '-o', 'json']);
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { data: unknown[] }).data).toHaveLength(2);
    const logout = await exe(['auth', 'logout']);
    expect(logout.status, logout.stderr).toBe(0);
    expect(service.items()).toHaveLength(before);
  }, 90_000);
});

// jq runs on a worker thread in the executable too (its script an asset): a filter that never ends
// is stopped by Ctrl-C or SIGTERM, and jq is as fast as from `node bin/partner.js`.
describe('the single-file executable: --jq on a worker thread', () => {
  let sandbox: { url: string; tokens: { companyA: string }; close(): Promise<void> };
  beforeAll(async () => {
    const { startSandbox } = await import('../../src/sandbox/server.js');
    sandbox = await startSandbox({ employees: 600 });
  }, 30_000);
  afterAll(async () => sandbox?.close());

  /** The executable (or `node bin/partner.js`) against the test's sandbox; not spawnSync: the sandbox answers from this process. */
  function start(cmd: string, args: string[], extra: NodeJS.ProcessEnv = {}) {
    const child = spawn(cmd, args, { env: { ...env, PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const began = performance.now();
    const done = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }>((resolve) =>
      child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr, ms: performance.now() - began })),
    );
    return { child, done };
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a runaway filter (def f: f; f) stops on ${signal}: "Cancelled.", exit 130`, async () => {
      const run = start(EXE, ['employees', 'list', '--page-size', '2', '--jq', 'def f: f; f']);
      await new Promise((r) => setTimeout(r, 1500));
      expect(run.child.exitCode).toBeNull(); // still spinning
      run.child.kill(signal);
      const r = await run.done;
      expect(r.signal).toBeNull(); // it exited by itself, not killed by the signal
      expect(r.status).toBe(130);
      expect(r.stderr).toContain('Cancelled.');
      expect(r.ms).toBeLessThan(15_000);
    }, 30_000);
  }

  // Its time against the script's is a benchmark (docs/BENCHMARKS.md), not a test: machines are shared and noisy.
  it("--all --limit 500 --jq '.data | length': the same answer as node bin/partner.js", async () => {
    const args = ['employees', 'list', '--all', '--limit', '500', '--jq', '.data | length'];
    const a = await start(EXE, args).done;
    const b = await start(process.execPath, [join(ROOT, 'bin', 'partner.js'), ...args], { PATH: process.env.PATH }).done;
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(a.stdout).toBe('500\n');
    expect(a.stdout).toBe(b.stdout);
  }, 120_000);
});

// The keyring addon extracted into a shared cache: another user (uid 65534, as root can play it)
// made `partner/` first in a sticky XDG_CACHE_HOME and could swap `native/` under it. The
// executable refuses to load from there: nothing is written below the other user's directory.
describe.skipIf(process.getuid?.() !== 0)('the single-file executable and a shared cache directory', () => {
  let sandbox: { url: string; tokens: { companyA: string }; close(): Promise<void> };
  beforeAll(async () => {
    const { startSandbox } = await import('../../src/sandbox/server.js');
    sandbox = await startSandbox({});
  }, 30_000);
  afterAll(async () => sandbox?.close());

  it('refuses to extract or load the keyring addon under a partner/ another user made', async () => {
    const shared = join(dir.path, 'shared-cache');
    mkdirSync(join(shared, 'partner'), { recursive: true });
    chmodSync(shared, 0o1777);
    chmodSync(join(shared, 'partner'), 0o777);
    chownSync(join(shared, 'partner'), 65534, 65534);
    const sharedEnv: NodeJS.ProcessEnv = { ...env, XDG_CACHE_HOME: shared, PARTNER_CONFIG_DIR: join(dir.path, 'sconfig'), PARTNER_STATE_DIR: join(dir.path, 'sstate') };
    delete sharedEnv.PARTNER_CACHE_DIR;
    // auth login checks the token, then stores it in the keyring: the keyring helper loads the addon first.
    // Not spawnSync: the sandbox answers from this process.
    const r = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(EXE, ['auth', 'login', '--base-url', sandbox.url, '--with-token'], { env: sharedEnv, stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.on('close', (status) => resolve({ status, out }));
      child.stdin.end(`${sandbox.tokens.companyA}\n`);
    });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/shared-cache\/partner holds partner's native directory but belongs to another user: partner will not load a native module from there/);
    expect(r.out).not.toMatch(/\n\s+at /); // no stack trace
    // Nothing extracted below the other user's directory.
    expect(readdirSync(join(shared, 'partner')).flatMap((d) => readdirSync(join(shared, 'partner', d)))).toEqual([]);
  }, 90_000);
});
