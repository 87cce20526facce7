// The diff itself: the records of this run against the earlier ones, matched
// by id, in memory (one pass over each side; no page is read again).
import { changedPaths, cellTokens, topOf, typedTokens, type Tokens } from './compare.js';
import type { Baseline } from './baseline.js';
import { own } from '../safe-keys.js';

export type ChangeKind = 'added' | 'changed' | 'removed';

export interface ChangeCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

/** A record of the diff as printed: its change first, then its values (a removed one: its last known values). */
export type ChangeRow = Record<string, unknown>;

/**
 * `current` is this run's records by id, in the walk's order. `fields`: the
 * top-level fields --fields asked for (only they are compared).
 */
export function diffRecords(current: ReadonlyMap<string, unknown>, base: Baseline, fields?: readonly string[], rawOf?: (record: unknown) => string | undefined): { rows: ChangeRow[]; counts: ChangeCounts } {
  const tokensOf = comparer(base, fields);
  const rows: ChangeRow[] = [];
  const counts: ChangeCounts = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  for (const [id, record] of current) {
    const before = base.records.get(id);
    if (before === undefined) {
      counts.added++;
      rows.push(row('added', record));
      continue;
    }
    // The same text as before: the same values (the common case, at no cost of flattening).
    const text = rawOf?.(record);
    if (text !== undefined && base.raw?.get(id) === text) {
      counts.unchanged++;
      continue;
    }
    const changed = changedPaths(tokensOf(before), tokensOf(record), base.mode);
    if (changed.length === 0) counts.unchanged++;
    else {
      counts.changed++;
      rows.push(row('changed', record, changed));
    }
  }
  for (const [id, record] of base.records) {
    if (current.has(id)) continue;
    counts.removed++;
    rows.push(row('removed', record));
  }
  return { rows, counts };
}

function row(change: ChangeKind, record: unknown, changedFields?: string[]): ChangeRow {
  const out: ChangeRow = { change };
  if (changedFields) out.changedFields = changedFields;
  // Spread defines own properties (a "__proto__" key of the server's stays data).
  return { ...out, ...(record as object), ...out };
}

/** How one record is reduced to tokens for this baseline: typed dot paths, or the CSV file's cells. */
function comparer(base: Baseline, fields?: readonly string[]): (record: unknown) => Tokens {
  const asked = fields ? new Set(fields.map(topOf)) : undefined;
  if (base.mode === 'cell') {
    const columns = (base.columns ?? []).filter((c) => !asked || asked.has(topOf(c)));
    return (record) => cellTokens(record, columns);
  }
  let tops = base.tops;
  if (asked) tops = new Set([...(tops ?? asked)].filter((t) => asked.has(t)));
  return (record) => typedTokens(record, tops);
}

/** The companies (customerId) the records name. */
export function companiesOf(records: Iterable<unknown>): Set<string> {
  const out = new Set<string>();
  for (const r of records) {
    const c = r !== null && typeof r === 'object' ? own(r, 'customerId') : undefined;
    if (typeof c === 'string' && c !== '') out.add(c);
  }
  return out;
}
