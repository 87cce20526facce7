// Builds dist/ from src/ with esbuild: the CLI as one CommonJS script
// (dist/cli.cjs, which bin/code-cache.js compiles with V8's code cache), the
// help entry as another (dist/help.cjs), the workers as one ES module each. Pure-JS dependencies on
// hot paths are bundled too, so Node does not resolve and read their files one
// by one. Dependencies that read their own files (jq-wasm), or load only in a
// few commands, stay external.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// bin/code-cache.js reads the scripts as latin1 (a copy, where UTF-8 would be decoded): they must be
// ASCII. esbuild escapes strings and names, but not regular expressions or the comments it keeps.
// dist/scripts.json: each script's content hash, part of its code cache's name (bin/code-cache.js). V8
// checks only a cache's length: a script changed in place at the same length (an npm tarball gives every
// file the same date) must not meet the cache of the one before.
const hashes = {};
for (const name of ['cli.cjs', 'help.cjs']) {
  const file = new URL(`../dist/${name}`, import.meta.url);
  const code = asciiOnly(readFileSync(file, 'utf8'), name);
  writeFileSync(file, code);
  hashes[name] = createHash('sha256').update(code).digest('hex').slice(0, 16);
}
writeFileSync(new URL('../dist/scripts.json', import.meta.url), `${JSON.stringify(hashes)}\n`);

/**
 * The script with every character past ASCII written as a \u escape: in a
 * regular expression (with or without the u flag) and in a comment that
 * means the same. A character escaped by a backslash already would not, and
 * fails the build.
 */
function asciiOnly(code, name) {
  return code.replace(/[^\x00-\x7f]/g, (c, at) => {
    if (code[at - 1] === '\\') throw new Error(`dist/${name}: an escaped non-ASCII character at ${at}; write it as \\u${c.charCodeAt(0).toString(16)} in the source`);
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
