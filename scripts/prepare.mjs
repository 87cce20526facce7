// npm's `prepare`: builds dist/ (the bundle only; `npm run build` and
// `npm test` also type-check). It runs after `npm ci` in a clone, before
// `npm pack`, and when npm installs partner from a git URL.
//
// Why more than `node scripts/bundle.mjs`: `npm install -g git+<url>` prepares
// the clone with a child `npm install --include=dev`, but that child inherits
// the parent's `global` and `prefix` settings through npm_config_* variables:
// it links the clone into the global prefix instead of installing the clone's
// devDependencies, so the build tools are missing (`tsc: not found`). When
// esbuild cannot be found, the bundle is built in a temporary directory of its
// own (the runtime dependencies and esbuild, installed there with the
// inherited settings removed and scripts ignored) and only dist/ is copied
// back: nothing is added to the clone's node_modules, which npm is about to
// pack. That child also leaves a symbolic link from the global prefix to the
// clone, a temporary directory npm deletes afterwards (a dangling `partner`):
// that link is replaced here by a copy of the built package with its runtime
// dependencies (the child also moved aside the ones the parent had already
// put there), which the parent's install of the packed clone then completes.
import { spawnSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from './build-info.mjs';
import { withoutPrepare } from './pack-manifest.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function hasEsbuild() {
  try {
    createRequire(join(root, 'package.json')).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`prepare: ${[cmd, ...args].join(' ')} failed (in ${cwd})\n`);
    process.exit(r.status ?? 1);
  }
}

/** The environment for a nested npm: without the settings a global install passes down. */
function cleanEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_config_(global|prefix|location|omit|include|production|only|dry_run|package_lock_only|save.*|allow_scripts.*|dangerously_allow_all_scripts)$/i.test(key)) delete env[key];
  return env;
}

const npmCommand = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];

if (hasEsbuild()) {
  run(process.execPath, ['scripts/bundle.mjs'], root);
} else {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const esbuild = lock.packages?.['node_modules/esbuild']?.version ?? pkg.devDependencies.esbuild;
  const work = mkdtempSync(join(tmpdir(), 'partner-build-'));
  try {
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'partner-build', private: true, type: 'module', dependencies: { ...pkg.dependencies, esbuild } }));
    for (const dir of ['src', 'scripts']) cpSync(join(root, dir), join(work, dir), { recursive: true });
    run(npmCommand[0], [...npmCommand[1], 'install', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--global=false', '--location=project'], work, cleanEnv());
    // scripts/cli-build-options.mjs reads the real package.json (its dependencies decide what stays external).
    writeFileSync(join(work, 'package.json'), JSON.stringify({ ...pkg, dependencies: pkg.dependencies }));
    run(process.execPath, ['scripts/bundle.mjs'], work);
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    cpSync(join(work, 'dist'), join(root, 'dist'), { recursive: true });
    // Built outside the checkout, the bundle could not tell its commit (`partner --version`): the checkout can.
    writeFileSync(join(root, 'dist', 'build-info.json'), `${JSON.stringify(buildInfo(new URL('..', import.meta.url)))}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Only in npm's preparation of a git dependency (pacote sets _PACOTE_NO_PREPARE_) run as a global install.
if (process.env._PACOTE_NO_PREPARE_ !== undefined && process.env.npm_config_global === 'true' && process.env.npm_config_prefix) {
  const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
  const dirs = process.platform === 'win32' ? [join(process.env.npm_config_prefix, 'node_modules', name)] : [join(process.env.npm_config_prefix, 'lib', 'node_modules', name)];
  for (const link of dirs) {
    try {
      if (lstatSync(link).isSymbolicLink() && realpathSync(link) === realpathSync(root)) {
        unlinkSync(link);
        for (const entry of ['package.json', 'package-lock.json', 'bin', 'dist', 'completions']) cpSync(join(root, entry), join(link, entry), { recursive: true });
        run(npmCommand[0], [...npmCommand[1], 'install', '--omit=dev', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--global=false', '--location=project'], link, cleanEnv());
      }
    } catch {
      // No link there: nothing to undo.
    }
  }
}

// The clone npm makes of a git dependency (a temporary directory of npm's cache, packed right after
// this script and deleted): packed without this prepare script, as `npm pack` packs a clone
// (scripts/pack-manifest.mjs). The tarball holds dist/; npm 11 would otherwise list `prepare`
// as a script "not yet covered by allowScripts" when it installs that tarball, where it never runs.
if (/[\\/]_cacache[\\/]tmp[\\/]git-clone[^\\/]*[\\/]?$/.test(root)) {
  const packed = withoutPrepare(readFileSync(join(root, 'package.json'), 'utf8'));
  if (packed !== undefined) writeFileSync(join(root, 'package.json'), packed);
}
