import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../../src/api/adaptive-concurrency.js';
import { walkPageBatches, walkPages, type Page } from '../../../src/api/pages.js';

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

describe('walkPages stops what it started', () => {
  /** Pages that answer after `ms`, or reject when their signal is aborted; records which were aborted. */
  function slowPager(total: number, pageSize: number, ms: number) {
    const aborted: number[] = [];
    const started: number[] = [];
    const answered: number[] = [];
    const fetchPage = (page: number, signal: AbortSignal): Promise<Page<{ id: string }>> =>
      new Promise((resolve, reject) => {
        started.push(page);
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          answered.push(page);
          const totalPages = Math.ceil(total / pageSize);
          resolve({
            data: Array.from({ length: Math.min(pageSize, total - (page - 1) * pageSize) }, (_, i) => ({ id: `id-${(page - 1) * pageSize + i}` })),
            pagination: { currentPage: page, pageSize, totalPages, totalItems: total, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
          });
        }, page === 1 ? 0 : ms);
        signal.addEventListener('abort', () => {
          if (settled) return;
          clearTimeout(timer);
          aborted.push(page);
          reject(new Error('aborted'));
        });
      });
    return { fetchPage, aborted, started, answered };
  }

  it('aborts the pages still in flight when the consumer stops early', async () => {
    const s = slowPager(1000, 10, 50);
    const got: string[] = [];
    for await (const x of walkPages(s.fetchPage, { concurrency: 4 })) {
      got.push(x.id);
      if (got.length === 12) break;
    }
    expect(got).toHaveLength(12);
    // Pages 1 and 2 were consumed; every page started and not yet answered when the consumer
    // stopped (those that took the freed slots) is cancelled, not left running.
    const inFlight = s.started.filter((p) => !s.answered.includes(p)).sort((a, b) => a - b);
    expect(inFlight.length).toBeGreaterThanOrEqual(3);
    expect(inFlight[0]).toBeGreaterThan(2);
    expect(s.aborted.sort((a, b) => a - b)).toEqual(inFlight);
  });

  it('refills the slots of pages that arrived together before handing on the first of them', async () => {
    // Pages 2 and 3 answer in one timers phase (two timers set at once, not two a busy machine may
    // split); 4 and 5 stay in flight. The walker takes both answers in (each freeing its slot for
    // the next request) before page 2 goes to the consumer, whose writing would otherwise keep
    // page 3 waiting, and its next request unsent, on a busy export.
    const started: number[] = [];
    const answers = new Map<number, () => void>();
    const page = (n: number): Page<{ id: string }> => ({
      data: Array.from({ length: 10 }, (_, i) => ({ id: `id-${(n - 1) * 10 + i}` })),
      pagination: { currentPage: n, pageSize: 10, totalPages: 100, totalItems: 1000, hasNextPage: true, hasPreviousPage: n > 1 },
    });
    const fetchPage = (n: number, signal: AbortSignal): Promise<Page<{ id: string }>> => {
      started.push(n);
      if (n === 1) return Promise.resolve(page(1));
      if (n <= 3) {
        return new Promise((resolve) => {
          answers.set(n, () => resolve(page(n)));
          if (n === 3) for (const answer of answers.values()) setTimeout(answer, 0);
        });
      }
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    let startedWhenPage2Came = 0;
    for await (const x of walkPages(fetchPage, { concurrency: 4 })) {
      if (x.id === 'id-10') {
        startedWhenPage2Came = started.length;
        break;
      }
    }
    // 1, 2-5, and 6-7 in the slots 2 and 3 freed; without the wait, only page 6 had started.
    expect(startedWhenPage2Came).toBe(7);
  });

  it('holds at most two answered pages beyond the window for a consumer that is behind', async () => {
    // Every page answers at once and the consumer writes slowly: the walker does not read ahead
    // of it by more than the window and two pages. Parsed pages that wait long outlive V8's minor
    // collections and fill the old generation (peak memory of a 200,000-employee export).
    const log: number[] = [];
    const fetchPage = pager(10_000, 10, log);
    let seen = 0;
    for await (const _ of walkPageBatches(fetchPage, { concurrency: 4 })) {
      await new Promise((r) => setTimeout(r, 5));
      // Pages handed on (seen), the window of 4 in flight or answered, and 2 held beyond it.
      expect(log.length).toBeLessThanOrEqual(++seen + 4 + 2);
      if (seen === 20) break;
    }
    expect(log.length).toBe(20 + 4 + 2);
  });

  it('asks for no page beyond what the limit needs', async () => {
    const s = slowPager(1000, 10, 20);
    const got = await collect(walkPages(s.fetchPage, { concurrency: 3, limit: 15 }));
    expect(got.map((x) => x.id)).toEqual(Array.from({ length: 15 }, (_, i) => `id-${i}`));
    expect(s.started.sort((a, b) => a - b)).toEqual([1, 2]);
    expect(s.aborted).toEqual([]);
  });

  it("passes the caller's abort on to every page in flight", async () => {
    const s = slowPager(1000, 10, 200);
    const controller = new AbortController();
    const walk = collect(walkPages(s.fetchPage, { concurrency: 3, signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    await expect(walk).rejects.toThrow('aborted');
    expect(s.aborted.sort((a, b) => a - b)).toEqual([2, 3, 4]);
  });
});

describe('walkPages backs off after a 429/503', () => {
  it('starts no request during the Retry-After pause, then resumes', async () => {
    const adaptive = new AdaptiveConcurrency({ max: 4 });
    const starts: { page: number; at: number }[] = [];
    let congestedAt = 0;
    const fetchPage = async (page: number): Promise<Page<{ id: string }>> => {
      starts.push({ page, at: performance.now() });
      await new Promise((r) => setTimeout(r, 5));
      if (page === 2) {
        // As HttpClient's onRetry reports a 429 with Retry-After: 0.15 s (the retry then succeeds).
        adaptive.congestion(150);
        congestedAt = performance.now();
      }
      return {
        data: Array.from({ length: 10 }, (_, i) => ({ id: `id-${(page - 1) * 10 + i}` })),
        pagination: { currentPage: page, pageSize: 10, totalPages: 12, totalItems: 120, hasNextPage: page < 12, hasPreviousPage: page > 1 },
      };
    };
    const got = await collect(walkPages(fetchPage, { adaptive }));
    expect(got).toHaveLength(120);
    const later = starts.filter((s) => s.at > congestedAt);
    expect(later.length).toBeGreaterThan(0);
    // Nothing new was sent to the rate-limited server until its pause was over.
    for (const s of later) expect(s.at - congestedAt).toBeGreaterThanOrEqual(140);
  });

  it('a fixed window (no AIMD) never pauses', async () => {
    const log: number[] = [];
    const t0 = performance.now();
    await collect(walkPages(pager(200, 10, log), { concurrency: 4 }));
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(log).toHaveLength(20);
  });
});

describe('walkPageBatches', () => {
  it("hands each page on as one batch, the page's own array when every row is new", async () => {
    const sent: { id: string }[][] = [];
    const fetchPage = async (page: number): Promise<Page<{ id: string }>> => {
      const data = Array.from({ length: page === 3 ? 5 : 10 }, (_, i) => ({ id: `id-${(page - 1) * 10 + i}` }));
      if (page === 2) data[0] = { id: 'id-0' }; // a repeat of page 1
      sent[page] = data;
      return { data, pagination: { currentPage: page, pageSize: 10, totalPages: 3, totalItems: 25, hasNextPage: page < 3, hasPreviousPage: page > 1 } };
    };
    const batches: { id: string }[][] = [];
    for await (const b of walkPageBatches(fetchPage, { concurrency: 2 })) batches.push(b);
    expect(batches.map((b) => b.length)).toEqual([10, 9, 5]);
    expect(batches[0]).toBe(sent[1]);
    // A page with a repeat skipped is a new array (what was kept for the page's own array no longer lines up).
    expect(batches[1]).not.toBe(sent[2]);
    expect(batches[1]!.map((x) => x.id)).toEqual(sent[2]!.slice(1).map((x) => x.id));
    expect(batches[2]).toBe(sent[3]);
  });

  it('never hands on an empty batch', async () => {
    const fetchPage = async (page: number): Promise<Page<{ id: string }>> => ({
      data: page === 2 ? [{ id: 'a' }] : [{ id: 'a' }],
      pagination: { currentPage: page, pageSize: 1, totalPages: 2, totalItems: 2, hasNextPage: page < 2, hasPreviousPage: page > 1 },
    });
    const batches: unknown[][] = [];
    for await (const b of walkPageBatches(fetchPage, {})) batches.push(b);
    expect(batches).toEqual([[{ id: 'a' }]]);
  });
});
