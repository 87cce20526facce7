import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerDynamicDetails(program: Command, runtime: Runtime): void {
  const dd = program.command('dynamic-details').description('submit the dynamic sections of a GP employee\'s form (legal details, custom fields)');
  dd.addHelpText('after', `
Examples:
  $ partner dynamic-details submit ACME-0042
  $ partner dynamic-details submit ACME-0042 --from-file legal.json --dry-run`);
  dd.command('submit')
    .description('ask (or take from a file / --set) the dynamic sections of the employee\'s form and PATCH them')
    .argument('<employee>', 'employee id (uuid) or employee code')
    .option('--from-file <path>', 'JSON values of the dynamic sections, nested by section ("-" reads stdin); no prompts')
    .option('--set <section.field=value>', 'one value, typed by the schema (repeatable); no prompts', collect, [])
    .option('--resume', 'continue from the saved draft of this employee (kept when a submit failed)')
    .option('--dry-run', 'validate and print the request body (JSON) without sending')
    .option('--body-file <path>', 'send this hand-written PATCH body (JSON, "-" reads stdin) as it is, after showing it; for any server')
    .option('--yes', 'with --body-file: send without asking')
    .addHelpText(
      'after',
      `
The employee's legal entity is read from their employment section, and only
the dynamic sections of that entity's form are asked (those listed in
x-dynamic-sections or marked x-submit: "dynamic-details").

Examples:
  $ partner dynamic-details submit ACME-0042
  $ partner dynamic-details submit 3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a --resume
  $ partner dynamic-details submit ACME-0042 --from-file legal.json
  $ partner dynamic-details submit ACME-0042 --set legal.taxId=12345678901 --set customFields.costCenter=CC-1234
  $ partner dynamic-details submit ACME-0042 --body-file patch.json --yes`,
    )
    .action(lazyAction(runtime, () => import('./submit.js')));
}
