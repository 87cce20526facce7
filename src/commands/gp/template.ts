// `partner gp template` (run: ./template.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { text } from '../../flags.js';

export const template = defineCommand({
  name: 'template',
  summary: 'write a CSV template for bulk onboarding: a header of every field (dot paths) and a "#" row describing each',
  flags: {
    entity: text('legal entity name (required)', { placeholder: 'name' }),
  },
  // The template is a CSV whatever stdout is (-o json: the columns and their descriptions).
  output: { formats: ['csv', 'json'], default: 'csv', fields: false },
  refine: (o) => {
    if (o.entity === undefined) throw new UsageError("required option '--entity <name>' not specified", 'For example: partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv', 'MISSING_OPTION');
    return { entity: o.entity };
  },
  details: `Fill one row per employee (the "#" row is ignored), then: partner gp create --entity NAME --from-csv FILE`,
  examples: ['partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv'],
  load: () => import('./template.run.js'),
});
