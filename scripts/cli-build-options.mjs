// The esbuild options of the CLI's bundle (dist/cli.js and its chunks), shared
// by scripts/bundle.mjs and the benchmark's second build without the walk's
// integrity checks (test/bench/run.js), so both are built the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const BUNDLED = new Set(['commander', 'undici', 'chalk', 'string-width', 'get-east-asian-width']);

/** Dependencies left to Node's resolver (read their own files, or load only in a few commands). */
export const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * HTTP/2 constants undici's client-h2 reads when it loads (partner never
 * speaks HTTP/2): protocol names and RFC 9113 error codes, fixed for good.
 * test/unit/build/startup-trims.test.ts checks them against node:http2.
 */
export const HTTP2_CONSTANTS = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

/** A module that loads the built-in `name` when first used; `constants` it knows are answered without loading it. */
export function onFirstUse(name, constants = {}) {
  return `let m; const load = () => (m ??= require('node:${name}'));
const known = ${JSON.stringify(constants)};
const constants = new Proxy(known, { get: (t, k) => (Object.hasOwn(t, k) ? t[k] : load().constants[k]) });
module.exports = new Proxy({}, { get: (_, k) => (k === 'constants' ? constants : load()[k]) });`;
}

/**
 * Built-ins that bundled dependencies load at start-up and partner never
 * uses: commander's child_process (for executable subcommands; ~3.7 ms in a
 * bare require()) and undici's http2 (for HTTP/2, never enabled; ~7 ms) are
 * loaded when first used instead. chalk's colour detection (supports-color,
 * which loads tty; ~3 ms) is left out, because partner always gives chalk
 * its colour level (output/colors.ts) and never uses the detected default.
 */
function startupTrims() {
  const lazy = [
    { builtin: 'child_process', importer: /node_modules[\\/]commander[\\/]/ },
    { builtin: 'http2', importer: /node_modules[\\/]undici[\\/]/, constants: HTTP2_CONSTANTS },
  ];
  return {
    name: 'startup-trims',
    setup(b) {
      for (const l of lazy) {
        b.onResolve({ filter: new RegExp(`^(node:)?${l.builtin}$`) }, (args) => (l.importer.test(args.importer) ? { path: l.builtin, namespace: 'on-first-use' } : undefined));
      }
      b.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
        contents: onFirstUse(args.path, lazy.find((l) => l.builtin === args.path)?.constants),
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
 * The modules every command loads once it runs (the command tree and
 * commander, the context, the config, the output layer), and the small API
 * helpers every API command shares. See coreChunk.
 */
export const CORE = [
  'src/program.ts',
  'src/context.ts',
  'src/config/resolve.ts',
  'src/output/writer.ts',
  'src/output/options.ts',
  'src/output/count.ts',
  'src/api/employees.ts',
  'src/concurrency.ts',
  // The one capped reader: every API answer (http.ts) and every input flag read through it.
  'src/input.ts',
  // The one reading of an answer's JSON (http.ts) and its numbers, which the output layer writes.
  'src/json/parse-exact.ts',
  // The pager (#32): cli.ts reaches it through help-entry.ts at every start, program.ts when a command pages.
  'src/output/pager.ts',
];

/**
 * Puts the CORE modules in one chunk. esbuild splits shared code by the set
 * of entry points (dynamic imports count as entries) that reach each module,
 * so code used by a different mix of commands lands in a different chunk:
 * an API command loaded 41 modules, most under 3 KB, and Node's ES module
 * loader costs about 0.4 ms a module (resolve, read, link) before any of it
 * runs. Every entry (cli.ts and each dynamically imported module) also
 * imports the core, so the core's modules are reached by the same entries
 * and share one chunk: `employees list` loads 11 files instead of 41 (the
 * e2e test in employees-list.test.ts counts them). Measured in 30
 * interleaved whole-process runs against the build before: a one-page export 0.92x, `completion
 * bash` 0.85x. What loads lazily still does (the HTTP stack, tables, jq,
 * forms, webhooks, the sandbox); only the grouping of code that runs anyway
 * changes. (The webhook worker is built on its own: scripts/bundle.mjs.)
 */
function coreChunk() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const core = new Set(CORE.map((f) => join(root, f)));
  // The entries: cli.ts and every module src/ imports dynamically (found before the build, so that
  // a module first reached by a static import is known to be one too).
  const entries = new Set([join(root, 'src', 'cli.ts')]);
  for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const path = join(root, 'src', file);
    for (const [, spec] of readFileSync(path, 'utf8').matchAll(/\bimport\(\s*'(\.[^']+)\.js'\s*\)/g)) entries.add(join(dirname(path), `${spec}.ts`));
  }
  const imports = [...core].map((f) => `import ${JSON.stringify(f)};`).join('');
  return {
    name: 'core-chunk',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!entries.has(args.path) || core.has(args.path)) return undefined;
        return { contents: `${readFileSync(args.path, 'utf8')}\n${imports}\n`, loader: 'ts' };
      });
    },
  };
}

/** Options for the start-up file and its lazily imported chunks; add entryPoints and outdir. */
export const cliBuildOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Chunks beside cli.js: modules resolve ../package.json from dist/.
  chunkNames: '[name]-[hash]',
  // commander is CommonJS and require()s Node built-ins; give the ESM bundle a require.
  banner: { js: "import { createRequire as __partnerRequire } from 'node:module'; const require = __partnerRequire(import.meta.url);" },
  plugins: [startupTrims(), coreChunk()],
  logLevel: 'warning',
};
