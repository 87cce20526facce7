// An in-memory list endpoint for the page walker's unit tests: a fetchPage
// over `total` items that a test bends (items, pagination, timing) the way a
// misbehaving server would, and a walk that collects what the walker emits.
import { walkPages, type Page } from '../../src/api/pages.js';
import { judgeWalk, newFindings } from '../../src/api/walk-audit.js';

export type Item = { id: string };
export const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

export interface Fake {
  /** The items of page n (1-based), as the server would send them. */
  items?: (page: number, all: Item[]) => Item[];
  pagination?: (page: number, p: Page<Item>['pagination']) => Partial<Page<Item>['pagination']>;
  /** Milliseconds before page n is answered (default: 0-2, so pages finish out of order). */
  delay?: (page: number) => number;
}

/** An in-memory server of `total` items, `size` a page, bent by `fake`; `log` is every page asked for. */
export function server(total: number, size: number, fake: Fake = {}) {
  const all = Array.from({ length: total }, (_, i) => ({ id: uuid(i + 1) }));
  const log: number[] = [];
  const fetchPage = async (page: number): Promise<Page<Item>> => {
    log.push(page);
    await new Promise((r) => setTimeout(r, fake.delay ? fake.delay(page) : (page * 7) % 3));
    const data = fake.items ? fake.items(page, all) : all.slice((page - 1) * size, page * size);
    const totalPages = Math.ceil(total / size);
    const p = { currentPage: page, pageSize: size, totalPages, totalItems: total, hasNextPage: page < totalPages, hasPreviousPage: page > 1 };
    return { data, pagination: { ...p, ...fake.pagination?.(page, p) } };
  };
  return { fetchPage, log, all };
}

/** Walks every page of `fetchPage`; the ids emitted, the findings and their verdict. */
export async function walk(fetchPage: (page: number, signal: AbortSignal) => Promise<Page<Item>>, concurrency = 4, extra: { limit?: number; startPage?: number; pageSize?: number } = {}) {
  const findings = newFindings();
  const ids: string[] = [];
  for await (const item of walkPages(fetchPage, { concurrency, findings, ...extra })) ids.push(item.id);
  return { ids, findings, verdict: judgeWalk(findings) };
}
