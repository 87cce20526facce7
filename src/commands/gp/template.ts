// `partner gp template` (run: ./template.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { bool, text } from '../../flags.js';

export const template = defineCommand({
  name: 'template',
  summary: 'write a CSV template for bulk onboarding (a header of every field and a "#" row describing each), or with --values a JSON values file to fill in',
  flags: {
    entity: text('legal entity name (required)', { placeholder: 'name' }),
    values: bool('write a JSON values skeleton for --from-file instead: every field at its place, each a "<fill in: …>" placeholder saying whether it is required, its kind and its choices'),
  },
  // The template is a CSV whatever stdout is (-o json: the columns and their descriptions).
  output: { formats: ['csv', 'json'], default: 'csv', fields: false },
  refine: (o) => {
    if (o.entity === undefined) throw new UsageError("required option '--entity <name>' not specified", 'For example: partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv', 'MISSING_OPTION');
    return { entity: o.entity, values: o.values };
  },
  details: `Fill one row per employee (the "#" row is ignored), then: partner gp create --entity NAME --from-csv FILE
With --values: a JSON object {entity, section: {field: "<fill in: …>"}} (a list field holds one entry to copy). Replace the placeholders you need with values (choices by value or title); a placeholder left in is a field not given, so a required one is reported missing by name. Then: partner gp create --entity NAME --from-file FILE`,
  examples: ['partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv', 'partner gp template --entity "Acme Deutschland GmbH" --values > values.json'],
  load: () => import('./template.run.js'),
});
