// `partner auth status` (run: ./status.run.ts).
import { defineCommand } from '../../command.js';

export const status = defineCommand({
  name: 'status',
  summary: 'show the active profile, where its token comes from, and check it',
  output: { formats: ['table', 'json'] },
  needsToken: false,
  examples: ['partner auth status', 'partner --sandbox auth status -o json', "partner --sandbox auth status --jq .baseUrl"],
  load: () => import('./status.run.js'),
});
