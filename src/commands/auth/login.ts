// `partner auth login` (run: ./login.run.ts).
import { defineCommand } from '../../command.js';
import { bool, negated } from '../../flags.js';

export const login = defineCommand({
  name: 'login',
  summary: 'save a base URL and token as a profile (token from a hidden prompt, or stdin)',
  flags: {
    withToken: bool('read the token from stdin instead of prompting'),
    verify: negated('save without checking the token against the API'),
  },
  needsToken: false,
  details: `The token is never taken from a flag (flags end up in shell history and process lists). Use the global --profile NAME to save under another name (default: the active profile, or "default").`,
  examples: [
    'partner auth login --base-url https://api.example.com',
    'echo "$TOKEN" | partner auth login --base-url https://api.example.com --with-token',
    'partner --profile staging auth login --base-url https://staging.example.com',
  ],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./login.run.js'),
});
