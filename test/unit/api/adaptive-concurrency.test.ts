import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../../src/api/adaptive-concurrency.js';
import { walkPages, type Page } from '../../../src/api/pages.js';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('AdaptiveConcurrency', () => {
  it('starts at max and never goes above it while calm', () => {
    const c = new AdaptiveConcurrency({ max: 8 });
    expect(c.limit).toBe(8);
    for (let i = 0; i < 100; i++) c.success();
    expect(c.limit).toBe(8);
  });

  it('halves on congestion, never below 1, and pauses for the wait', () => {
    const t = clock();
    const changes: [number, string][] = [];
    const c = new AdaptiveConcurrency({ max: 8, now: t.now, onChange: (n, why) => changes.push([n, why]) });
    c.congestion(1000);
    expect(c.limit).toBe(4);
    expect(c.pauseMs).toBe(1000);
    t.advance(1000);
    c.congestion(10);
    expect(c.limit).toBe(2);
    t.advance(10);
    c.congestion(10);
    t.advance(10);
    c.congestion(10);
    expect(c.limit).toBe(1);
    expect(changes.map((x) => x[0])).toEqual([4, 2, 1, 1]);
    expect(changes.every((x) => x[1] === 'congestion')).toBe(true);
  });

  it('counts a burst of 429s from requests already in flight once', () => {
    const t = clock();
    const c = new AdaptiveConcurrency({ max: 16, now: t.now });
    for (let i = 0; i < 8; i++) c.congestion(500);
    expect(c.limit).toBe(8);
    t.advance(200);
    c.congestion(2000); // still in the same pause: extends it, no second halving
    expect(c.limit).toBe(8);
    expect(c.pauseMs).toBe(2000);
  });

  it('raises additively once calm: +1 per full window of pages, up to max', () => {
    const t = clock();
    const c = new AdaptiveConcurrency({ max: 8, now: t.now });
    c.congestion(100);
    c.congestion(100);
    expect(c.limit).toBe(4);
    // Pages that arrive during the pause do not raise it.
    for (let i = 0; i < 10; i++) c.success();
    expect(c.limit).toBe(4);
    t.advance(100);
    for (let i = 0; i < 4; i++) c.success();
    expect(c.limit).toBe(5);
    for (let i = 0; i < 5; i++) c.success();
    expect(c.limit).toBe(6);
    for (let i = 0; i < 100; i++) c.success();
    expect(c.limit).toBe(8);
  });

  it('can start below max', () => {
    expect(new AdaptiveConcurrency({ max: 32, initial: 4 }).limit).toBe(4);
    expect(new AdaptiveConcurrency({ max: 2, initial: 9 }).limit).toBe(2);
  });
});

/** A fake server: counts requests in flight; the pages listed in `busy` answer "429" once (reported through the limiter, as HttpClient's onRetry does). */
function server(total: number, pageSize: number, adaptive: AdaptiveConcurrency, busy: Set<number>) {
  let inFlight = 0;
  const peaks: number[] = [];
  const fetchPage = async (page: number): Promise<Page<{ id: string }>> => {
    inFlight++;
    peaks.push(inFlight);
    try {
      await new Promise((r) => setTimeout(r, 2));
      if (busy.delete(page)) {
        adaptive.congestion(5); // the retry waits, then succeeds
        await new Promise((r) => setTimeout(r, 5));
      }
      const totalPages = Math.ceil(total / pageSize);
      const data = Array.from({ length: Math.min(pageSize, total - (page - 1) * pageSize) }, (_, i) => ({ id: `id-${(page - 1) * pageSize + i}` }));
      return { data, pagination: { currentPage: page, pageSize, totalPages, totalItems: total, hasNextPage: page < totalPages, hasPreviousPage: page > 1 } };
    } finally {
      inFlight--;
    }
  };
  return { fetchPage, peaks };
}

describe('walkPages with AIMD', () => {
  it('keeps every item in order and never exceeds the ceiling', async () => {
    const adaptive = new AdaptiveConcurrency({ max: 6 });
    const { fetchPage, peaks } = server(400, 10, adaptive, new Set([5, 6, 7, 20]));
    const ids: string[] = [];
    for await (const e of walkPages(fetchPage, { adaptive })) ids.push(e.id);
    expect(ids).toEqual(Array.from({ length: 400 }, (_, i) => `id-${i}`));
    expect(Math.max(...peaks)).toBeLessThanOrEqual(6);
    expect(Math.max(...peaks)).toBeGreaterThan(1);
  });

  it('sends fewer requests at once after congestion', async () => {
    const adaptive = new AdaptiveConcurrency({ max: 8 });
    const seen: number[] = [];
    // 100 pages: climbing from 4 back to 8 takes 22 calm pages, whatever the timing of the pause.
    const { fetchPage } = server(1000, 10, adaptive, new Set([2]));
    for await (const _ of walkPages(fetchPage, { adaptive, onPage: () => seen.push(adaptive.limit) })) void _;
    // Halved to 4 by the 429, then raised again as pages kept arriving.
    expect(Math.min(...seen)).toBe(4);
    expect(seen[seen.length - 1]).toBe(8);
  });
});

describe('AdaptiveConcurrency reports', () => {
  it('each whole step up while calm, as "calm", never past max; nothing at max', () => {
    const t = clock();
    const changes: [number, string][] = [];
    const c = new AdaptiveConcurrency({ max: 4, initial: 2, now: t.now, onChange: (n, why) => changes.push([n, why]) });
    for (let i = 0; i < 50; i++) c.success();
    expect(changes).toEqual([
      [3, 'calm'],
      [4, 'calm'],
    ]);
    expect(c.limit).toBe(4);
  });

  it('a congestion at 1 is still reported; a halving that keeps the limit is not reported twice', () => {
    const t = clock();
    const changes: number[] = [];
    const c = new AdaptiveConcurrency({ max: 1, now: t.now, onChange: (n) => changes.push(n) });
    c.congestion(10);
    expect(changes).toEqual([1]);
    expect(c.pauseMs).toBe(10);
    t.advance(5);
    expect(c.pauseMs).toBe(5);
    c.success();
    expect(c.limit).toBe(1);
    t.advance(100);
    c.congestion(-50);
    expect(c.pauseMs).toBe(0);
    expect(changes).toEqual([1, 1]);
  });
});
