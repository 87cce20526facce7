// Builds dist/ from src/ with esbuild: our modules and commander in one
// start-up file (dist/cli.js), every lazily imported command in its own chunk.
// Measured: `partner --help` loads ~15% faster than the per-file tsc output,
// mostly by not resolving commander's CommonJS files one by one at start-up.
// The other dependencies stay external: they load only inside commands.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((name) => name !== 'commander')
  .flatMap((name) => [name, `${name}/*`]);

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
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
});
