import { Option, type Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

export function registerDoctor(program: Command, runtime: Runtime): void {
  program
    .command('doctor')
    .description('check your set-up: Node.js, config file, profile, token, webhook keys, clock, proxy')
    .addOption(new Option('-o, --output <format>', 'a line per check, or one JSON document (default: table)').choices(['table', 'json']))
    .addHelpText(
      'after',
      `
Each line is OK, WARN, FAIL (with a fix) or -- (not applicable). Checks: the
Node.js version (20.18 or newer), the config file and its permissions (0600 in
a 0700 directory), the active profile and base URL (https, or loopback; it
must answer), the
token (present, and accepted by one GET /v1/employees?pageSize=1), the webhook
key set (reachable; kids; the age of the cached copy), clock skew against the
server's Date header (warns over 60 s) and the proxy variables in use
(credentials masked).

Exit status: 0 when nothing failed (warnings allowed); otherwise the worst
failure's code: 3 no or refused token, 4 forbidden, 1 anything else.

Examples:
  $ partner doctor
  $ partner --sandbox doctor
  $ partner --profile staging doctor -o json`,
    )
    .action(lazyAction(runtime, () => import('./doctor.js')));
}
