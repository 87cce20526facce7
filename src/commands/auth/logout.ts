// `partner auth logout` (run: ./logout.run.ts).
import { defineCommand } from '../../command.js';

export const logout = defineCommand({
  name: 'logout',
  summary: 'forget a saved profile and its token (deleted from the system keyring too)',
  needsToken: false,
  details: 'The profile is removed from the config file first, then its token from the system keyring. When the keyring cannot be reached (its session is gone), the profile is still removed, and a warning says that its token may remain in that keyring and the command that deletes it.',
  examples: ['partner auth logout', 'partner --profile staging auth logout'],
  load: () => import('./logout.run.js'),
});
