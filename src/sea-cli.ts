// The CLI inside the single-file executable (an asset that src/sea-entry.ts
// runs): what bin/partner.js starts for an npm install, and the executable's
// own keyring helper (config/keyring-system.ts spawns the executable itself
// with SEA_CHILD_ARG for one keyring call in a child process).
import { SEA_CHILD_ARG } from './config/keyring-child-arg.js';

export function run(args: string[]): void {
  if (args.length === 1 && args[0] === SEA_CHILD_ARG) void import('./config/keyring-child.js').then(({ keyringChild }) => keyringChild());
  else void import('./cli.js').then(({ main }) => main(args));
}
