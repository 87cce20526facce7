import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { list } from './list.js';
import { draftName, type DamagedDraft, type Draft } from '../../forms/drafts.js';
import type { ListSpec } from '../../output/writer.js';
import { saysEmpty, writeList } from '../../output/writer.js';
import { partnerCommand, q } from '../../text/command-line.js';
import { DRAFT_FIELDS } from './list.js';
import { whenAgo } from '../../text/when.js';

export type ListOptions = OptionsOf<typeof list>;

/** The NAME cell: the name typed, or for a draft that cannot be read, why. */
function nameCell(item: unknown): string {
  const r = item as { name: string | null; damaged: string | null };
  return r.damaged !== null ? `(damaged: ${r.damaged})` : (r.name ?? '');
}

// On a terminal "3 min ago, 00:21" (local); JSON and CSV keep savedAt as ISO 8601 UTC.
const draftList = (now: number): ListSpec => ({
  columns: [
    { key: 'id', header: 'ID', kind: 'key' },
    { key: 'savedAt', header: 'SAVED', kind: 'short', value: (item) => whenAgo(String((item as { savedAt: string }).savedAt), now) },
    { key: 'command', header: 'COMMAND', kind: 'short' },
    { key: 'entity', header: 'ENTITY' },
    { key: 'employee', header: 'EMPLOYEE', kind: 'short', priority: 2 },
    { key: 'name', header: 'NAME', value: nameCell },
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
    damaged: null,
  };
}

/** A draft file that cannot be read, as listed: what its name says, why it is damaged, and nothing to continue. */
export function damagedRecord(d: DamagedDraft): Record<string, unknown> {
  return { id: d.id, command: d.kind === 'gp-create' ? 'gp create' : 'dynamic-details submit', entity: null, employee: null, name: null, savedAt: d.savedAt, answered: null, resume: null, damaged: d.damaged };
}

/** The drafts the filters select (--entity, --employee), newest first. */
export function selectDrafts(all: Draft[], o: { entity?: string; employee?: string }): Draft[] {
  return all.filter((d) => (o.entity === undefined || d.entity === o.entity) && (o.employee === undefined || (d.kind === 'dynamic-details' && (d.employeeId === o.employee.toLowerCase() || d.employeeCode === o.employee))));
}

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const found = (await ctx.drafts()).scan();
  const drafts = selectDrafts(found.drafts, opts);
  // A damaged draft's entity and employee are unknown: it is listed unless a filter asks for them.
  const damaged = opts.entity === undefined && opts.employee === undefined ? found.damaged : [];
  const none = `No saved drafts${opts.entity !== undefined ? ` for ${q(opts.entity)}` : ''}.`;
  // A table says it in place of "No results."; other formats print their empty document, and a person at a terminal is told on stderr.
  await writeList(ctx.io, ctx.io.stdout, [...drafts.map((d) => draftRecord(d, ctx)), ...damaged.map(damagedRecord)], { ...draftList(ctx.clock.now()), empty: () => none }, opts.out);
  if (damaged.length) ctx.log.warn(`${damaged.length === 1 ? 'A draft' : `${damaged.length} drafts`} cannot be read (listed as damaged); discard with: partner drafts discard ${damaged.map((d) => d.id).join(' ')}`);
  if (drafts.length === 0 && damaged.length === 0 && !saysEmpty(opts.out) && ctx.io.stderrIsTTY) ctx.log.info(none);
}
