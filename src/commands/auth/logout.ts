// `partner auth logout` (run: ./logout.run.ts).
import { defineCommand } from '../../command.js';

export const logout = defineCommand({
  name: 'logout',
  summary: 'forget a saved profile and its token (deleted from the system keyring too)',
  needsToken: false,
  examples: ['partner auth logout', 'partner --profile staging auth logout'],
  load: () => import('./logout.run.js'),
});
