// `partner dynamic-details submit`: the dynamic sections of an employee's form (run: ./submit.run.ts).
import { defineCommand } from '../../command.js';
import { arg, bool, custom, path, repeated } from '../../flags.js';
import { draftIdOf } from '../../forms/draft-id.js';
import { UsageError } from '../../errors.js';
import { parseSetFlag } from '../../forms/set-flag.js';

export const submit = defineCommand({
  name: 'submit',
  summary: "ask (or take from a file / --set) the dynamic sections of the employee's form and PATCH them",
  args: { employee: arg.required('employee id (uuid) or employee code') },
  flags: {
    fromFile: path('JSON values of the dynamic sections, nested by section ("-" reads stdin); no prompts'),
    set: repeated('one value, typed by the schema; no prompts', 'section.field=value', (v) => parseSetFlag(v)),
    resume: bool('continue the saved draft of this employee (kept when a submit failed; on a terminal, pick one when there are several)'),
    draft: custom('continue this draft (its id, from `partner drafts list`); implies --resume', 'id', (raw, name) => draftIdOf(raw, name)),
    dryRun: bool('validate and print the request body (JSON) without sending'),
    bodyFile: path('send this hand-written PATCH body (JSON, "-" reads stdin) as it is, after showing it; for any server'),
    yes: bool('with --body-file: send without asking'),
    reveal: bool('show the values of secret fields (tax ids, account numbers…) in the dry run and the body shown, instead of ********'),
  },
  refine: (o) => {
    const resume = o.resume || o.draft !== undefined;
    if (o.bodyFile !== undefined && (o.fromFile !== undefined || o.set.length > 0 || resume)) {
      throw new UsageError('--body-file sends a hand-written body as it is; it cannot be combined with --from-file, --set, --resume or --draft', undefined, 'INVALID_OPTION');
    }
    if (o.yes && o.bodyFile === undefined) throw new UsageError('--yes goes with --body-file', undefined, 'INVALID_OPTION');
    return { employee: o.employee, fromFile: o.fromFile, sets: o.set, resume, draft: o.draft, dryRun: o.dryRun, bodyFile: o.bodyFile, yes: o.yes, reveal: o.reveal };
  },
  details: `The employee's legal entity is read from their employment section, and only the dynamic sections of that entity's form are asked (those listed in x-dynamic-sections or marked x-submit: "dynamic-details").
An employee code must match exactly, case included (a code differing only in case is suggested, never used); a code or id that names no employee of your company exits 5 (EMPLOYEE_NOT_FOUND) before anything is sent.
Drafts and numbers work as in \`partner gp create\`: see its help.`,
  examples: [
    'partner dynamic-details submit ACME-00042',
    'partner dynamic-details submit ACME-00042 --resume',
    'partner dynamic-details submit ACME-00042 --from-file legal.json --dry-run',
    'partner dynamic-details submit ACME-00042 --body-file patch.json --yes',
  ],
  // --dry-run prints the body as JSON: its errors are then JSON for a script too (the output contract).
  jsonFlag: 'dryRun',
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./submit.run.js'),
});
