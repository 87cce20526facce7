// POSTs whose answer was lost (a run killed, the connection dropped after
// the request went out): before such a row is sent again it is looked for
// in the employee list, by its work e-mail, or in a form without one by the
// person's name and start date (the list's own fields). Found once: that
// employee is the row's. Not found: the POST never took effect, so it is
// sent. Found more than once, or no way to look: not sent (it could create
// the employee twice); the operator checks.
import type { FormContext } from '../form-context.js';
import type { HttpClient } from '../../api/http.js';
import { listEmployees } from '../../api/employees.js';
import { isObj } from '../json-values.js';
import { cellValue } from './identity.js';

export interface Found {
  id: string;
  code?: string;
}

/** The list item fields a person is looked for by when the form has no work e-mail (the first two are needed). */
const PERSON_FIELDS = ['firstName', 'lastName', 'startDate'] as const;

/** What a lost POST of this row is looked for by: `mail:` its work e-mail, or `person:` its name and start date; undefined when neither. */
export function lookupKey(doc: Record<string, unknown>, workEmail: string | undefined): string | undefined {
  if (workEmail) return `mail:${workEmail.toLowerCase()}`;
  const found: Partial<Record<(typeof PERSON_FIELDS)[number], string>> = {};
  const walk = (v: unknown, depth: number): void => {
    if (!isObj(v) || depth > 4) return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && (PERSON_FIELDS as readonly string[]).includes(k)) found[k as (typeof PERSON_FIELDS)[number]] ??= cellValue(x);
      else walk(x, depth + 1);
    }
  };
  walk(doc, 0);
  if (!found.firstName || !found.lastName) return undefined;
  return `person:${JSON.stringify(PERSON_FIELDS.map((f) => found[f] ?? null))}`;
}

/** The keys of one list item: its work e-mail's, and its person's (with and without the start date). */
function keysOf(e: Record<string, unknown>): string[] {
  const text = (v: unknown) => (typeof v === 'string' ? cellValue(v) : undefined);
  const keys: string[] = [];
  const mail = text(e.workEmail);
  if (mail) keys.push(`mail:${mail.toLowerCase()}`);
  const [first, last, start] = PERSON_FIELDS.map((f) => text(e[f]));
  if (first && last) keys.push(`person:${JSON.stringify([first, last, start ?? null])}`, `person:${JSON.stringify([first, last, null])}`);
  return keys;
}

/**
 * The employees with these keys, walking the list once; each key with every
 * employee that has it (`known`: ids the journal gives other rows, left out).
 */
export async function findLost(ctx: Pick<FormContext, 'signal'>, http: HttpClient, keys: Set<string>, known: ReadonlySet<string> = new Set()): Promise<Map<string, Found[]>> {
  const found = new Map<string, Found[]>();
  if (!keys.size) return found;
  for (let page = 1; page <= 10_000; page++) {
    const res = await listEmployees(http, { page, pageSize: 100 }, ctx.signal);
    for (const e of res.data) {
      if (typeof e.id !== 'string' || known.has(e.id)) continue;
      for (const k of keysOf(e as unknown as Record<string, unknown>)) {
        if (!keys.has(k)) continue;
        const list = found.get(k) ?? [];
        list.push({ id: e.id, code: typeof e.employeeCode === 'string' ? e.employeeCode : undefined });
        found.set(k, list);
      }
    }
    if (res.data.length === 0 || !res.pagination.hasNextPage || page >= res.pagination.totalPages) break;
  }
  return found;
}
