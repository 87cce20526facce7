// `employees list --search`: the API has no name search, so every page of the
// walk is filtered here, on the client.
import { foldText } from '../text/fold.js';

/** The fields searched, in the order people think of them. */
export const SEARCH_FIELDS = ['fullName', 'displayName', 'workEmail', 'employeeCode'] as const;

/** A test for one employee: the folded text occurs in one of SEARCH_FIELDS (case and accents ignored). */
export function employeeMatcher(text: string): (employee: unknown) => boolean {
  const needle = foldText(text);
  return (employee) => {
    if (employee === null || typeof employee !== 'object') return false;
    const e = employee as Record<string, unknown>;
    for (const f of SEARCH_FIELDS) {
      const v = e[f];
      if (typeof v === 'string' && foldText(v).includes(needle)) return true;
    }
    return false;
  };
}

export interface SearchCount {
  /** Employees looked at (every page read so far). */
  searched: number;
  matched: number;
}

/**
 * The pages of a walk, each cut to its matches (pages with none are skipped),
 * stopping after `limit` matches. `count` is kept up to date for the summary.
 */
export async function* searchBatches<T>(pages: AsyncIterable<T[]>, matches: (item: T) => boolean, count: SearchCount, limit = Infinity): AsyncGenerator<T[]> {
  for await (const page of pages) {
    count.searched += page.length;
    let found = page.filter(matches);
    if (count.matched + found.length > limit) found = found.slice(0, limit - count.matched);
    count.matched += found.length;
    if (found.length > 0) yield found;
    if (count.matched >= limit) return;
  }
}
