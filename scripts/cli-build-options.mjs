// The esbuild options of the CLI's bundle (dist/cli.js and its chunks), shared
// by scripts/bundle.mjs and the benchmark's second build without the walk's
// integrity checks (test/bench/run.js), so both are built the same way.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const BUNDLED = new Set(['commander', 'undici', 'chalk', 'cli-table3', 'string-width', 'wrap-ansi']);

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
      b.onResolve({ filter: /^#supports-color$/ }, (args) => (/node_modules[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-colour-detection' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'no-colour-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };', loader: 'js' }));
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
  plugins: [startupTrims()],
  logLevel: 'warning',
};
