// The package a user installs: `npm pack` gives a tarball with the built CLI,
// the man pages and its runtime dependencies (bundled, the keyring's native
// package excepted) but no tests and no TypeScript sources, and `npm install
// -g` of that tarball into an empty prefix gives a `partner` that runs
// against the embedded sandbox and man pages where `man` finds them.
// Dependencies come from npm's cache (--prefer-offline). The tarball is packed
// with --ignore-scripts from the dist/ the e2e tests already use (packing with
// scripts would rebuild dist/ under the other tests' feet), in a copy of the
// package whose prepack and postpack scripts are run around it, as npm pack
// runs them.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';

const run = promisify(execFile);
const dir = tempDir('partner-install-');
const prefix = join(dir.path, 'prefix');
const copy = join(dir.path, 'package');
let tarball: string;
let files: string[];
let installOutput: string;

// npm's own settings from the test runner's environment (a global prefix, omit) must not leak into the install.
function npmEnv(): NodeJS.ProcessEnv {
  const env = isolatedEnv(dir.path, { npm_config_loglevel: 'error', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  for (const k of Object.keys(env)) if (/^npm_(config_(global|prefix|location|omit|include|production)|lifecycle|package)/i.test(k)) delete env[k];
  return env;
}

beforeAll(async () => {
  for (const entry of ['package.json', 'package-lock.json', 'bin', 'dist', 'completions', 'docs/man', 'scripts/pack-manifest.mjs']) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  // The runtime packages of node_modules too, the bundled dependencies are packed from them (not the
  // development ones: three quarters of its 180 MB).
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (/^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.dev && existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  }
  await run('npm', ['run', 'prepack'], { cwd: copy, env: npmEnv() });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.path], { cwd: copy, env: npmEnv(), maxBuffer: 16 << 20 });
  await run('npm', ['run', 'postpack'], { cwd: copy, env: npmEnv() });
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = join(dir.path, info.filename);
  files = info.files.map((f) => f.path);
}, 120_000);

afterAll(() => dir.cleanup());

describe('npm pack', () => {
  it('holds the built CLI and the man pages, no tests and no TypeScript sources', () => {
    expect(files).toContain('bin/partner.js');
    expect(files).toContain('dist/cli.cjs');
    expect(files).toContain('dist/scripts.json');
    expect(files).toContain('dist/help.cjs');
    expect(files).toContain('docs/man/partner-employees-list.1');
    expect(files).toContain('package.json');
    expect(files).toContain('bin/compile-cache.js');
    expect(files).toContain('bin/code-cache.js');
    expect(files).toContain('bin/command-worker.js');
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    expect(own.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('scripts/') || (/\.ts$/.test(f) && !f.endsWith('.d.ts')))).toEqual([]);
  });

  it('holds every runtime dependency but the keyring (chosen per platform at install)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of Object.keys(pkg.dependencies).filter((d) => d !== '@napi-rs/keyring')) expect(files, name).toContain(`node_modules/${name}/package.json`);
    // What they depend on comes with them (the MCP SDK's zod).
    expect(files).toContain('node_modules/zod/package.json');
    // Copied beside the others (its native package too), and left out.
    expect(existsSync(join(copy, 'node_modules', '@napi-rs', 'keyring'))).toBe(true);
    expect(files.filter((f) => f.startsWith('node_modules/@napi-rs/'))).toEqual([]);
  });
});

describe("npm pack's prepack and postpack", () => {
  it('packs a package.json without the prepare script (the build), and leaves the real one as it was', () => {
    const real = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(real.scripts.prepare).toBeDefined();
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(existsSync(join(copy, '.package.json.prepack'))).toBe(false);
  });
});

describe('npm install -g of the tarball into an empty prefix', () => {
  beforeAll(async () => {
    // npm's own warnings shown (loglevel warn, its default): the install must draw none about scripts.
    const r = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: dir.path, env: { ...npmEnv(), npm_config_loglevel: 'warn' }, maxBuffer: 16 << 20, timeout: 240_000 });
    installOutput = r.stdout + r.stderr;
  }, 250_000);

  it('draws no note about a prepare script (nothing is built)', () => {
    expect(installOutput).not.toMatch(/prepare|allowScripts|install-scripts/i);
    expect((JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', 'partner-cli', 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.prepare).toBeUndefined();
  });

  it("installs the keyring's native package for this platform from the registry", () => {
    const installed = readdirSync(join(prefix, 'lib', 'node_modules', 'partner-cli', 'node_modules', '@napi-rs'));
    expect(installed).toContain('keyring');
    expect(installed.filter((n) => n.startsWith(`keyring-${process.platform}-${process.arch}`))).toHaveLength(1);
  });

  it('gives a partner that runs against the embedded sandbox', async () => {
    const bin = join(prefix, 'bin', 'partner');
    const r = await run(bin, ['--sandbox', 'employees', 'list', '-o', 'json'], { cwd: dir.path, env: isolatedEnv(dir.path), timeout: 60_000 });
    const doc = JSON.parse(r.stdout) as { data: { employeeCode: string }[]; pagination: unknown };
    expect(doc.data.length).toBeGreaterThan(0);
    expect(doc.data[0]!.employeeCode).toMatch(/^ACME-/);
    const v = await run(bin, ['--version'], { env: isolatedEnv(dir.path), timeout: 30_000 });
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  }, 90_000);

  it('installs the man pages where man looks for them', () => {
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'partner-employees-list.1'))).toBe(true);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'partner-help-globals.1'))).toBe(true);
    // `man partner`: the overview page.
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'partner.1'))).toBe(true);
  });
});
