// `partner drafts discard`: delete saved drafts by id, or all of them (run: ./discard.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { arg, bool, text } from '../../flags.js';
import { draftIdOf } from '../../forms/draft-id.js';

export const discard = defineCommand({
  name: 'discard',
  summary: 'delete saved drafts: by id (from `partner drafts list`), or every draft with --all',
  args: { ids: arg.rest('the ids of the drafts to delete') },
  flags: {
    all: bool('every draft (with --entity / --employee: every draft of those)'),
    entity: text('with --all: only the drafts for this legal entity', { placeholder: 'name' }),
    employee: text('with --all: only the dynamic-details drafts of this employee (id or code)', { placeholder: 'employee' }),
    yes: bool('with --all: do not ask (needed when not on a terminal)'),
  },
  needsToken: false,
  refine: (o) => {
    const ids = o.ids.map((raw) => draftIdOf(raw, '<ids>'));
    if (o.all && ids.length > 0) throw new UsageError('Pass draft ids or --all, not both', undefined, 'INVALID_OPTION');
    if (!o.all && ids.length === 0) throw new UsageError('Which drafts? Pass their ids (see `partner drafts list`) or --all', undefined, 'MISSING_ARGUMENT');
    if (!o.all && (o.entity !== undefined || o.employee !== undefined || o.yes)) throw new UsageError('--entity, --employee and --yes go with --all', undefined, 'INVALID_OPTION');
    return { ids, all: o.all, entity: o.entity, employee: o.employee, yes: o.yes };
  },
  details: `A draft id that does not exist is an error (exit 2) and nothing is deleted. With --all, partner asks on a terminal first; elsewhere it needs --yes.`,
  examples: ['partner drafts discard 1a2b3c4d', 'partner drafts discard --all --entity "Acme India Pvt Ltd" --yes'],
  load: () => import('./discard.run.js'),
});
