import { setImmediate } from 'node:timers/promises';
import { mapOrdered } from '../concurrency.js';
import type { AdaptiveConcurrency } from './adaptive-concurrency.js';
import { IdSet } from './id-set.js';
import type { Pagination } from './types.js';
import { newFindings, type WalkFindings } from './walk-audit.js';
import { formatCount } from '../text/count.js';
import { isExact, LosslessNumber } from '../json/lossless-number.js';

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
  /** Told after each page is emitted, in order (progress), the page the limit was reached on included. */
  onPage?: (page: number, pagination: Pagination, itemsSoFar: number) => void;
  /**
   * Adapts the pages in flight to the server (429/503 lower it, calm raises
   * it); its `max` replaces `concurrency`. Without it the window is fixed.
   */
  adaptive?: AdaptiveConcurrency;
  /** The page size asked for (used when the server's pagination does not say). */
  pageSize?: number;
  /** Filled in with what the integrity checks found (judge it with judgeWalk when the walk ends). */
  findings?: WalkFindings;
}

/**
 * Walks every page in order: fetch the first page to learn the page count,
 * then keep up to `concurrency` later pages in flight (mapOrdered: a page that
 * arrives frees its slot at once, even while an earlier one is awaited or
 * being written) and emit them in page order. Memory is bounded by the pages
 * in flight and held for their turn (at most twice the window), plus 16
 * bytes per id for the id set.
 *
 * Integrity checks on every walk, recorded in `opts.findings`:
 * - each answer's `currentPage` must be the page asked for (read twice
 *   before giving up: a server that ignores `page` stops the walk);
 * - an empty or short page before the last is read once more, and recorded
 *   if it stays short; two pages in a row with nothing new (empty, or
 *   repeats) end the walk: the server announced more pages than it has;
 *   without totals an empty page is the end;
 * - the walk is bounded by the page count first announced (the smaller, when
 *   `totalPages` and `totalItems` disagree), grown when `totalItems` grows
 *   (at most doubled): `hasNextPage` alone never extends it, but when the
 *   last page says there is a next one, that one page is read to see;
 * - every id (a string, UUIDs in any case, or a number) is emitted at most
 *   once across the whole walk (exact id set); an item without one is counted;
 * - when `totalItems` changed during the walk, the pages read under another
 *   total are read once more, so items shifted between pages are picked up.
 * The count comparison with `totalItems` (first and last seen) is judgeWalk's.
 */
export async function* walkPages<T>(fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>, opts: WalkOptions = {}): AsyncGenerator<T> {
  for await (const rows of walkPageBatches(fetchPage, opts)) yield* rows;
}

/** What one page's answer means for the walk. */
type Step = 'next' | 'end' | 'stop';

type FetchPage<T> = (page: number, signal: AbortSignal) => Promise<Page<T>>;

/**
 * walkPages, a page at a time: each batch is the new rows of one page (never
 * empty), so a writer serialises and writes a page in one go instead of
 * awaiting every row.
 */
export async function* walkPageBatches<T>(fetchPage: FetchPage<T>, opts: WalkOptions = {}): AsyncGenerator<T[]> {
  const walker = new PageWalker(fetchPage, opts);
  try {
    yield* walker.walk();
  } finally {
    walker.stop();
  }
}

/**
 * One walk (walkPageBatches): what it has learnt of the server's pages as it
 * goes, and its steps: the first page (announce), the later ones in flight
 * (laterPages, each judged by take), and the pages read again after the
 * company changed (stalePages).
 */
