// The entry of the single-file executable (scripts/build-binary.mjs): what
// bin/partner.js does for an npm install, in the one script the executable
// carries. A bare `--version` is answered before the CLI's modules are
// initialised (esbuild keeps a dynamically imported module's code unrun until
// it is imported); everything else, help included, goes through main().
import { buildInfo, versionLine } from './version.js';
import { SEA_CHILD_ARG } from './config/keyring-child-arg.js';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === SEA_CHILD_ARG) {
  // The keyring call in a child process of its own (config/keyring-system.ts spawns the executable itself).
  void import('./config/keyring-child.js').then(({ keyringChild }) => keyringChild());
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${versionLine(buildInfo())}\n`);
} else {
  void import('./cli.js').then(({ main }) => main(args));
}
