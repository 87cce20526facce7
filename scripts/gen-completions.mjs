#!/usr/bin/env node
// Writes completions/partner.bash, completions/_partner and
// completions/partner.fish from the commander tree of the built CLI
// (dist/cli.js; `npm run completions` builds first).
//   node scripts/gen-completions.mjs           write the files
//   node scripts/gen-completions.mjs --check   exit 1 when a checked-in file is stale
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram } = await import(join(root, 'dist', 'cli.js'));
const { completionScript, COMPLETION_FILES, SHELLS } = await import(join(root, 'dist', 'completion', 'index.js'));

// buildProgram only declares commands; this runtime is never used to run one.
const runtime = { io: { stdout: process.stdout, stderr: process.stderr }, env: {}, signal: new AbortController().signal, exitCode: 0 };
// buildProgram may be async (it imports the command declarations lazily).
const program = await buildProgram(runtime);
const check = process.argv.includes('--check');
let stale = 0;
for (const shell of SHELLS) {
  const file = join(root, COMPLETION_FILES[shell]);
  const text = completionScript(shell, program);
  if (check) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current !== text) {
      stale++;
      process.stderr.write(`${COMPLETION_FILES[shell]} is stale: run \`npm run completions\`\n`);
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${COMPLETION_FILES[shell]}\n`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
