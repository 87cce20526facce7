import { Option, type Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerGp(program: Command, runtime: Runtime): void {
  const gp = program.command('gp').description('onboard Global Payroll (GP) employees from the server\'s form schema');
  gp.addHelpText('after', `
Examples:
  $ partner gp schema --entity "Acme Deutschland GmbH"
  $ partner gp create --entity "Acme Deutschland GmbH"`);

  gp.command('create')
    .description('create a GP employee: an interactive wizard built from the entity\'s form, or values from a file / --set')
    .option('--entity <name>', 'legal entity the employee is hired by (asked on a terminal when missing)')
    .option('--from-file <path>', 'JSON values shaped like the schema, sections nested ("-" reads stdin); no prompts')
    .option('--set <section.field=value>', 'one value, typed by the schema (repeatable); no prompts', collect, [])
    .option('--dry-run', 'validate and print both request bodies (JSON) without sending')
    .option('--resume', 'continue from the saved draft of this entity')
    .option('--body-file <path>', 'send this hand-written POST body (JSON, "-" reads stdin) as it is, after showing it; for any server')
    .option('--yes', 'with --body-file: send without asking')
    .option('--from-csv <path>', 'bulk onboarding: one employee per row of this CSV (header: field paths, as `gp template` writes it); every row is checked first')
    .option('--skip-invalid', 'with --from-csv: create the valid rows even when some rows are invalid')
    .option('--results <path>', 'with --from-csv: the results CSV (default: FILE.results.csv beside the input); its journal is PATH.journal')
    .addOption(new Option('-o, --output <format>', 'result format (default: table on a terminal, else json)').choices(['table', 'json']))
    .addHelpText(
      'after',
      `
Answers are saved as a draft (config dir, mode 0600) after every question;
Ctrl-C keeps it and --resume continues. A successful submit deletes it.
The non-dynamic sections are POSTed to /v1/employees/gp-employments, then the
dynamic sections are PATCHed to the new employee's dynamic-details.

Examples:
  $ partner gp create --entity "Acme Deutschland GmbH"
  $ partner gp create --entity "Acme Deutschland GmbH" --resume
  $ partner gp create --entity "Acme India Pvt Ltd" --from-file values.json --dry-run
  $ cat values.json | partner gp create --entity "Acme India Pvt Ltd" --from-file - --set employment.startDate=2025-09-01
  $ partner gp create --entity "Acme Sverige AB" --body-file post.json --yes
  $ partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv
  $ partner gp create --entity "Acme India Pvt Ltd" --from-csv hires.csv`,
    )
    .action(lazyAction(runtime, () => import('./create.js')));

  gp.command('template')
    .description('write a CSV template for bulk onboarding: a header of every field (dot paths) and a "#" row describing each')
    .requiredOption('--entity <name>', 'legal entity name')
    .addOption(new Option('-o, --output <format>', 'csv: the template; json: the columns and their descriptions (default: csv)').choices(['csv', 'json']))
    .addHelpText(
      'after',
      `
Fill one row per employee (the "#" row is ignored), then:
  $ partner gp create --entity NAME --from-csv FILE

Examples:
  $ partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv`,
    )
    .action(lazyAction(runtime, () => import('./template.js')));

  gp.command('schema')
    .description('show the form of a legal entity: its sections and fields (table) or the server\'s document as sent (-o json)')
    .requiredOption('--entity <name>', 'legal entity name')
    .addOption(new Option('-o, --output <format>', 'table: an outline of sections and fields; json: the server\'s document verbatim, JSON Schema or field list (default: table on a terminal, else json)').choices(['table', 'json']))
    .addHelpText(
      'after',
      `
Examples:
  $ partner gp schema --entity "Acme Deutschland GmbH"
  $ partner gp schema --entity "Acme India Pvt Ltd" -o json > schema.json`,
    )
    .action(lazyAction(runtime, () => import('./schema.js')));
}
