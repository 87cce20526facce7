// `partner auth login` (run: ./login.run.ts).
import { defineCommand } from '../../command.js';
import { bool, negated } from '../../flags.js';

export const login = defineCommand({
  name: 'login',
  summary: 'save a base URL and token as a profile (token from a hidden prompt, or stdin)',
  flags: {
    withToken: bool('read the token from stdin instead of prompting'),
    verify: negated('save without checking the token against the API'),
    insecureStorage: bool('keep the token in the config file (mode 0600) instead of the system keyring'),
  },
  needsToken: false,
  details: `The token goes into the system keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux); the config file keeps only the profile. Login first makes sure the keyring can store a token, before it asks for the token or checks it: when no keyring can be reached (or it is locked), it says what is missing and what to run, and saves nothing; --insecure-storage keeps the token in the config file (mode 0600) instead. A login that fails changes nothing: the keyring and the config file both keep what they held. PARTNER_TOKEN, when set, wins over both. Logging in again moves a token saved in the config file into the keyring. The token is never taken from a flag (flags end up in shell history and process lists). Use the global --profile NAME to save under another name (default: the active profile, or "default").`,
  examples: [
    'partner auth login --base-url https://api.example.com',
    'echo "$TOKEN" | partner auth login --base-url https://api.example.com --with-token',
    'partner --profile staging auth login --base-url https://staging.example.com',
    'partner auth token | partner auth login --with-token',
    'echo "$TOKEN" | partner auth login --base-url https://api.example.com --with-token --insecure-storage',
  ],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./login.run.js'),
});
