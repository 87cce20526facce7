import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';
import { addOutputOptions } from '../../output/options.js';

export function registerTrackers(program: Command, runtime: Runtime): void {
  const trackers = program.command('trackers').description('onboarding and offboarding stages of your employees');
  trackers.addHelpText('after', `
Examples:
  $ partner trackers onboarding
  $ partner trackers offboarding -o json`);

  const onboarding = trackerCommand(trackers, 'onboarding', 'the onboarding stage of each employee currently onboarding');
  addOutputOptions(onboarding);
  onboarding
    .addHelpText(
      'after',
      `
Only employees currently in onboarding are listed. JSON is the server's array;
CSV has the columns id, employeeCode, stage.

Examples:
  $ partner trackers onboarding
  $ partner trackers onboarding --employee-code ACME-00007 -o json
  $ partner trackers onboarding --jq '.[] | select(.stage == "DOCUMENTS_PENDING") | .employeeCode'
  $ partner trackers onboarding -q | xargs -n1 partner profile get`,
    )
    .action(lazyAction(runtime, () => import('./onboarding.js')));

  const offboarding = trackerCommand(trackers, 'offboarding', 'the offboarding stage and pending documents of each employee currently offboarding');
  addOutputOptions(offboarding);
  offboarding
    .addHelpText(
      'after',
      `
Only employees currently in offboarding are listed. The table shows pending
documents as a count and their names ("2: Contract, ID copy"); JSON keeps the
array; CSV joins the names with "; ".

Examples:
  $ partner trackers offboarding
  $ partner trackers offboarding --employee-id 3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a
  $ partner trackers offboarding -o csv > offboarding.csv
  $ partner trackers offboarding --jq '[.[] | select(.pendingDocuments | length > 0)] | length'`,
    )
    .action(lazyAction(runtime, () => import('./offboarding.js')));
}

/** A tracker subcommand with the two filters the spec gives both trackers (combined with AND). */
function trackerCommand(trackers: Command, name: string, description: string): Command {
  return trackers
    .command(name)
    .description(description)
    .option('--employee-id <uuid>', 'only this employee id')
    .option('--employee-code <code>', 'only this employee code (with --employee-id: both must match)');
}
