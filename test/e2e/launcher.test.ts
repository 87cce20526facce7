// The launcher, bin/partner.js, spawned: a bare --version and help are answered
// before the CLI proper loads, everything else goes to main. The tests that
// check arguments, usage errors and rendering run the CLI in-process
// (test/helpers/main-in-process.ts follows the launcher's steps); here both
// paths must answer alike, byte for byte, so those tests say what a person gets.
import { execFile, execFileSync } from 'node:child_process';
import { execFileSync as run } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, sandboxEnv, spawnCli, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';
import { runMain } from '../helpers/main-in-process.js';

const execFileAsync = promisify(execFile);

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
});

afterAll(async () => {
  await close?.();
});

describe('bin/partner.js', () => {
  it('--version and -V print the version of package.json first, then the commit and build date, on one line', async () => {
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

const list = ['employees', 'list', '--page-size', '2', '-o', 'csv'];

/** The code cache's files (src/launcher/code-cache.ts) under a cache directory. */
function codeCaches(cache: string): string[] {
  return existsSync(join(cache, 'code-cache')) ? readdirSync(join(cache, 'code-cache')) : [];
}

describe('the code cache of the CLI (src/launcher/code-cache.ts)', () => {

  it('a command leaves the code it compiled in <cache dir>/code-cache, private, and the next run uses it as it is', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const first = await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(first.code, first.stderr).toBe(0);
      const [name, ...more] = codeCaches(cache);
      expect(more).toEqual([]);
      expect(name).toMatch(/^cli-[0-9a-f]{8}-[0-9a-f]{8}\.bin$/);
      const file = join(cache, 'code-cache', name!);
      const written = statSync(file);
      expect(written.size).toBeGreaterThan(100_000);
      expect(written.mode & 0o777).toBe(0o600);
      expect(statSync(join(cache, 'code-cache')).mode & 0o777).toBe(0o700);
      // Accepted by V8: a cache that was used is not written again.
      const second = await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(second).toEqual(first);
      const after = statSync(file);
      expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    } finally {
      dir.cleanup();
    }
  });

  it("help has its own script and cache, beside the CLI's", async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const help = await runCli(['employees', '--help'], { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(help.code, help.stderr).toBe(0);
      expect(codeCaches(cache)).toEqual([expect.stringMatching(/^help-[0-9a-f]{8}-[0-9a-f]{8}\.bin$/)]);
      await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(codeCaches(cache).map((f) => f.split('-')[0]).sort()).toEqual(['cli', 'help']);
      expect(await runCli(['employees', '--help'], { env: { ...env, PARTNER_CACHE_DIR: cache } })).toEqual(help);
    } finally {
      dir.cleanup();
    }
  });

  it('a cache of garbage is written anew, and the command runs alike', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const first = await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      const file = join(cache, 'code-cache', codeCaches(cache)[0]!);
      const garbage = Buffer.alloc(statSync(file).size, 0x5a);
      writeFileSync(file, garbage);
      const second = await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(second).toEqual(first);
      expect(codeCaches(cache)).toHaveLength(1);
      expect(readFileSync(file).equals(garbage)).toBe(false);
    } finally {
      dir.cleanup();
    }
  });

  // V8 checks little of a cache it is handed: eight bytes flipped in its data crashed it (133, 139) at 5 of 6 offsets.
  it('eight bytes flipped at any of seven offsets, or the file cut short, or another script\'s cache in its place: the command runs alike, never crashes, and the cache is written anew', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const e = { ...env, PARTNER_CACHE_DIR: cache };
      const first = await runCli(list, { env: e });
      expect(first.code, first.stderr).toBe(0);
      const file = join(cache, 'code-cache', codeCaches(cache)[0]!);
      const sound = readFileSync(file);
      await runCli(['employees', '--help'], { env: e });
      const helpCache = readFileSync(join(cache, 'code-cache', codeCaches(cache).find((f) => f.startsWith('help-'))!));
      const size = sound.length;
      const damaged: [string, Buffer][] = [0, 31, 32, 40, 1000, size >> 1, size - 8].map((at) => {
        const b = Buffer.from(sound);
        for (let i = 0; i < 8; i++) b[at + i]! ^= 0xa5;
        return [`flipped at ${at}`, b];
      });
      damaged.push(['cut short', sound.subarray(0, size >> 1)], ['empty', Buffer.alloc(0)], ["help's cache", helpCache]);
      for (const [what, bytes] of damaged) {
        writeFileSync(file, bytes);
        const r = await runCli(list, { env: e });
        expect(r, what).toEqual(first);
        expect(readFileSync(file).equals(bytes), what).toBe(false);
      }
    } finally {
      dir.cleanup();
    }
  });

  it('a FIFO (or a directory) at the cache\'s path: the command runs alike, without waiting; a FIFO is replaced by a cache', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const e = { ...env, PARTNER_CACHE_DIR: cache };
      const first = await runCli(list, { env: e });
      const file = join(cache, 'code-cache', codeCaches(cache)[0]!);
      rmSync(file);
      run('mkfifo', [file]);
      const r = await runCli(list, { env: e, timeoutMs: 15_000 });
      expect(r).toEqual(first);
      // Replaced by a sound cache, which the next run uses.
      expect(statSync(file).isFile()).toBe(true);
      expect(await runCli(list, { env: e })).toEqual(first);
      rmSync(file);
      mkdirSync(file);
      expect(await runCli(list, { env: e, timeoutMs: 15_000 })).toEqual(first);
    } finally {
      dir.cleanup();
    }
  });

  it('a sandbox that ran meanwhile, stopping later, leaves the cache of the lookup that finished first', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const server = spawnCli(['sandbox', 'start', '--port', '0'], { env: { ...env, PARTNER_CACHE_DIR: cache }, timeoutMs: 30_000 });
      await waitFor(() => /listening on http:\/\/\S+/.test(server.stdout()), 15_000);
      const url = /listening on (http:\/\/\S+)/.exec(server.stdout())![1]!;
      const r = await runCli(list, { env: { ...env, PARTNER_BASE_URL: url, PARTNER_CACHE_DIR: cache } });
      expect(r.code, r.stderr).toBe(0);
      const file = join(cache, 'code-cache', codeCaches(cache)[0]!);
      const lookup = statSync(file);
      server.child.kill('SIGINT');
      expect((await server.done).code).toBe(130);
      const after = statSync(file);
      expect([after.ino, after.mtimeMs, after.size]).toEqual([lookup.ino, lookup.mtimeMs, lookup.size]);
      // The sandbox's own cache was made and dropped, not left behind as a temporary file.
      expect(codeCaches(cache)).toHaveLength(1);
    } finally {
      dir.cleanup();
    }
  });

  it("a script changed at the same length and date meets no old cache: the build's content hash names it", async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      // A copy of the package beside the real one, whose scripts.json can be changed as a build would change it.
      const copy = join(dir.path, 'pkg');
      cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
      cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true, preserveTimestamps: true });
      cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      // Not a synchronous spawn: the sandbox answers from this process.
      const run = async () => (await execFileAsync(process.execPath, [join(copy, 'bin', 'partner.js'), ...list], { env: { ...env, PARTNER_CACHE_DIR: cache }, encoding: 'utf8' })).stdout;
      const first = await run();
      expect(first.split('\n')[1]).toMatch(/^[0-9a-f-]{36},ACME-00001,/);
      expect(codeCaches(cache)).toHaveLength(1);
      const hashes = JSON.parse(readFileSync(join(copy, 'dist', 'scripts.json'), 'utf8')) as Record<string, string>;
      expect(Object.keys(hashes).sort()).toEqual(['cli.cjs', 'help.cjs']);
      expect(hashes['cli.cjs']).toMatch(/^[0-9a-f]{16}$/);
      writeFileSync(join(copy, 'dist', 'scripts.json'), JSON.stringify({ ...hashes, 'cli.cjs': '0'.repeat(16) }));
      expect(await run()).toBe(first);
      expect(codeCaches(cache)).toHaveLength(2);
    } finally {
      dir.cleanup();
    }
  });

  it("another build's cache goes once it is a week old; this build's and a recent one stay", async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      mkdirSync(join(cache, 'code-cache'), { recursive: true, mode: 0o700 });
      chmodSync(cache, 0o700);
      const old = join(cache, 'code-cache', 'cli-00000000-00000000.bin');
      const recent = join(cache, 'code-cache', 'cli-00000001-00000000.bin');
      const leftover = join(cache, 'code-cache', 'cli-00000002-00000000.bin.123.tmp');
      for (const f of [old, recent, leftover]) writeFileSync(f, 'x', { mode: 0o600 });
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
      const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600 * 1000);
      utimesSync(old, eightDaysAgo, eightDaysAgo);
      utimesSync(leftover, eightDaysAgo, eightDaysAgo);
      utimesSync(recent, sixDaysAgo, sixDaysAgo);
      const r = await runCli(list, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(r.code, r.stderr).toBe(0);
      const left = codeCaches(cache);
      expect(left).toHaveLength(2);
      expect(left).toContain('cli-00000001-00000000.bin');
    } finally {
      dir.cleanup();
    }
  });

  it.each([
    ['NODE_DISABLE_COMPILE_CACHE set', (d: string) => (mkdirSync(d, { mode: 0o700 }), { NODE_DISABLE_COMPILE_CACHE: '1' })],
    ['a symbolic link', (d: string) => (mkdirSync(`${d}-real`, { mode: 0o700 }), symlinkSync(`${d}-real`, d), {})],
    ['open to other users', (d: string) => (mkdirSync(d), chmodSync(d, 0o777), {})],
    ['private, but its code-cache a link', (d: string) => (mkdirSync(d, { mode: 0o700 }), mkdirSync(`${d}-real`, { mode: 0o700 }), symlinkSync(`${d}-real`, join(d, 'code-cache')), {})],
    ['private, but its code-cache open to other users', (d: string) => (mkdirSync(join(d, 'code-cache'), { recursive: true, mode: 0o700 }), chmodSync(join(d, 'code-cache'), 0o777), {})],
  ])('with the cache directory %s, no compiled code is kept, and the command runs as usual', async (_, make) => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const extra = make(cache);
      const r = await runCli(list, { env: { ...env, ...extra, PARTNER_CACHE_DIR: cache } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[1]).toMatch(/^[0-9a-f-]{36},ACME-00001,/);
      expect(codeCaches(cache).filter((f) => f.endsWith('.bin'))).toEqual([]);
      expect(existsSync(`${cache}-real`) ? readdirSync(`${cache}-real`) : []).toEqual([]);
      // Node's compile cache goes by the same rule for the directory itself.
      if (!/private/.test(_)) expect(existsSync(join(cache, 'compile-cache'))).toBe(false);
    } finally {
      dir.cleanup();
    }
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
});

