// `partner version` (run: ./version.run.ts). A bare `--version` is answered by the launcher;
// `--version` with flags (`partner --version -o json`) is this command (cli.ts).
import { defineCommand } from '../../command.js';

export const version = defineCommand({
  name: 'version',
  summary: 'print the version of partner (its commit and build date), Node.js and the platform',
  output: { formats: ['table', 'json'], fields: false },
  needsToken: false,
  examples: ['partner version', 'partner version -o json', 'partner --version -o json'],
  load: () => import('./version.run.js'),
});
