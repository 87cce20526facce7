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
  logLevel: 'warning',
};
