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
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const limit = opts.limit ?? Infinity;
  const recent: Set<string>[] = [];
  let emitted = 0;
  let page = opts.startPage ?? 1;
  let lastPage = page;
  const inflight = new Map<number, Promise<Page<T>>>();
  let nextToRequest = page + 1;
  const request = (n: number) => {
    const p = fetchPage(n, signal);
    p.catch(() => undefined); // awaited in order below; avoid unhandled rejections meanwhile
    inflight.set(n, p);
  };
  try {
    let current = await fetchPage(page, signal);
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
        request(page);
        nextToRequest = Math.max(nextToRequest, page + 1);
      }
      const next = inflight.get(page)!;
      inflight.delete(page);
      // Keep the window full while we wait for the page we need next.
      while (nextToRequest <= lastPage && inflight.size < concurrency - 1) request(nextToRequest++);
      current = await next;
    }
  } finally {
    controller.abort();
  }
}
