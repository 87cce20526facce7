// `partner auth status` (run: ./status.run.ts).
import { defineCommand } from '../../command.js';
import { bool } from '../../flags.js';

export const status = defineCommand({
  name: 'status',
  summary: 'list the saved profiles (the active one marked), where the token comes from, and check it',
  flags: { all: bool('check the token of every saved profile, not only the active one') },
  output: { formats: ['table', 'json'] },
  needsToken: false,
  examples: ['partner auth status', 'partner auth status --all', 'partner --sandbox auth status -o json', "partner --sandbox auth status --jq .baseUrl"],
  load: () => import('./status.run.js'),
});
