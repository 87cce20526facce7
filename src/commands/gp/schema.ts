// `partner gp schema`: the form of a legal entity (run: ./schema.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { text } from '../../flags.js';

export const schema = defineCommand({
  name: 'schema',
  summary: 'show the form of a legal entity: its sections and fields (table) or the schema itself (-o json)',
  flags: {
    entity: text('legal entity name (required)', { placeholder: 'name' }),
  },
  output: { formats: ['table', 'json'], fields: false },
  refine: (o) => {
    if (o.entity === undefined) throw new UsageError("required option '--entity <name>' not specified", 'For example: partner gp schema --entity "Acme Deutschland GmbH"', 'MISSING_OPTION');
    return { entity: o.entity };
  },
  details: 'JSON (-o json, or piped) is the document exactly as the server sent it.',
  examples: ['partner gp schema --entity "Acme Deutschland GmbH"', 'partner gp schema --entity "Acme India Pvt Ltd" -o json > schema.json'],
  load: () => import('./schema.run.js'),
});