// Node >= 22.1 has a compile cache (module.enableCompileCache) for the modules Node's own loader reads (dependencies
// left out of the bundle: the embedded sandbox's ajv...); .ci/run runs this on Node 22 and 24.
describe.skipIf(typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function')('the compile cache (src/launcher/compile-cache.ts)', () => {
  const jq = ['--sandbox', 'employees', 'list', '--page-size', '2', '--jq', '.data[0].employeeCode'];
  /** Node's files: <cache>/compile-cache/<Node and flags>/<hash>. */
  const nodeCaches = (cache: string) => readdirSync(join(cache, 'compile-cache'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));

  it("the embedded sandbox's dependencies leave compiled code in <cache dir>/compile-cache, private, and run from it the next time alike", async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const first = await runCli(jq, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toBe('ACME-00001\n');
      expect(nodeCaches(cache).length).toBeGreaterThan(10);
      expect(statSync(join(cache, 'compile-cache')).mode & 0o777).toBe(0o700);
      const second = await runCli(jq, { env: { ...env, PARTNER_CACHE_DIR: cache } });
      expect(second).toEqual(first);
    } finally {
      dir.cleanup();
    }
  });

  it('its files damaged (bytes flipped at five offsets, cut short) or replaced by FIFOs: the command runs alike, never crashes or waits', async () => {
    const dir = tempDir();
    try {
      const cache = join(dir.path, 'c');
      const e = { ...env, PARTNER_CACHE_DIR: cache };
      const first = await runCli(jq, { env: e });
      expect(first.code, first.stderr).toBe(0);
      const files = nodeCaches(cache);
      const sound = new Map(files.map((f) => [f, readFileSync(f)]));
      for (const at of [0, 8, 20, 100, -8]) {
        for (const [f, bytes] of sound) {
          const b = Buffer.from(bytes);
          const from = at < 0 ? b.length + at : Math.min(at, b.length - 8);
          for (let i = 0; i < 8; i++) b[from + i]! ^= 0xa5;
          writeFileSync(f, b);
        }
        expect(await runCli(jq, { env: e, timeoutMs: 15_000 }), `flipped at ${at}`).toEqual(first);
      }
      for (const [f, bytes] of sound) writeFileSync(f, bytes.subarray(0, bytes.length >> 1));
      expect(await runCli(jq, { env: e, timeoutMs: 15_000 })).toEqual(first);
      for (const f of sound.keys()) {
        rmSync(f, { force: true });
        run('mkfifo', [f]);
      }
      expect(await runCli(jq, { env: e, timeoutMs: 15_000 })).toEqual(first);
      // The FIFOs were taken away, and Node wrote its files again.
      expect(nodeCaches(cache).length).toBeGreaterThan(0);
      for (const f of sound.keys()) expect(existsSync(f) ? statSync(f).isFIFO() : false).toBe(false);
    } finally {
      dir.cleanup();
    }
  });
});

describe("the launcher's cache directory", () => {
  it.each<[string, Record<string, string>]>([
    ['XDG_CACHE_HOME', { XDG_CACHE_HOME: 'rel' }],
    ['PARTNER_CACHE_DIR', { PARTNER_CACHE_DIR: 'rel' }],
  ])('a relative %s never puts compiled code in the current directory', async (_, relative) => {
    const dir = tempDir();
    try {
      const home = join(dir.path, 'home');
      const work = join(dir.path, 'work');
      mkdirSync(home);
      mkdirSync(work);
      const base: NodeJS.ProcessEnv = { ...env, HOME: home, PARTNER_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined, ...relative };
      await runCli(list, { env: base, cwd: work });
      expect(readdirSync(work)).toEqual([]);
      // A relative XDG_CACHE_HOME is passed over for the home's .cache, as the CLI does.
      if (relative.XDG_CACHE_HOME) expect(codeCaches(join(home, '.cache', 'partner'))).toHaveLength(1);
    } finally {
      dir.cleanup();
    }
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
