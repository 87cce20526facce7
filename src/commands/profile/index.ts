import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';
import { PROFILE_SECTIONS } from '../../api/types.js';
import { addOutputOptions } from '../../output/options.js';

export function registerProfile(program: Command, runtime: Runtime): void {
  const profile = program.command('profile').description("read employees' profile sections (personal, bank, employment …)");
  profile.addHelpText('after', `
Examples:
  $ partner profile get ACME-00007
  $ partner profile get ACME-00007 personal employment -o json`);
  const get = profile
    .command('get')
    .description('show the profile of one or more employees, every section or the ones named')
    .argument('[employee-and-sections...]', `employee ids (UUID) or codes, then section names: ${PROFILE_SECTIONS.join(', ')} (default: all)`)
    .option('--from-file <path>', 'read employee ids or codes from a file, one per line ("-" for stdin; blank lines and # comments skipped)')
    .option('--concurrency <n>', 'employees fetched at once, 1 to 16 (default 4); the sections of each are fetched in parallel')
    .option('--reveal', 'show the full bank account number in the table (masked to its last 4 characters otherwise)');
  addOutputOptions(get);
  get
    .addHelpText(
      'after',
      `
Output:
  table   a key/value block per section, nested values as sub-blocks, null as "-".
          The bank account number is masked (****1234) unless --reveal.
  json    one object keyed by section (plus "id"); an array of them for several employees.
  ndjson  one flat record per employee with dot-path keys (personal.firstName,
  csv     address.currentAddress.city, education.0.degree …); --fields picks columns.
  JSON, NDJSON and CSV are for scripts and always carry the full values.
  The education section's list is unwrapped: education.0.degree, not education.education.0.degree.

If a section fails, the others are still shown, the failure is reported on
stderr, and the exit code is that of the worst failure (5 not found, 1 server error …).

Examples:
  $ partner profile get ACME-00007
  $ partner profile get ACME-00007 personal bank --reveal
  $ partner profile get ACME-00007 ACME-00012 -o csv > profiles.csv
  $ partner employees list --all -q | partner profile get --from-file - -o ndjson --fields id,personal.fullLegalName,employment.reportsTo.id`,
    )
    .action(lazyAction(runtime, () => import('./get.js')));
}
