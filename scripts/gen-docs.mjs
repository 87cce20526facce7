// `npm run docs`: writes the manual (docs/manual/*.md), the man pages
// (docs/man/*.1) and package.json's `man` list from the command definitions,
// through src/manual.ts (the same definitions and topics as --help). Stale
// pages are removed. test/unit/docs/manual.test.ts fails when the committed
// files differ from what this writes.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'partner-docs-'));
try {
  const outfile = join(work, 'manual.mjs');
  await build({
    stdin: { contents: "export { TOP_LEVEL } from './src/commands/index.ts';\nexport { manualFiles, manPaths } from './src/manual.ts';\n", resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Run modules are only loaded when a command runs: the manual needs the definitions alone.
    plugins: [{ name: 'definitions-only', setup: (b) => b.onResolve({ filter: /\.run\.js$/ }, (a) => ({ path: a.path, external: true })) }],
    logLevel: 'warning',
  });
  const { TOP_LEVEL, manualFiles, manPaths } = await import(pathToFileURL(outfile).href);
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const files = manualFiles(TOP_LEVEL, pkg.version);
  for (const dir of ['docs/manual', 'docs/man']) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const name of readdirSync(join(root, dir))) if (/^partner(-.*)?\.(md|1)$/.test(name)) rmSync(join(root, dir, name));
  }
  for (const f of files) {
    mkdirSync(dirname(join(root, f.path)), { recursive: true });
    writeFileSync(join(root, f.path), f.text);
  }
  pkg.man = manPaths(files);
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  process.stdout.write(`docs: ${files.length} files written (${pkg.man.length} man pages)\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
