// `partner gp create`: a GP employee from the entity's form (run: ./create.run.ts).
import { defineCommand } from '../../command.js';
import { bool, path, repeated, text } from '../../flags.js';
import { parseSetFlag } from '../../forms/set-flag.js';

export const create = defineCommand({
  name: 'create',
  summary: "create a GP employee: an interactive wizard built from the entity's form, or values from a file / --set",
  flags: {
    entity: text('legal entity the employee is hired by (asked on a terminal when missing)', { placeholder: 'name' }),
    fromFile: path('JSON values shaped like the schema, sections nested ("-" reads stdin); no prompts'),
    set: repeated('one value, typed by the schema (repeatable); no prompts', 'section.field=value', (v) => parseSetFlag(v)),
    dryRun: bool('validate and print both request bodies (JSON) without sending'),
    resume: bool('continue from the saved draft of this entity'),
  },
  output: { formats: ['table', 'json'] },
  refine: (o) => ({ entity: o.entity, fromFile: o.fromFile, sets: o.set, dryRun: o.dryRun, resume: o.resume, output: o.output, fields: o.fields, jq: o.jq, quiet: o.quiet, csvRaw: o.csvRaw }),
  details: `Answers are saved as a draft (config dir, mode 0600) after every question; Ctrl-C keeps it and --resume continues. A successful submit deletes it.
The non-dynamic sections are POSTed to /v1/employees/gp-employments, then the dynamic sections are PATCHed to the new employee's dynamic-details.
The result (or, with --dry-run, the request bodies) is printed as a table on a terminal and as JSON when piped.`,
  examples: [
    'partner gp create --entity "Acme Deutschland GmbH"',
    'partner gp create --entity "Acme Deutschland GmbH" --resume',
    'partner gp create --entity "Acme Deutschland GmbH" --from-file values.json --dry-run',
  ],
  load: () => import('./create.run.js'),
});
