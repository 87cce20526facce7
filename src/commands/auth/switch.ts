// `partner auth switch` (run: ./switch.run.ts).
import { defineCommand } from '../../command.js';
import { arg } from '../../flags.js';

export const switchProfile = defineCommand({
  name: 'switch',
  summary: 'make a saved profile the active one',
  args: { name: arg.required('the profile to use from now on (`partner auth status` lists them)') },
  needsToken: false,
  examples: ['partner auth switch staging'],
  load: () => import('./switch.run.js'),
});
