// Builds dist/ from src/ with esbuild: our modules and commander in one
// start-up file (dist/cli.js), every lazily imported command in its own chunk.
// Pure-JS dependencies on hot paths are bundled too, so Node does not resolve
// and read their CommonJS files one by one. Measured (median of 10-20 runs):
// `partner --help` 1.62x -> 1.45x of `node -e 0`; importing undici 87 ms ->
// one chunk, a one-page `employees list` 340 -> 283 ms. Dependencies that read
// their own files (jq-wasm), or load only in a few commands, stay external.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cliBuildOptions, external } from './cli-build-options.mjs';
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

// The workers of `webhook verify --file` (dist/verify-worker.js) and of `--jq` (dist/jq-worker.js,
// where a filter that never ends can be stopped), and the keyring child process
// (dist/keyring-child.js: one keyring call, killed when it blocks): one file each. A worker
// thread loads its own copy of every module anyway, so sharing chunks with the CLI saves nothing,
// and it would tie the worker to the CLI's core chunk (commander and all) it never uses.
await build({
  ...cliBuildOptions,
  splitting: false,
  plugins: cliBuildOptions.plugins.filter((p) => p.name !== 'core-chunk'),
  entryPoints: { 'verify-worker': 'src/webhooks/verify-worker.ts', 'jq-worker': 'src/output/jq-worker.ts', 'keyring-child': 'src/config/keyring-child.ts' },
  outdir: 'dist',
});

// The help entry (dist/help.js): one file, no chunks, so `partner --help` and
// `partner <command> --help` load a single module. Run modules are never
// loaded on that path; their dynamic imports are left as they are.
await build({
  entryPoints: ['src/help-entry.ts'],
  outfile: 'dist/help.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [
    {
      name: 'run-modules-stay-lazy',
      setup(b) {
        b.onResolve({ filter: /\.run\.js$|^\.\/program\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
  logLevel: 'warning',
});
