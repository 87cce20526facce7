// Builds dist/ from src/ with esbuild: the launcher's steps (dist/launch.cjs,
// src/launcher/launch.ts, which bin/partner.js runs), the CLI as one CommonJS script
// (dist/cli.cjs, which src/launcher/code-cache.ts compiles with V8's code
// cache), the help entry as another (dist/help.cjs), the workers as one ES
// module each, and dist/worker-rules.json (which commands the launcher may
// start the bounded worker for, from their definitions). Pure-JS dependencies on
// hot paths are bundled too, so Node does not resolve and read their files one
// by one. Dependencies that read their own files (jq-wasm), or load only in a
// few commands, stay external.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cliBuildOptions, workerBuildOptions } from './cli-build-options.mjs';
import { buildInfo } from './build-info.mjs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// `partner --version`: the version, commit and build date (src/version.ts reads it; so does the launcher).
mkdirSync(new URL('../dist', import.meta.url), { recursive: true });
writeFileSync(new URL('../dist/build-info.json', import.meta.url), `${JSON.stringify(buildInfo(new URL('..', import.meta.url)))}\n`);
await build({
  ...cliBuildOptions,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
});

// The launcher's steps: small (it is compiled at every start, before any cache is on), the rest loaded by path.
await build({
  ...cliBuildOptions,
  entryPoints: { launch: 'src/launcher/launch.ts' },
  outdir: 'dist',
});

// The workers of `webhook verify --file` (dist/verify-worker.js) and of `--jq` (dist/jq-worker.js,
// where a filter that never ends can be stopped), and the keyring child process
// (dist/keyring-child.js: one keyring call, killed when it blocks): one file each. A worker
// thread loads its own copy of every module anyway, so sharing chunks with the CLI saves nothing,
// and it would tie the worker to the CLI's script (commander and all) it never uses.
await build({
  ...workerBuildOptions,
  entryPoints: { 'verify-worker': 'src/webhooks/verify-worker.ts', 'jq-worker': 'src/output/jq-worker.ts', 'keyring-child': 'src/config/keyring-child.ts' },
  outdir: 'dist',
});

// The help entry (dist/help.cjs): a script of its own, compiled from the code cache like the CLI's,
// so `partner --help` and `partner <command> --help` read 150 KB, not the CLI's 1.8 MB. Run modules
// are never loaded on that path: their imports are left out (required only if called, which help never does).
await build({
  ...cliBuildOptions,
  entryPoints: { help: 'src/help-entry.ts' },
  outdir: 'dist',
  plugins: [
    ...cliBuildOptions.plugins,
    {
      name: 'run-modules-stay-lazy',
      setup(b) {
        b.onResolve({ filter: /\.run\.js$|^\.\/program\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});

// dist/scripts.json: each script's content hash, part of its code cache's name (src/launcher/code-cache.ts).
// V8 checks only a cache's length: a script changed in place at the same length (an npm tarball gives every
// file the same date) must not meet the cache of the one before.
const hashes = {};
for (const name of ['cli.cjs', 'help.cjs']) {
  hashes[name] = createHash('sha256').update(readFileSync(new URL(`../dist/${name}`, import.meta.url))).digest('hex').slice(0, 16);
}
writeFileSync(new URL('../dist/scripts.json', import.meta.url), `${JSON.stringify(hashes)}\n`);

// dist/worker-rules.json: the definitions' worker rules as the launcher reads them (src/worker-rules.ts).
const { launcherWorkerRules } = createRequire(import.meta.url)('../dist/help.cjs');
writeFileSync(new URL('../dist/worker-rules.json', import.meta.url), `${JSON.stringify(launcherWorkerRules())}\n`);
