import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { list } from './list.js';
import { draftName, type Draft } from '../../forms/drafts.js';
import type { ListSpec } from '../../output/writer.js';
import { writeList } from '../../output/writer.js';
import { partnerCommand, q } from '../../text/command-line.js';
import { DRAFT_FIELDS } from './list.js';
import { whenAgo } from '../../text/when.js';

export type ListOptions = OptionsOf<typeof list>;

// On a terminal "3 min ago, 00:21" (local); JSON and CSV keep savedAt as ISO 8601 UTC.
const draftList = (now: number): ListSpec => ({
  columns: [
    { key: 'id', header: 'ID', kind: 'key' },
    { key: 'savedAt', header: 'SAVED', kind: 'short', value: (item) => whenAgo(String((item as { savedAt: string }).savedAt), now) },
    { key: 'command', header: 'COMMAND', kind: 'short' },
    { key: 'entity', header: 'ENTITY' },
    { key: 'employee', header: 'EMPLOYEE', kind: 'short', priority: 2 },
    { key: 'name', header: 'NAME' },
    { key: 'answered', header: 'ANSWERED', kind: 'short', priority: 1 },
  ],
  csvColumns: DRAFT_FIELDS.map((key) => ({ key })),
  idField: 'id',
});

/** One draft as listed: whose, the name typed, when, how many answers, the command that continues it. Never the answers themselves. */
export function draftRecord(d: Draft, ctx: Pick<Context, 'globals'>): Record<string, unknown> {
  const gp = d.kind === 'gp-create';
  return {
    id: d.id,
    command: gp ? 'gp create' : 'dynamic-details submit',
    entity: d.entity,
    employee: gp ? null : (d.employeeCode ?? d.employeeId),
    name: draftName(d.answers) || null,
    savedAt: d.savedAt,
    answered: d.asked.filter((a) => !a.includes(':')).length,
    resume: partnerCommand(ctx.globals, gp ? `gp create --draft ${d.id}` : `dynamic-details submit ${d.employeeId} --draft ${d.id}`),
  };
}

/** The drafts the filters select (--entity, --employee), newest first. */
export function selectDrafts(all: Draft[], o: { entity?: string; employee?: string }): Draft[] {
  return all.filter((d) => (o.entity === undefined || d.entity === o.entity) && (o.employee === undefined || (d.kind === 'dynamic-details' && (d.employeeId === o.employee.toLowerCase() || d.employeeCode === o.employee))));
}

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const drafts = selectDrafts((await ctx.drafts()).list(), opts);
  await writeList(ctx.io, ctx.io.stdout, drafts.map((d) => draftRecord(d, ctx)), draftList(ctx.clock.now()), opts.out);
  if (drafts.length === 0 && ctx.io.stderrIsTTY) ctx.log.info(`No saved drafts${opts.entity !== undefined ? ` for ${q(opts.entity)}` : ''}.`);
}
