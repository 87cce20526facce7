// The launcher, bin/partner.js, spawned: a bare --version and help are answered
// before the CLI proper loads, everything else goes to main. The tests that
// check arguments, usage errors and rendering run the CLI in-process
// (test/helpers/main-in-process.ts follows the launcher's steps); here both
// paths must answer alike, byte for byte, so those tests say what a person gets.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir as launcherCacheDir } from '../../bin/compile-cache.js';
import { cacheDir } from '../../src/config/paths.js';
import { ROOT, runCli, sandboxEnv, tempDir, waitFor } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
});

afterAll(async () => {
  await close?.();
});

describe('bin/partner.js', () => {
  it('--version and -V print the version of package.json first, then the commit and build date, on one line (#32 item 10)', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const json = await runCli(['--version', '-o', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const build = JSON.parse(json.stdout) as { version: string; commit: string; buildDate: string };
    expect(build.version).toBe(version);
    // The commit partner was built from (this checkout's, when built from git), and that commit's date.
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(build.commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(build.buildDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version} (commit ${build.commit}, built ${build.buildDate})\n`);
      expect(r.stderr).toBe('');
    }
  });

  it.concurrent.each([
    [['--version']],
    [[]],
    [['--help']],
    [['employees']],
    [['employees', 'list', '--help']],
    [['help', 'gp', 'create']],
    [['help', 'globals']],
    [['help', '-o', 'json']],
    [['help', 'employes']],
    [['employes', 'list']],
    [['employees', 'list', '--page', '0']],
    [['employees', 'list', '--page-size', '2', '-o', 'json']],
    [['--no-color', 'trackers', 'onboarding', '--fields', 'nope']],
  ])('partner %j answers as the in-process harness does', async (args) => {
    const [spawned, inProcess] = await Promise.all([runCli(args, { env }), runMain(args, { env })]);
    expect(spawned.signal).toBeNull();
    expect(inProcess).toEqual(spawned);
  });
});

// Node >= 22.1 has a compile cache (module.enableCompileCache); .ci/run runs these on Node 22 and 24.
describe.skipIf(typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function')('the compile cache (bin/compile-cache.js)', () => {
  it('a command leaves compiled code in <cache dir>/compile-cache, and runs from it the next time alike', async () => {
    const cache = env.PARTNER_CACHE_DIR!;
    const first = await runCli(['employees', 'list', '--page-size', '2', '-o', 'csv'], { env });
    expect(first.code, first.stderr).toBe(0);
    const entries = readdirSync(join(cache, 'compile-cache'), { recursive: true });
    expect(entries.length).toBeGreaterThan(1);
    const second = await runCli(['employees', 'list', '--page-size', '2', '-o', 'csv'], { env });
    expect(second).toEqual(first);
  });

  it('--version compiles nothing: no cache written', async () => {
    const dir = tempDir();
    try {
      const r = await runCli(['--version'], { env: { ...env, PARTNER_CACHE_DIR: join(dir.path, 'c') } });
      expect(r.code).toBe(0);
      expect(existsSync(join(dir.path, 'c'))).toBe(false);
    } finally {
      dir.cleanup();
    }
  });

  it.each([
    ['a symbolic link', (d: string) => (mkdirSync(`${d}-real`, { mode: 0o700 }), symlinkSync(`${d}-real`, d))],
    ['open to other users', (d: string) => (mkdirSync(d), chmodSync(d, 0o777))],
  ])('a cache directory that is %s gets no compiled code, and the command runs as usual', async (_, make) => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      make(cache);
      const r = await runCli(['employees', 'list', '--page-size', '2', '-o', 'csv'], { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[1]).toMatch(/^[0-9a-f-]{36},ACME-00001,/);
      expect(existsSync(join(cache, 'compile-cache'))).toBe(false);
    } finally {
      dir.cleanup();
    }
  });
});

describe("the launcher's cache directory", () => {
  it('is the one the CLI uses (src/config/paths.ts), for every way of setting it', () => {
    for (const e of [{ PARTNER_CACHE_DIR: '/x/p' }, { XDG_CACHE_HOME: '/x/xdg' }, {}, { XDG_CACHE_HOME: '' }, { LOCALAPPDATA: 'C:/u' }]) expect(launcherCacheDir(e)).toBe(cacheDir(e));
  });
});

describe('the in-process harness leaves nothing behind', () => {
  it('no signal handler, no listening server (--sandbox starts one in-process), no exit code', async () => {
    const listeners = () => ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = { listeners: listeners(), servers: servers(), exitCode: process.exitCode };
    for (const args of [['--sandbox', 'employees', 'list', '--page-size', '2'], ['employees', 'list', '--page', '0'], ['--sandbox', 'employees', 'list', '--jq', '.data[0].id']]) {
      const r = await runMain(args, { env });
      expect(r.code === 0 || r.code === 2, r.stderr).toBe(true);
      expect(r.stdout + r.stderr).not.toBe('');
    }
    expect(listeners()).toEqual(before.listeners);
    // A closed server's handle is released on the next turns of the event loop.
    await waitFor(() => servers() === before.servers, 2000);
    expect(process.exitCode).toBe(before.exitCode);
  });
});
