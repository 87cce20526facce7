import type { Context } from '../../context.js';
import { offboardingTracker, onboardingTracker, type TrackerQuery } from '../../api/employees.js';
import { isEmployee } from '../../api/resolve-employee.js';
import type { OptionsOf } from '../../command.js';
import type { onboarding } from './onboarding.js';
import type { TrackerKind } from './tracker.js';
import type { Column } from '../../output/table.js';
import { writeList, type ListSpec } from '../../output/writer.js';
import { countOf } from '../../text/count.js';
import { jsonOf } from '../../output/depth.js';
import { isScalar } from '../../json/lossless-number.js';

export type TrackerOptions = OptionsOf<typeof onboarding>;

/** "2: Contract, ID copy"; "0" when none are pending; a dash when the server sent none or something else. */
export function pendingDocumentsText(item: unknown): string | undefined {
  const docs = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).pendingDocuments : undefined;
  if (!Array.isArray(docs)) return docs === undefined || docs === null ? undefined : String(docs);
  if (docs.length === 0) return '0';
  return `${docs.length}: ${docs.map((d) => (isScalar(d) ? String(d) : jsonOf(d, 'pendingDocuments'))).join(', ')}`;
}

// What people read first at a terminal: the code, the stage (an enum, never cut) and the
// pending documents. The 36-character id goes first when the width runs out (it is named
// in the hidden-columns note, and -o csv or --fields id,… show it).
const BASE_COLUMNS: Column[] = [
  { key: 'employeeCode', header: 'CODE', kind: 'key' },
  { key: 'stage', header: 'STAGE', kind: 'short' },
];
const PENDING_COLUMN: Column = { key: 'pendingDocuments', header: 'PENDING DOCUMENTS', value: pendingDocumentsText, kind: 'free', priority: 2 };
const ID_COLUMN: Column = { key: 'id', header: 'ID', kind: 'key', priority: 1 };

export function trackerSpec(kind: TrackerKind): ListSpec {
  const offboarding = kind === 'offboarding';
  return {
    columns: [...BASE_COLUMNS, ...(offboarding ? [PENDING_COLUMN] : []), ID_COLUMN],
    // Every field of the spec's tracker item, in spec order; CSV joins the document names with "; ".
    csvColumns: ['id', 'employeeCode', 'stage', ...(offboarding ? ['pendingDocuments'] : [])].map((key) => ({ key })),
    idField: 'id',
  };
}

/**
 * The items of the employee the filters name, and no one else's: the filters
 * are sent, and the answer checked again by the one rule of the resolver (a
 * server that ignored them would otherwise list every employee as theirs).
 */
export function onlyNamed(items: unknown[], query: TrackerQuery, ctx: Pick<Context, 'log'>): unknown[] {
  const named = { id: query.employeeId, code: query.employeeCode };
  if (named.id === undefined && named.code === undefined) return items;
  const kept = items.filter((item) => isEmployee(item, named));
  const dropped = items.length - kept.length;
  if (dropped > 0) ctx.log.warn(`The server sent ${countOf(dropped, 'item')} for other employees than the one named; ${dropped === 1 ? 'it is' : 'they are'} left out.`);
  return kept;
}

export async function run(opts: TrackerOptions, ctx: Context): Promise<void> {
  const output = opts.out;
  const http = await ctx.http();
  const answer: unknown[] = opts.kind === 'onboarding' ? await onboardingTracker(http, opts.query) : await offboardingTracker(http, opts.query);
  const items = onlyNamed(answer, opts.query, ctx);
  const spec = trackerSpec(opts.kind);
  if (opts.changes) return (await import('./tracker-changes.run.js')).trackerChanges(opts, opts.changes, ctx, items, spec);
  spec.footer = () => `${countOf(items.length, 'employee')} in ${opts.kind}`;
  await writeList(ctx.io, ctx.io.stdout, items, spec, output);
}
