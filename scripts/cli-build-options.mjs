// The esbuild options of the CLI's bundle (dist/cli.cjs) and of its workers' files, shared
// by scripts/bundle.mjs, the single executable's build (scripts/build-binary.mjs) and the
// benchmark's second build without the walk's integrity checks (test/bench/run.js).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// conf, jose and the proxy's modules (https-proxy-agent) are ES modules only: a CommonJS script
// cannot require() them on Node 20.18, so they are bundled too (the proxy's run only when a proxy is set).
const BUNDLED = new Set(['commander', 'chalk', 'string-width', 'get-east-asian-width', 'conf', 'jose', 'https-proxy-agent']);

/** Dependencies left to Node's resolver (read their own files, or load only in a few commands). */
export const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/** A module that loads the built-in `name` when first used. */
export function onFirstUse(name) {
  return `let m; const load = () => (m ??= require('node:${name}'));
module.exports = new Proxy({}, { get: (_, k) => load()[k] });`;
}

/**
 * Built-ins that bundled dependencies load at start-up and partner never
 * uses: commander's child_process (for executable subcommands; ~3.7 ms in a
 * bare require()) is loaded when first used instead. chalk's colour detection (supports-color,
 * which loads tty; ~3 ms) is left out, because partner always gives chalk
 * its colour level (output/colors.ts) and never uses the detected default.
 */
function startupTrims() {
  const lazy = [
    { builtin: 'child_process', importer: /node_modules[\\/]commander[\\/]/ },
  ];
  return {
    name: 'startup-trims',
    setup(b) {
      for (const l of lazy) {
        b.onResolve({ filter: new RegExp(`^(node:)?${l.builtin}$`) }, (args) => (l.importer.test(args.importer) ? { path: l.builtin, namespace: 'on-first-use' } : undefined));
      }
      b.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
        contents: onFirstUse(args.path),
        loader: 'js',
      }));
      // string-width sets up a grapheme segmenter and an emoji expression when it loads (about 60 ms,
      // and as much again at its first call): output/cells.ts needs it only for text whose graphemes
      // join (marks, emoji, Hangul), so it is loaded at its first call instead.
      b.onResolve({ filter: /^string-width$/ }, (args) => (/src[\\/]output[\\/]cells\.ts$/.test(args.importer) ? { path: 'string-width', namespace: 'on-first-call' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'on-first-call' }, () => ({
        contents: "let m; module.exports = (text, options) => (m ??= require('string-width')).default(text, options);",
        loader: 'js',
        resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      }));
      b.onResolve({ filter: /^#supports-color$/ }, (args) => (/node_modules[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-colour-detection' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'no-colour-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };', loader: 'js' }));
    },
  };
}

/**
 * Nothing to do any more: no module of partner's awaits at its top (config/conf-engine.ts
 * imports conf statically). Kept, doing nothing, while scripts/build-binary.mjs still lists it.
 */
export function topLevelAwaitImport() {
  return { name: 'top-level-await-import', setup() {} };
}

/**
 * Options for the CLI's bundle, dist/cli.cjs: one CommonJS script that
 * src/launcher/code-cache.ts compiles with V8's code cache (add entryPoints and
 * outdir); also the launcher's (dist/launch.cjs) and help's (dist/help.cjs). One script, not ES module chunks: Node 20 keeps no compiled code
 * for ES modules, and every start compiled the chunks again (a one-page table
 * 1.45x a minimal client there); from a code cache a lookup compiles almost
 * nothing, on every Node (docs/ARCHITECTURE.md, "One script, compiled once").
 * Code a command does not run costs only its bytes: esbuild keeps each
 * lazily imported module's code unrun until it is imported.
 */
export const cliBuildOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.cjs' },
  external,
  // ASCII, as esbuild writes strings and names (its default charset): src/launcher/code-cache.ts then reads the
  // script as latin1, a one-byte string for V8 (UTF-8 would make the whole 1.8 MB a two-byte string, ~5 ms more
  // per start). esbuild leaves a regular expression's characters and some comments as written: the sources
  // write them as \u escapes (test/unit/build/ascii-bundle.test.ts names any that come back).
  // ES module semantics kept: strict mode, as the ES modules the sources are; import.meta.url is this file's URL
  // (workers and package.json are found beside it), which a CommonJS script computes from its own name.
  banner: { js: "'use strict';\nvar __partnerMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__partnerMetaUrl' },
  // A dependency imported on first use (jq-wasm, @inquirer/prompts, the MCP SDK; all have CommonJS builds) is
  // require()d: import() in a script compiled by node:vm needs an experimental Node feature, which warns.
  // (A module of partner's imported on first use is esbuild's lazily run code either way.)
  supported: { 'dynamic-import': false },
  // The dependencies' licence comments beside the script (dist/cli.cjs.LEGAL.txt): one of them is not ASCII (below).
  legalComments: 'external',
  plugins: [startupTrims()],
  logLevel: 'warning',
};

/**
 * Options for the worker threads' and the keyring child's files (one ES module
 * each, no chunks; add entryPoints and outdir).
 */
export const workerBuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS dependencies require() Node built-ins: give the ES module a require.
  banner: { js: "import { createRequire as __partnerRequire } from 'node:module'; const require = __partnerRequire(import.meta.url);" },
  plugins: [startupTrims()],
  logLevel: 'warning',
};
