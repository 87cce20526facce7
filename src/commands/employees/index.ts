import { Option, type Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';
import { EMPLOYEE_STATUSES, SORT_BY_FIELDS, SORT_ORDERS } from '../../api/types.js';
import { addOutputOptions } from '../../output/options.js';

export function registerEmployees(program: Command, runtime: Runtime): void {
  const employees = program.command('employees').description('search and export the employees of your company');
  employees.addHelpText('after', `
Examples:
  $ partner employees list --status ACTIVE
  $ partner employees list --all -o csv > employees.csv`);
  const list = employees
    .command('list')
    .description('list employees, one page or every page (--all)')
    .option('--page <n>', 'page number, 1 or more (default 1)')
    .option('--page-size <n>', 'employees per page, 1 to 100 (default 20; 100 with --all)')
    .addOption(new Option('--status <status>', 'only employees with this status (default: all)').choices([...EMPLOYEE_STATUSES]))
    .option('--employee-id <uuid>', 'exact employee id (wins over --employee-code)')
    .option('--employee-code <code>', 'exact employee code')
    .addOption(new Option('--sort-by <field>', 'sort field (default: the server\'s order)').choices([...SORT_BY_FIELDS]))
    .addOption(new Option('--sort-order <order>', 'sort direction (default: the server\'s)').choices([...SORT_ORDERS]))
    .option('--all', 'walk every page and print all employees')
    .option('--limit <n>', 'stop after this many employees (default: no limit)')
    .option('--concurrency <n>', 'pages fetched at once with --all, 1 to 32 (default 8)')
    .option('--no-progress', 'no progress bar on stderr with --all')
    .option('--allow-drift', 'with --all: keep what was seen when the company changed during the export or its pages did not add up (exit 0 with a warning; default: exit 1)')
    .option('--output-file <path>', 'write to this file instead of stdout, atomically: replaced only when complete (new files are 0600)');
  addOutputOptions(list);
  list
    .addHelpText(
      'after',
      `
Examples:
  $ partner employees list --status ACTIVE
  $ partner employees list --employee-code ACME-0007 -o json
  $ partner employees list --all --fields employeeCode,fullName,status -o ndjson
  $ partner employees list --all -o csv --output-file employees.csv`,
    )
    .action(lazyAction(runtime, () => import('./list.js')));
}
