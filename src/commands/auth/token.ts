// `partner auth token` (run: ./token.run.ts).
import { defineCommand } from '../../command.js';

export const token = defineCommand({
  name: 'token',
  summary: "print the active profile's token, for scripts",
  needsToken: false,
  details: 'Prints the token on stdout and nothing else: from PARTNER_TOKEN when it is set, else from where the profile keeps it (the system keyring, or the config file). It is printed only when you run this command; exit 3 when there is no token. In a script: curl -H "Authorization: Bearer $(partner auth token)" …. Moving a token saved in the config file into the keyring: `partner auth token | partner auth login --with-token`.',
  examples: ['partner auth token', 'partner --profile staging auth token'],
  load: () => import('./token.run.js'),
});
