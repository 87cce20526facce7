import { setTimeout as delay } from 'node:timers/promises';
import type { Pagination } from './types.js';

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface WalkOptions {
  startPage?: number;
  /** Pages in flight at once (page 1 is always fetched alone first). */
  concurrency?: number;
  /** Stop after this many items. */
  limit?: number;
  signal?: AbortSignal;
  /** Told after each page is emitted, in order (progress). */
  onPage?: (page: number, pagination: Pagination, itemsSoFar: number) => void;
  /**
   * Adapts the pages in flight to the server (429/503 lower it, calm raises
   * it); its `max` replaces `concurrency`. Without it the window is fixed.
   */
  adaptive?: AdaptiveConcurrency;
}

export interface AdaptiveConcurrencyOptions {
  /** The ceiling (--concurrency); also where it starts. */
  max: number;
  /** Where it starts, if lower than max. */
  initial?: number;
  now?: () => number;
  /** Told whenever the limit changes (debug log). */
  onChange?: (limit: number, why: 'congestion' | 'calm') => void;
}

/**
 * AIMD (additive increase, multiplicative decrease) for the page walker, as
 * TCP does for its window: the server's rate limits are unknown, so listen to
 * it. A 429 or 503 halves the limit (never below 1) and pauses new requests
 * for the server's Retry-After (or the retry's back-off); the congestion
 * signals of requests that were already in flight during that pause count
 * once. Each page that arrives while calm raises the limit by 1/limit, so
 * +1 per round trip of a full window, never above `max`.
 */
export class AdaptiveConcurrency {
  readonly max: number;
  private value: number;
  private pausedUntil = 0;
  private readonly now: () => number;
  private readonly onChange?: AdaptiveConcurrencyOptions['onChange'];

  constructor(opts: AdaptiveConcurrencyOptions) {
    this.max = Math.max(1, Math.floor(opts.max));
    this.value = Math.min(this.max, Math.max(1, opts.initial ?? this.max));
    this.now = opts.now ?? Date.now;
    this.onChange = opts.onChange;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.max(1, Math.floor(this.value));
  }

  /** Milliseconds until new requests may start (0: now). */
  get pauseMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** The server said 429 or 503: halve, and hold new requests back for waitMs. */
  congestion(waitMs: number): void {
    const now = this.now();
    if (now < this.pausedUntil) {
      // Same burst: requests sent before the decrease report it too; count it once.
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, waitMs));
      return;
    }
    this.pausedUntil = now + Math.max(0, waitMs);
    const before = this.limit;
    this.value = Math.max(1, Math.floor(this.value / 2));
    if (this.limit !== before || before === 1) this.onChange?.(this.limit, 'congestion');
  }

  /** A page arrived. While calm (not paused), add 1/limit: +1 per full window. */
  success(): void {
    if (this.now() < this.pausedUntil || this.value >= this.max) return;
    const before = this.limit;
    this.value = Math.min(this.max, this.value + 1 / this.limit);
    if (this.limit !== before) this.onChange?.(this.limit, 'calm');
  }
}

/** Pages of ids remembered for de-duplication; items only shift to neighbouring pages. */
const DEDUPE_WINDOW_PAGES = 4;

/**
 * Walks every page in order: fetch the first page to learn totalPages, then
 * keep up to `concurrency` later pages in flight and emit them in page order.
 * Items whose id was already emitted by a recent page (data shifting between
 * requests) are skipped. Memory is bounded by the window of pages in flight.
 */
export async function* walkPages<T>(fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>, opts: WalkOptions = {}): AsyncGenerator<T> {
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  const adaptive = opts.adaptive;
  const fixed = Math.max(1, opts.concurrency ?? 1);
  const window = () => (adaptive ? adaptive.limit : fixed);
  const limit = opts.limit ?? Infinity;
  const recent: Set<string>[] = [];
  let emitted = 0;
  let page = opts.startPage ?? 1;
  let lastPage = page;
  const inflight = new Map<number, Promise<Page<T>>>();
  let nextToRequest = page + 1;
  const request = (n: number) => {
    const p = fetchPage(n, signal);
    if (adaptive) p.then(() => adaptive.success(), () => undefined);
    p.catch(() => undefined); // awaited in order below; avoid unhandled rejections meanwhile
    inflight.set(n, p);
  };
  try {
    let current = await fetchPage(page, signal);
    adaptive?.success();
    for (;;) {
      lastPage = Math.max(lastPage, current.pagination.totalPages ?? page, current.pagination.hasNextPage ? page + 1 : page);
      const ids = new Set<string>();
      for (const item of current.data) {
        const id = (item as { id?: unknown })?.id;
        if (typeof id === 'string') {
          if (recent.some((s) => s.has(id)) || ids.has(id)) continue;
          ids.add(id);
        }
        if (emitted >= limit) return;
        emitted++;
        yield item;
      }
      recent.push(ids);
      if (recent.length > DEDUPE_WINDOW_PAGES) recent.shift();
      opts.onPage?.(page, current.pagination, emitted);
      if (emitted >= limit || current.data.length === 0 || page >= lastPage) return;
      page += 1;
      if (!inflight.has(page)) {
        // Backing off after a 429/503: the page we need waits for the pause too.
        const pause = adaptive?.pauseMs ?? 0;
        if (pause > 0) await delay(pause, undefined, { signal });
        request(page);
        nextToRequest = Math.max(nextToRequest, page + 1);
      }
      const next = inflight.get(page)!;
      inflight.delete(page);
      // Keep the window full while we wait for the page we need next (not while backing off).
      if (!adaptive || adaptive.pauseMs === 0) {
        while (nextToRequest <= lastPage && inflight.size < window() - 1) request(nextToRequest++);
      }
      current = await next;
    }
  } finally {
    controller.abort();
  }
}
