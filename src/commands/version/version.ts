// `partner version` (run: ./version.run.ts). A bare `--version` is answered by the launcher.
import { defineCommand } from '../../command.js';

export const version = defineCommand({
  name: 'version',
  summary: 'print the version of partner, Node.js and the platform',
  output: { formats: ['table', 'json'], fields: false },
  needsToken: false,
  examples: ['partner version', 'partner version -o json'],
  load: () => import('./version.run.js'),
});
