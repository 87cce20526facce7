import { describe, expect, it } from 'vitest';
import { walkPages, type Page } from '../../../src/api/pages.js';

function pager(total: number, pageSize: number, log: number[] = [], shift?: (page: number) => number) {
  const items = Array.from({ length: total }, (_, i) => ({ id: `id-${i}` }));
  return async (page: number): Promise<Page<{ id: string }>> => {
    log.push(page);
    const offset = (page - 1) * pageSize - (shift?.(page) ?? 0);
    const totalPages = Math.ceil(total / pageSize);
    // Later pages answer sooner, so out-of-order completion is exercised.
    await new Promise((r) => setTimeout(r, Math.max(0, 20 - page)));
    return {
      data: items.slice(Math.max(0, offset), offset + pageSize),
      pagination: { currentPage: page, pageSize, totalPages, totalItems: total, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
    };
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('walkPages', () => {
  it('emits every item once, in order, with concurrency', async () => {
    const log: number[] = [];
    const got = await collect(walkPages(pager(95, 10, log), { concurrency: 4 }));
    expect(got.map((x) => x.id)).toEqual(Array.from({ length: 95 }, (_, i) => `id-${i}`));
    expect(log[0]).toBe(1);
    expect([...log].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('stops at the limit without fetching everything', async () => {
    const log: number[] = [];
    const got = await collect(walkPages(pager(1000, 10, log), { concurrency: 1, limit: 15 }));
    expect(got).toHaveLength(15);
    expect(log).toEqual([1, 2]);
  });

  it('skips items repeated across pages when data shifts', async () => {
    // Page 3 starts two items early, as after two deletions.
    const got = await collect(walkPages(pager(30, 10, [], (p) => (p === 3 ? 2 : 0)), { concurrency: 2 }));
    const ids = got.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(28);
  });

  it('handles an empty result', async () => {
    expect(await collect(walkPages(pager(0, 10), {}))).toEqual([]);
  });

  it('propagates a failing page', async () => {
    const fetchPage = async (page: number): Promise<Page<{ id: string }>> => {
      if (page === 2) throw new Error('boom');
      return pager(50, 10)(page);
    };
    await expect(collect(walkPages(fetchPage, { concurrency: 3 }))).rejects.toThrow('boom');
  });
});
