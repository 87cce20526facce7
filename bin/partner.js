#!/usr/bin/env node
// Launcher only: the CLI lives in the built output (npm ci builds it).
// A bare `--version` is answered here, and help from dist/help.js (one
// module, no commander), so scripts that probe the version and people who ask
// for help pay for little more than Node's own start-up.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if ((args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help' || args.length === 1) && (await import('../dist/help.js')).printHelp(args)) {
  // Help printed.
} else {
  const { main } = await import('../dist/cli.js');
  await main(args);
}
