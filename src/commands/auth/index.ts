import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';
import { addOutputOptions } from '../../output/options.js';

export function registerAuth(program: Command, runtime: Runtime): void {
  const auth = program.command('auth').description('log in, check and log out: saved profiles with their token');
  auth.addHelpText('after', `
Examples:
  $ partner auth login --base-url https://api.example.com
  $ partner auth status`);
  auth
    .command('login')
    .description('save a base URL and token as a profile (token from a hidden prompt, or stdin)')
    .option('--with-token', 'read the token from stdin instead of prompting')
    .option('--no-verify', 'save without checking the token against the API')
    .addHelpText(
      'after',
      `
The token is never taken from a flag (flags end up in shell history and process lists).
Use the global --profile NAME to save under another name (default: "default").

Examples:
  $ partner auth login --base-url https://api.example.com
  $ echo "$TOKEN" | partner auth login --base-url https://api.example.com --with-token
  $ partner --profile staging auth login --base-url https://staging.example.com`,
    )
    .action(lazyAction(runtime, () => import('./login.js')));
  const status = auth
    .command('status')
    .description('list the saved profiles (the active one marked), where the token comes from, and check it')
    .addHelpText(
      'after',
      `
Examples:
  $ partner auth status
  $ partner auth status --all
  $ PARTNER_TOKEN=... partner auth status -o json`,
    );
  status.option('--all', 'check the token of every saved profile, not only the active one');
  addOutputOptions(status, { quiet: false });
  status.action(lazyAction(runtime, () => import('./status.js')));
  auth
    .command('switch')
    .description('make a saved profile the active one')
    .argument('<name>', 'a saved profile (see `partner auth status`)')
    .addHelpText(
      'after',
      `
PARTNER_PROFILE and --profile still win over the active profile.

Examples:
  $ partner auth switch staging`,
    )
    .action(lazyAction(runtime, () => import('./switch.js')));
  auth
    .command('logout')
    .description('forget the saved token of a profile')
    .addHelpText(
      'after',
      `
Examples:
  $ partner auth logout
  $ partner --profile staging auth logout`,
    )
    .action(lazyAction(runtime, () => import('./logout.js')));
}
