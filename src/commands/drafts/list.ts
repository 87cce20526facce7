// `partner drafts list`: the saved drafts, newest first (run: ./list.run.ts).
import { defineCommand } from '../../command.js';
import { text } from '../../flags.js';

/** The fields of one draft as listed (./list.run.ts draftRecord). */
export const DRAFT_FIELDS = ['id', 'command', 'entity', 'employee', 'name', 'savedAt', 'answered', 'resume', 'damaged'] as const;

export const list = defineCommand({
  name: 'list',
  summary: 'list the saved drafts (newest first): whose, the name typed, when, and the command that continues each',
  flags: {
    entity: text('only the drafts for this legal entity', { placeholder: 'name' }),
    employee: text('only the dynamic-details drafts of this employee (id or code)', { placeholder: 'employee' }),
  },
  output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: DRAFT_FIELDS },
  needsToken: false,
  details: `A draft belongs to the run that made it: a wizard saves its answers after every question, and a run with --from-file or --set that fails keeps its values as a draft of its own. Several drafts for one entity can exist side by side; continue one with \`--draft ID\` (or --resume, which asks which one on a terminal), and remove the ones you no longer need with \`partner drafts discard\`.
Secret answers are never kept in drafts. A draft file that cannot be read (cut short, edited, too large) is listed as damaged, with why: discard it with \`partner drafts discard ID\`. Each record: {id, command, entity, employee, name, savedAt, answered, resume, damaged}; -q prints the ids.`,
  examples: ['partner drafts list', 'partner drafts list --entity "Acme India Pvt Ltd"', 'partner drafts list -o json'],
  load: () => import('./list.run.js'),
});
