// Bench only (`npm run bench`, walk): the page walk with every integrity check
// taken out, so the bench can measure what the checks cost. test/bench/run.js
// builds a second CLI in which employees list imports this module instead of
// src/api/pages.ts: first page, then pages 2..totalPages through the same
// mapOrdered window, every row handed on, nothing compared, no id set, no
// re-reads. Never part of the product.
import { mapOrdered } from '../../src/concurrency.js';
import type { Page, WalkOptions } from '../../src/api/pages.js';


export async function* walkPageBatches<T>(fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>, opts: WalkOptions = {}): AsyncGenerator<T[]> {
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  const adaptive = opts.adaptive;
  const window = () => (adaptive ? adaptive.limit : Math.max(1, opts.concurrency ?? 1));
  const f = opts.findings!;
  const start = opts.startPage ?? 1;
  try {
    const first = await fetchPage(start, signal);
    f.firstTotal = f.lastTotal = first.pagination.totalItems;
    f.pageSize = first.pagination.pageSize;
    f.emitted += first.data.length;
    opts.onPage?.(start, first.pagination, f.emitted);
    if (first.data.length > 0) yield first.data;
    const pages = Array.from({ length: Math.max(0, first.pagination.totalPages - start) }, (_, i) => start + 1 + i);
    let page = start;
    for await (const answer of mapOrdered(pages, { limit: window, pauseMs: () => adaptive?.pauseMs ?? 0, signal }, (n, _i, s) => fetchPage(n, s))) {
      page++;
      f.emitted += answer.data.length;
      opts.onPage?.(page, answer.pagination, f.emitted);
      if (answer.data.length > 0) yield answer.data;
    }
    f.complete = true;
  } finally {
    controller.abort();
  }
}
