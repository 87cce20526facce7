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

/**
 * Two things bundled dependencies load at start-up that partner never uses,
 * each ~3-4 ms of every command's start (measured with require() in a bare
 * node): commander's child_process (for executable subcommands, which partner
 * has none of) is loaded when first used instead; chalk's colour detection
 * (supports-color, which loads tty) is left out, because partner always
 * gives chalk its colour level (output/colors.ts) and never uses the
 * detected default instance.
 */
function startupTrims() {
  return {
    name: 'startup-trims',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'on-first-use' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
        contents: `let m; const load = () => (m ??= require('node:${args.path}')); module.exports = new Proxy({}, { get: (_, k) => load()[k] });`,
        loader: 'js',
      }));
      b.onResolve({ filter: /^#supports-color$/ }, (args) => (/node_modules[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-colour-detection' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'no-colour-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };', loader: 'js' }));
    },
  };
}