class PageWalker<T> {
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  private readonly fixed: number;
  private readonly limit: number;
  private readonly start: number;
  private readonly f: WalkFindings;
  private ids!: IdSet;
  /** totalItems each page was read under (to know which to read again after a change). */
  private readonly totals = new Map<number, number | undefined>();
  private lastPage: number;
  private hardCap = Infinity;
  private announced: number | undefined;
  /** Pages page 1's totalItems made beyond the totalPages believed (they disagreed): later totals move the end by their growth only. */
  private excess = 0;
  /** The last page from which nothing was written, even when read again, and whether it was empty (two in a row end the walk). */
  private lastBarren = { page: -1, empty: false };
  /** Rows written although they had no id to check. */
  private keptWithoutId = 0;
  /** What every answer's currentPage had in common, for the message when one is for another page: the one page all named (NaN once two differ), and whether each was one less than asked. */
  private named: number | undefined;
  private oneLess = true;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly opts: WalkOptions,
  ) {
    this.signal = opts.signal ? AbortSignal.any([opts.signal, this.controller.signal]) : this.controller.signal;
    this.fixed = Math.max(1, opts.concurrency ?? 1);
    this.limit = opts.limit ?? Infinity;
    this.start = opts.startPage ?? 1;
    this.f = opts.findings ?? newFindings(this.start);
    this.f.startPage = this.start;
    this.lastPage = this.start;
  }

  /** Ends whatever is still in flight. */
  stop(): void {
    this.controller.abort();
  }

  async *walk(): AsyncGenerator<T[]> {
    const page = this.start;
    const first = await this.checked(page, await this.fetchTracked(page, this.signal));
    if (!first) return;
    this.opts.adaptive?.success();
    this.announce(first);
    const rows: T[][] = [];
    const step = await this.take(first, page, rows);
    const out = nonEmpty(rows);
    if (out.length > 0) yield out;
    if (step === 'stop') return;
    if (step === 'next' && (yield* this.laterPages(page)) === 'stop') return;
    if ((yield* this.stalePages()) === 'stop') return;
    this.f.complete = true;
  }

  /** The pages in flight at once: the adaptive window, or the fixed concurrency. */
  private readonly window = (): number => this.opts.adaptive?.limit ?? this.fixed;

  /** What page 1 announced: the page size, the total, the page count the walk is bounded by. */
  private announce(first: Page<T>): void {
    const f = this.f;
    const fp = paginationOf(first);
    f.firstTotal = totalOf(fp);
    // The page size as the server says it, or as asked when page 1 came that full (then it is known too).
    const size = positive(fp.pageSize) ?? (first.data.length === this.opts.pageSize ? this.opts.pageSize : undefined);
    // Never 0: a first page with neither pageSize nor items still divides the totals.
    f.pageSize = size ?? positive(this.opts.pageSize) ?? Math.max(1, first.data.length);
    this.ids = new IdSet(f.firstTotal);
    const pages = positive(fp.totalPages);
    const itemPages = f.firstTotal === undefined ? undefined : Math.ceil(f.firstTotal / f.pageSize);
    this.announced = pages ?? itemPages;
    // The two counts disagree (an empty list may say 0 pages or 1): the walk goes by the smaller, and it is
    // reported. Only with a known page size: a server may use another than asked for, and not say so.
    if (size !== undefined && pages !== undefined && itemPages !== undefined && pages !== Math.max(1, itemPages)) {
      f.countsDisagree = { pages, items: f.firstTotal! };
      this.announced = Math.min(pages, itemPages);
      this.excess = itemPages - this.announced;
    }
    f.announcedPages = this.announced;
    this.lastPage = Math.max(this.start, this.announced ?? this.start);
    // Growth is believed up to twice the announced walk (plus 10 pages for small ones): never endless.
    this.hardCap = this.announced === undefined ? Infinity : this.lastPage + Math.max(10, this.lastPage - this.start + 1);
  }

  /**
   * Later pages, in flight `window` at a time. The range is read lazily
   * (growth and the rows still wanted for --limit move its end); if it ran out
   * before the walk did (the company grew, or without totals, one page at a
   * time), another round picks up where it stopped. Returns how the walk ends.
   */
  private async *laterPages(firstPage: number): AsyncGenerator<T[], Step> {
    let page = firstPage;
    let step: Step = 'next';
    const rows: T[][] = [];
    while (step === 'next') {
      const wanted = () => Math.ceil((this.limit - this.f.emitted) / this.f.pageSize);
      const from = page + 1;
      const range = function* (this: PageWalker<T>) {
        for (let n = from; n <= this.lastPage && n - page <= wanted(); n++) yield n;
      }.call(this);
      // At most two answered pages wait beyond the window when the writer is behind (a fast
      // server, -o csv): a parsed page that waits long outlives two of V8's minor collections
      // and is promoted, and the old generation fills with pages already written. A -o csv walk
      // of 200,000 employees promoted 97 MB with the window's worth held (the default), 9 MB
      // with two, and was no slower at 50 ms latency (BENCHMARKS.md, memory).
      const answers = mapOrdered(range, { limit: this.window, ahead: 2, pauseMs: () => this.opts.adaptive?.pauseMs ?? 0, signal: this.signal }, (n, _i, s) => this.fetchTracked(n, s, true));
      let any = false;
      for await (const raw of answers) {
        any = true;
        page += 1;
        const answer = await this.checked(page, raw);
        if (!answer) return 'stop';
        rows.length = 0;
        step = await this.take(answer, page, rows);
        const out = nonEmpty(rows);
        // Responses that came in meanwhile are taken first (each frees its slot for the next request);
        // writing this page waits until then, so it fills time spent waiting on the server.
        await setImmediate();
        if (out.length > 0) yield out;
        if (step !== 'next') break;
      }
      if (step === 'stop' || !any) return step;
    }
    return step;
  }

  /** The company changed under the walk: read again, once, the pages read under another total. */
  private async *stalePages(): AsyncGenerator<T[], Step> {
    const f = this.f;
    const stale = [...this.totals].filter(([, t]) => t !== undefined && t !== f.lastTotal).map(([n]) => n);
    let i = 0;
    for await (const again of mapOrdered(stale, { limit: this.window, signal: this.signal }, (n, _i, s) => this.fetchTracked(n, s))) {
      const n = stale[i++]!;
      f.rereads++;
      const had = f.emitted;
      const out = this.fresh(again.data, n, true);
      f.recovered += f.emitted - had;
      if (out.length > 0) yield out;
      if (f.emitted >= this.limit) return 'stop';
    }
    return 'end';
  }

  /** Fetches a page, noting what its answer says of the walk: the latest total (by arrival, not page order), the page it names. */
  private fetchTracked(n: number, s: AbortSignal, windowed = false): Promise<Page<T>> {
    const p = this.fetchPage(n, s);
    p.then(
      (r) => {
        const pagination = paginationOf(r);
        this.f.lastTotal = totalOf(pagination) ?? this.f.lastTotal;
        const c = pagination.currentPage;
        if (c != null) {
          this.named = this.named === undefined || this.named === Number(c) ? Number(c) : NaN;
          this.oneLess &&= Number(c) === n - 1;
        }
        if (windowed) this.opts.adaptive?.success();
      },
      () => undefined,
    );
    return p;
  }

  /**
   * An item with no id to check (null, missing, neither a string nor a number,
   * or no object at all) is counted, so the verdict says at-most-once could not
   * be checked. Written (true) if it is an object on a first read; never on a
   * re-read, where nothing tells it from what was written already.
   */
  private withoutId(item: unknown, n: number, reread: boolean): boolean {
    const f = this.f;
    f.unidentified++;
    f.unidentifiedPage ??= n;
    const isObject = typeof item === 'object' && item !== null && !Array.isArray(item);
    if (!isObject) f.notObjects++;
    if (!isObject || reread) return false;
    this.keptWithoutId++;
    return true;
  }

  /**
   * The items whose id is new (counted as emitted); on a first read, the
   * others are counted as duplicates sent by page `n`. Stops at the limit.
   */
  private fresh(items: T[], n: number, reread = false): T[] {
    const f = this.f;
    const out: T[] = [];
    let dup = 0;
    for (const item of items) {
      if (f.emitted >= this.limit) break;
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id === 'string' || typeof id === 'number' || id instanceof LosslessNumber) {
        if (!this.ids.add(id)) {
          dup++;
          continue;
        }
      } else if (!this.withoutId(item, n, reread)) continue;
      f.emitted++;
      out.push(item);
    }
    if (dup > 0 && !reread) {
      f.duplicates += dup;
      if (!f.duplicatePages.includes(n)) f.duplicatePages.push(n);
    }
    // Every item new: the page's own array, so what is kept by page (json/raw-rows.ts) still applies.
    return out.length === items.length ? items : out;
  }

  /** Records the total a page was read under; a total other than the first means the company changed. */
  private noteTotal(n: number, p: Partial<Pagination>): number | undefined {
    const total = totalOf(p);
    this.totals.set(n, total);
    if (total !== undefined && this.f.firstTotal !== undefined && total !== this.f.firstTotal) this.f.changedTotal ??= { page: n, total };
    return total;
  }

  /** The page asked for, or one more read if the answer is for another page; undefined if both are. */
  private async checked(n: number, first: Page<T>): Promise<Page<T> | undefined> {
    if (pageMatches(first, n)) return first;
    const again = await this.fetchTracked(n, this.signal);
    if (pageMatches(again, n)) return again;
    const [a, b] = [first, again].map((r) => String(paginationOf(r).currentPage));
    // What was seen, and a guess only where every answer so far fits it.
    const guess = this.oneLess ? ': it seems to number pages from 0' : this.named === Number(b) ? ': it seems to ignore the page parameter' : '';
    this.f.fatal = `Asked for page ${formatCount(n)}, the server answered page ${a === b ? `${b} (twice)` : `${a}, then page ${b}`}${guess}`;
    return undefined;
  }

  /**
   * The last page announced said a next one follows: read it, once. New rows
   * there mean the server's counts are short (reported, never chased further);
   * an empty page, one for another page, or a refusal (a server may answer a
   * page past its end with 404) only that the claim was wrong.
   */
  private async beyond(page: number, rows: T[][]): Promise<void> {
    const f = this.f;
    let next: Page<T>;
    try {
      next = await this.fetchTracked(page + 1, this.signal);
    } catch (err) {
      if (this.signal.aborted) throw err;
      f.nextPageClaimedAt = page;
      return;
    }
    const had = f.emitted;
    if (pageMatches(next, page + 1)) {
      this.noteTotal(page + 1, paginationOf(next));
      rows.push(this.fresh(next.data, page + 1, true));
    }
    if (f.emitted > had) f.pastEnd = { page: page + 1, rows: f.emitted - had };
    else f.nextPageClaimedAt = page;
  }

  /** Checks page `page`'s answer; `rows` gets its new rows (and a re-read's). */
  private async take(current: Page<T>, page: number, rows: T[][]): Promise<Step> {
    const f = this.f;
    const p = paginationOf(current);
    if (!this.grow(page, this.noteTotal(page, p))) return 'stop';
    // Without totals, hasNextPage is all there is (a page of repeats or an empty page ends it).
    if (this.announced === undefined && p.hasNextPage === true) this.lastPage = Math.max(this.lastPage, page + 1);
    const before = f.emitted;
    const identified = before - this.keptWithoutId;
    const unidentified = f.unidentified;
    rows.push(this.fresh(current.data, page));
    if (f.emitted >= this.limit) return this.limitReached(page, p);
    let got = current.data.length;
    if (page < this.lastPage && got < f.pageSize) {
      const again = await this.readShortAgain(current, page, rows);
      if (again === undefined) return f.emitted >= this.limit ? this.limitReached(page, p) : 'stop';
      got = again;
    }
    // Without totals nothing but new ids ends the walk: a page with none (repeats, or items without one) stops it.
    if (this.announced === undefined && current.data.length > 0 && f.emitted - this.keptWithoutId === identified) {
      f.fatal = `Page ${formatCount(page)} ${f.unidentified > unidentified ? 'had no new employee with a usable id' : 'repeated earlier pages only'}, and the server announced no page count`;
      return 'stop';
    }
    if (this.overAnnounced(page, f.emitted === before, current.data.length + got === 0)) return 'end';
    this.opts.onPage?.(page, p as Pagination, f.emitted);
    if (page >= this.lastPage) {
      if (p.hasNextPage === true) await this.beyond(page, rows);
      return f.emitted >= this.limit ? 'stop' : 'end';
    }
    if (this.announced === undefined && got === 0) return 'end'; // no totals: an empty page is the end
    return 'next';
  }

  /**
   * The limit was reached on this page: it is emitted (cut to the limit), so
   * it is told like every page emitted before it (the pagination a list
   * prints is that of the last page read, with or without --limit).
   */
  private limitReached(page: number, p: Partial<Pagination>): Step {
    this.opts.onPage?.(page, p as Pagination, this.f.emitted);
    return 'stop';
  }

  /** Moves the walk's end by the growth of the total a page was read under; false past the hard cap (the walk stops). */
  private grow(page: number, total: number | undefined): boolean {
    const grown = total === undefined ? 0 : Math.ceil(total / this.f.pageSize) - this.excess;
    if (grown > this.hardCap) {
      this.f.fatal = `The server's page count kept growing (from ${String(this.announced)} to ${formatCount(grown)} pages): stopped at page ${formatCount(page)}`;
      return false;
    }
    this.lastPage = Math.max(this.lastPage, grown);
    return true;
  }

  /**
   * A page short before the last: items moved, or the server lost them. One
   * more read; its new rows go to `rows`. The re-read's item count, or
   * undefined when the walk stops (the limit, or an answer for another page).
   */
  private async readShortAgain(current: Page<T>, page: number, rows: T[][]): Promise<number | undefined> {
    const f = this.f;
    f.rereads++;
    const again = await this.checked(page, await this.fetchTracked(page, this.signal));
    if (!again) return undefined;
    const againTotal = this.noteTotal(page, paginationOf(again));
    const had = f.emitted;
    rows.push(this.fresh(again.data, page, true));
    f.recovered += f.emitted - had;
    if (f.emitted >= this.limit) return undefined;
    const got = again.data.length;
    // Without totals an empty page is the end (take), although this one said a next page follows.
    if (this.announced === undefined && current.data.length + got === 0) f.emptyEnd = page;
    // Still short with the same total: the server lost them (a changed total is drift, judged as such).
    else if (got < f.pageSize && againTotal === f.firstTotal) f.shortPages.push({ page, got, expected: f.pageSize });
    return got;
  }

  /**
   * Nothing written from this page (empty, or repeats only, even when read
   * again), nor from the one before: the server announced more pages than it
   * has. Stopped (true), rather than read every page up to a count that may be
   * a billion (the two are no short pages then).
   */
  private overAnnounced(page: number, barren: boolean, empty: boolean): boolean {
    if (this.announced === undefined || !barren) return false;
    if (this.lastBarren.page === page - 1) {
      this.f.overAnnounced = { page: page - 1, empty: empty && this.lastBarren.empty };
      this.f.shortPages = this.f.shortPages.filter((s) => s.page < page - 1);
      return true;
    }
    this.lastBarren = { page, empty };
    return false;
  }
}

/** The rows of one page and of its re-reads, as one batch. */
function nonEmpty<T>(rows: T[][]): T[] {
  return rows.length === 1 ? rows[0]! : rows.flat();
}

/** The answer's pagination; an answer without one (a bad server) counts as saying nothing. */
function paginationOf(r: Page<unknown>): Partial<Pagination> {
  return r.pagination ?? {};
}

function totalOf(p: Partial<Pagination>): number | undefined {
  const t = countOf(p.totalItems);
  return Number.isInteger(t) && (t as number) >= 0 ? (t as number) : undefined;
}

function positive(x: unknown): number | undefined {
  const n = countOf(x);
  return Number.isInteger(n) && (n as number) > 0 ? (n as number) : undefined;
}

/** A count as sent: 100.0 is 100; one a double cannot hold (1e400, 9007199254740993) is no count, as if absent. */
function countOf(x: unknown): unknown {
  return x instanceof LosslessNumber && isExact(x.source) ? Number(x.source) : x;
}

/** An answer without currentPage is taken on trust; one for another page is not. */
function pageMatches(r: Page<unknown>, n: number): boolean {
  const c = paginationOf(r).currentPage;
  return c == null || Number(c) === n;
}
