// `partner auth switch` (run: ./switch.run.ts).
import { defineCommand } from '../../command.js';
import { arg } from '../../flags.js';

export const switchProfile = defineCommand({
  name: 'switch',
  summary: 'make a saved profile the active one',
  args: { name: arg.optional('the profile to use from now on (`partner auth status` lists them); on a terminal, left out: pick one') },
  needsToken: false,
  examples: ['partner auth switch staging', 'partner auth switch'],
  load: () => import('./switch.run.js'),
});
