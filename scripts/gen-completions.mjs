#!/usr/bin/env node
// Writes completions/partner.bash, completions/_partner and
// completions/partner.fish from the built CLI's own `partner completion SHELL`
// (generated from its commander tree; `npm run completions` builds first).
//   node scripts/gen-completions.mjs           write the files
//   node scripts/gen-completions.mjs --check   exit 1 when a checked-in file is stale
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = { bash: 'completions/partner.bash', zsh: 'completions/_partner', fish: 'completions/partner.fish' };
const check = process.argv.includes('--check');
let stale = 0;
for (const [shell, rel] of Object.entries(FILES)) {
  const file = join(root, rel);
  const text = execFileSync(process.execPath, [join(root, 'bin', 'partner.js'), 'completion', shell], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (check) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current !== text) {
      stale++;
      process.stderr.write(`${rel} is stale: run \`npm run completions\`\n`);
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${rel}\n`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
