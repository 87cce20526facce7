// The README's install routes for npm, as a user runs them: in a clone (the
// working tree's files, with this checkout's node_modules standing in for
// `npm ci`), `npm pack` builds dist/ and packs the tarball; `npm install -g`
// of that tarball into an empty prefix installs a copy of partner and its
// dependencies from the registry, builds nothing and prints no warning. The
// tarball is the release route too (`npm install -g partner-cli-<version>.tgz`).
// Everything npm writes stays in this test's directory: its prefix, its cache
// (so the dependencies really come from the registry, once) and HOME (so
// npm reads no user configuration). Only the runner's network settings are
// passed on (registry, CA file, proxies), which the registry may need here.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';

const run = promisify(execFile);
const dir = tempDir('partner-install-');
const clone = join(dir.path, 'partner');
const prefix = join(dir.path, 'prefix');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const MAX_TARBALL = 2 * 1024 * 1024;
/** What the tarball may hold: the built CLI, shell completions, man pages, README, licence, manifest. */
const ALLOWED = /^(bin\/|dist\/|completions\/|docs\/man\/|README\.md$|LICENSE$|package\.json$)/;

let tarball: string;
let files: string[];
let install: { stdout: string; stderr: string };
/** The installed partner's environment: every directory it derives in this test's. */
const partnerEnv = () => isolatedEnv(dir.path, { HOME: join(dir.path, 'home'), XDG_CONFIG_HOME: join(dir.path, 'xdg-config'), XDG_CACHE_HOME: join(dir.path, 'xdg-cache'), XDG_STATE_HOME: join(dir.path, 'xdg-state') });

/** npm's environment: this test's HOME, cache and prefix; none of the runner's npm_* settings. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|PARTNER_|XDG_)/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  Object.assign(env, { HOME: join(dir.path, 'home'), npm_config_cache: join(dir.path, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  return { ...env, ...networkSettings() };
}

/** The runner's registry, CA file and proxies (its npmrc files are not read under the test's HOME and prefix). */
function networkSettings(): Record<string, string> {
  const out = execFileSync('npm', ['config', 'get', 'registry', 'cafile', 'proxy', 'https-proxy', 'strict-ssl'], { encoding: 'utf8' });
  const settings: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^([\w-]+)=(.+)$/.exec(line.trim());
    if (m && m[2] !== 'null' && m[2] !== 'undefined') settings[`npm_config_${m[1]!.replace(/-/g, '_')}`] = m[2]!;
  }
  return settings;
}

beforeAll(async () => {
  // A clone: the files git would check out (tracked, and new ones not ignored), no dist/.
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!lstatSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile()) continue; // deleted in the working tree
    mkdirSync(join(clone, file, '..'), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const env = npmEnv();
  // The README's clone route: npm install -g "./$(npm pack --silent)".
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir.path], { cwd: clone, env, timeout: 180_000 });
  tarball = join(dir.path, packed.stdout.trim());
  files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  // Bounded: the one install from the registry of the whole file.
  install = await run('npm', ['install', '-g', '--prefix', prefix, tarball], { cwd: dir.path, env, maxBuffer: 16 << 20, timeout: 300_000 });
}, 500_000);

afterAll(() => dir.cleanup());

describe('npm pack in a clone', () => {
  it('builds dist/ and packs only the built CLI, completions, man pages, README, licence and package.json', () => {
    expect(files.filter((f) => !ALLOWED.test(f))).toEqual([]);
    for (const f of ['bin/partner.js', 'dist/cli.cjs', 'completions/partner.bash', 'docs/man/partner.1', 'docs/man/partner-employees-list.1', 'README.md', 'LICENSE', 'package.json']) expect(files, f).toContain(f);
    expect(files.some((f) => f.startsWith('node_modules/'))).toBe(false);
  });

  it('is at most 2 MB', () => {
    expect(statSync(tarball).size).toBeLessThanOrEqual(MAX_TARBALL);
  });

  it('packs a manifest with nothing to build or bundle, and leaves the clone as it was', () => {
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts: Record<string, string>; bundleDependencies?: unknown };
    expect(packed.scripts.prepare).toBeUndefined();
    expect(packed.bundleDependencies).toBeUndefined();
    expect(readFileSync(join(clone, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(lstatSync(join(clone, '.package.json.prepack'), { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe('npm install -g of the tarball into an empty prefix', () => {
  it('prints no warning (nothing to build, no script to allow)', () => {
    expect(install.stderr).toBe('');
    expect(install.stdout).not.toMatch(/warn|allowScripts|install-scripts/i);
  });

  it('installs a copy, not a link to the clone', () => {
    const installed = join(prefix, 'lib', 'node_modules', pkg.name);
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(lstatSync(join(installed, 'dist', 'cli.cjs')).isFile()).toBe(true);
  });

  it("installs the dependencies from the registry, the keyring's native package for this platform among them", () => {
    const modules = join(prefix, 'lib', 'node_modules', pkg.name, 'node_modules');
    expect(lstatSync(join(modules, 'commander', 'package.json')).isFile()).toBe(true);
    expect(lstatSync(join(modules, '@napi-rs', 'keyring', 'package.json')).isFile()).toBe(true);
  });

  it('gives a partner whose --version is the package version', async () => {
    const v = await run(join(prefix, 'bin', 'partner'), ['--version'], { env: partnerEnv(), timeout: 30_000 });
    expect(v.stdout).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')} \\(commit `));
    expect(v.stderr).toBe('');
  });

  it('gives a partner that runs against the embedded sandbox', async () => {
    const r = await run(join(prefix, 'bin', 'partner'), ['--sandbox', 'employees', 'list', '-o', 'json', '--page-size', '2'], { cwd: dir.path, env: partnerEnv(), timeout: 60_000 });
    const doc = JSON.parse(r.stdout) as { data: { employeeCode: string }[] };
    expect(doc.data.map((e) => e.employeeCode)).toEqual(['ACME-00001', 'ACME-00002']);
  }, 90_000);

  it('installs the man pages where man looks for them (links into the package)', () => {
    for (const page of ['partner.1', 'partner-employees-list.1', 'partner-help-globals.1']) expect(statSync(join(prefix, 'share', 'man', 'man1', page)).isFile(), page).toBe(true);
  });
});
