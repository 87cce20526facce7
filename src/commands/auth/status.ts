// `partner auth status` (run: ./status.run.ts).
import { defineCommand } from '../../command.js';
import { bool } from '../../flags.js';

export const status = defineCommand({
  name: 'status',
  summary: 'list the saved profiles (the active one marked), where each token lives (keyring, file, environment), and check it',
  flags: { all: bool('check the token of every saved profile, not only the active one') },
  // The fields of the status document (./status.run.ts): the active profile's, and every profile's line.
  output: { formats: ['table', 'json'], recordFields: ['profile', 'profileSource', 'baseUrl', 'baseUrlSource', 'token', 'tokenSource', 'tokenStorage', 'check', 'company', 'profiles'] },
  needsToken: false,
  examples: ['partner auth status', 'partner auth status --all', 'partner --sandbox auth status -o json', "partner --sandbox auth status --jq .baseUrl"],
  load: () => import('./status.run.js'),
});
