import type { Context } from '../../context.js';
import { listEmployees } from '../../api/employees.js';
import { AdaptiveConcurrency } from '../../api/adaptive-concurrency.js';
import { walkPageBatches } from '../../api/pages.js';
import type { SearchCount } from '../../api/employee-search.js';
import { newFindings, rowsOutcome, settleWalk, type WalkFindings } from '../../api/walk-audit.js';
import { CliError, InterruptedError, type ErrorProgress } from '../../errors.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { EMPLOYEE_FIELDS, PAGE_SIZE_MAX, type Employee, type EmployeePage, type Pagination } from '../../api/types.js';
import type { OptionsOf } from '../../command.js';
import type { list } from './list.js';
import { openOutputFile, type OutputFile } from '../../output/output-file.js';
import type { HttpClient } from '../../api/http.js';
import type { IO } from '../../io.js';
import { batched } from '../../output/batch.js';
import { createProgress } from '../../output/progress.js';
import type { Column } from '../../output/table.js';
import { saysEmpty, writeList, type ListSpec } from '../../output/writer.js';
import { countOf, formatCount } from '../../text/count.js';

export type ListOptions = OptionsOf<typeof list>;

// Codes, status, country and dates are never cut; free text shares the rest. Dropped first when
// even that does not fit: department, designation, country, start date.
export const EMPLOYEE_COLUMNS: Column[] = [
  { key: 'employeeCode', header: 'CODE', kind: 'key' },
  { key: 'fullName', header: 'NAME', kind: 'free' },
  { key: 'workEmail', header: 'EMAIL', kind: 'free', priority: 5 },
  { key: 'designation', header: 'DESIGNATION', kind: 'free', priority: 2 },
  { key: 'department', header: 'DEPARTMENT', kind: 'free', priority: 1 },
  { key: 'status', header: 'STATUS', kind: 'short', style: 'status' },
  { key: 'country', header: 'COUNTRY', kind: 'short', priority: 3 },
  { key: 'startDate', header: 'START', kind: 'short', priority: 4 },
];

/** What both ways of listing write to: the output's stream (a file, or stdout) and the list's layout. */
export interface ListTarget {
  http: HttpClient;
  sink: OutputFile | undefined;
  /** A file is never a terminal (opts.out's format already says so); neither are its cells. */
  io: IO;
  spec: ListSpec;
}

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const { query } = opts;
  if (query.employeeId && query.employeeCode) ctx.log.warn('Both --employee-id and --employee-code were given; the server uses --employee-id.');
  // The server's rate limits are unknown: start at --concurrency (polite by default), halve on 429/503.
  const adaptive = opts.all ? new AdaptiveConcurrency({ max: opts.concurrency, onChange: (n, why) => ctx.log.debug(`pages in flight: ${n} (${why})`) }) : undefined;
  const http = await ctx.http({
    // One connection per page in flight: node:http hands a kept connection to the next request at once.
    connections: opts.all ? opts.concurrency : 1,
    onRetry: (e) => {
      if (e.status === 429 || e.status === 503) adaptive?.congestion(e.waitMs);
    },
  });
  // --changes-since / --state: the walk collected whole, then the diff (list-changes.run.ts).
  if (opts.changes) return (await import('./list-changes.run.js')).listChanges(opts, opts.changes, ctx, http, adaptive);
  // Opened after the token check, before the first request: a bad path fails with nothing sent.
  const sink = opts.outputFile !== undefined ? await openOutputFile(opts.outputFile) : undefined;
  if (sink) ctx.onCleanup(() => sink.abort());
  const io = sink ? { ...ctx.io, stdoutIsTTY: false, columns: undefined } : ctx.io;
  const spec: ListSpec = {
    columns: EMPLOYEE_COLUMNS,
    csvColumns: EMPLOYEE_FIELDS.map((key) => ({ key })),
  };
  const target: ListTarget = { http, sink, io, spec };
  if (!opts.all) return listOnePage(opts, ctx, target);
  return listAllPages(opts, ctx, target, adaptive);
}

/** One page, its footer saying where the next is (or where the last one is, past the end). */
async function listOnePage(opts: ListOptions, ctx: Context, { http, sink, io, spec }: ListTarget): Promise<void> {
  const { query } = opts;
  const output = opts.out;
  const page: EmployeePage = await listEmployees(http, query, ctx.signal);
  const p = page.pagination;
  const items = opts.limit ? page.data.slice(0, opts.limit) : page.data;
  spec.pagination = () => p;
  const pastEnd = page.data.length === 0 && p.totalPages > 0 && (query.page ?? 1) > p.totalPages;
  // Past the last page: say where the last page is, once: a table in place of "No results." (and no
  // footer), on stderr when the output is for a script.
  if (pastEnd && !saysEmpty(output)) ctx.log.warn(`page ${query.page} is past the last page; the last page is ${formatCount(p.totalPages)} (${countOf(p.totalItems, 'employee')}).`);
  if (pastEnd) spec.empty = () => `No employees on page ${formatCount(query.page ?? 1)}; the last page is ${formatCount(p.totalPages)} (${countOf(p.totalItems, 'employee')}).`;
  spec.footer = () => {
    if (pastEnd) return undefined;
    const total = countOf(p.totalItems, 'employee');
    const next = p.hasNextPage ? ` · next: --page ${p.currentPage + 1}, or --all` : '';
    return `Page ${formatCount(p.currentPage)} of ${formatCount(Math.max(p.totalPages, 1))} · ${total}${next}`;
  };
  const count = await writeList(io, sink?.stream ?? ctx.io.stdout, items, spec, output).catch((err: unknown) => {
    throw sink?.writeError() ?? err;
  });
  await sink?.commit();
  if (sink && !output.quiet) ctx.log.info(wroteLine(count, opts.outputFile!));
}

/** A walk of every page under way: its pages, what it found, its bar, and where a failed request stopped it. */
interface EmployeeWalk {
  pages: AsyncIterable<Employee[]>;
  findings: WalkFindings;
  progress: ReturnType<typeof createProgress>;
  /** The page each failed request was for: a walk that fails says where it stopped. */
  failedPage: WeakMap<CliError, number>;
  /** The last page's total and pagination (the footer and the JSON's pagination). */
  total?: number;
  lastPagination?: unknown;
}

/** Starts the walk of every page (--all), the progress bar fed as pages come in. */
export function startWalk(opts: ListOptions, ctx: Context, target: ListTarget, adaptive: AdaptiveConcurrency | undefined): EmployeeWalk {
  const { query } = opts;
  const searching = opts.search !== undefined;
  let pagesDone = 0;
  // No bar when the rows go down a pipe: the program reading them may draw on the same terminal
  // (`| less`, `| head`), and the bar would land in its output. Not before half a second either:
  // a short export shows none.
  const progress = createProgress(ctx.io, opts.progress && !(ctx.io.stdoutIsPipe && !target.sink), { delayMs: 500 });
  const startPage = query.page ?? 1;
  const failedPage = new WeakMap<CliError, number>();
  const fetchPage = async (page: number, signal: AbortSignal): Promise<EmployeePage> => {
    try {
      return await listEmployees(target.http, { ...query, page }, signal);
    } catch (err) {
      if (err instanceof CliError) failedPage.set(err, page);
      throw err;
    }
  };
  // Its pages are set just below: the walk is lazy, and its onPage fills in the rest as pages come in.
  const walk = { findings: newFindings(startPage), progress, failedPage } as EmployeeWalk;
  // A page at a time: the writer serialises and writes each page in one go.
  walk.pages = walkPageBatches<Employee>(fetchPage, {
    startPage: query.page,
    pageSize: query.pageSize,
    findings: walk.findings,
    concurrency: opts.concurrency,
    adaptive,
    // --search: --limit counts matches, not employees read.
    limit: searching ? undefined : opts.limit,
    signal: ctx.signal,
    onPage: (_page, pagination, itemsSoFar) => {
      walk.total = pagination.totalItems;
      walk.lastPagination = pagination;
      pagesDone++;
      if (progress) {
        const size = pagination.pageSize || query.pageSize || PAGE_SIZE_MAX;
        let items = Math.max(itemsSoFar, pagination.totalItems - (startPage - 1) * size);
        if (opts.limit !== undefined && !searching) items = Math.min(items, opts.limit);
        progress.update({ pages: pagesDone, totalPages: Math.max(pagesDone, Math.ceil(items / size)), items: itemsSoFar, totalItems: items });
      }
    },
  });
  return walk;
}

/** Every page (--all), or every match of --search, checked for drift as it is written. */
async function listAllPages(opts: ListOptions, ctx: Context, target: ListTarget, adaptive: AdaptiveConcurrency | undefined): Promise<void> {
  const { sink, io, spec } = target;
  const output = opts.out;
  const walk = startWalk(opts, ctx, target, adaptive);
  const { findings, progress } = walk;
  // --search: each page cut to its matches as it arrives.
  const searching = opts.search !== undefined;
  const searchCount: SearchCount = { searched: 0, matched: 0 };
  // Loaded only for --search: a plain export reads no more files (employees-list.test.ts counts them).
  const search = searching ? await import('../../api/employee-search.js') : undefined;
  const employees = batched(search ? search.searchBatches(walk.pages, search.employeeMatcher(opts.search!), searchCount, opts.limit) : walk.pages);
  // A search's summary is said once, on stderr once the walk ends (below), whatever the format: not in a footer as well.
  spec.footer = () => (searching || walk.total === undefined ? undefined : countOf(walk.total, 'employee'));
  // The same {data, pagination} shape as one page: the pagination of the last page read, written last.
  // A search prints its matches, not the pages it read: its pagination describes the matches, as one page.
  spec.pagination = () => (searching ? printedPage(searchCount.matched) : (walk.lastPagination ?? null));
  // Rows bound for the same terminal as the bar erase it first.
  const out = sink?.stream ?? (progress && ctx.io.stdoutIsTTY ? progress.interleave(ctx.io.stdout) : ctx.io.stdout);
  // Ctrl-C: say how far it got, and that the previous file was not replaced.
  const onInterrupt = () => {
    if (!(ctx.signal.reason instanceof InterruptedError)) return; // the reader left (`| head`): quiet
    progress?.done();
    const rows = countOf(findings.emitted, 'employee');
    ctx.log.info(sink ? `Stopped after ${rows}; ${sanitizeTerminal(opts.outputFile!)} was left untouched.` : `Stopped after ${rows} written.`);
  };
  ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  try {
    const count = await writeList(io, out, employees, spec, output);
    const settled = settleWalk(findings, { rows: count, file: opts.outputFile, allowDrift: opts.allowDrift });
    progress?.done();
    if (searching) ctx.log.info(`Searched ${countOf(searchCount.searched, 'employee')} on the client (the API has no name search): ${matchesOf(searchCount.matched)}.`);
    for (const w of settled.warnings) ctx.log.warn(w);
    if (settled.error) throw settled.error;
    await sink?.commit();
    if (sink && !output.quiet) ctx.log.info(wroteLine(count, opts.outputFile!));
  } catch (err) {
    // A failed write to the file (disk full) is the cause, not the closed stream it left.
    const failure = sink?.writeError() ?? err;
    // A page that could not be had (after retries): say where the walk stopped (Ctrl-C says it in onInterrupt).
    if (failure instanceof CliError && !(failure instanceof InterruptedError)) {
      const page = walk.failedPage.get(failure);
      if (page !== undefined) failure.progress = stoppedAt(page, findings, opts);
    }
    throw failure;
  } finally {
    ctx.signal.removeEventListener('abort', onInterrupt);
    progress?.done();
  }
}

function matchesOf(n: number): string {
  return `${formatCount(n)} match${n === 1 ? '' : 'es'}`;
}

/** Printed on stderr once an --output-file is in place (not with --quiet). */
function wroteLine(count: number, file: string): string {
  return `Wrote ${countOf(count, 'employee')} to ${sanitizeTerminal(file)}`;
}

/**
 * Where a walk that failed stopped, and what became of the rows so far: on
 * stdout (none with --jq, which prints once every page is in), or fetched
 * for an --output-file that was left as it was.
 */
function stoppedAt(page: number, f: WalkFindings, opts: ListOptions): ErrorProgress {
  const file = opts.outputFile;
  const written = file !== undefined || opts.out.jq !== undefined ? 0 : f.emitted;
  const pages = f.announcedPages;
  const text = `Stopped at page ${formatCount(page)}${pages ? ` of ${formatCount(pages)}` : ''}; ${file === undefined ? rowsOutcome(written) : rowsOutcome(f.emitted, file)}.`;
  const data = { page, pages: pages ?? null, rowsFetched: f.emitted, rowsWritten: written, ...(file === undefined ? {} : { outputFile: file, outputFileUntouched: true }) };
  return { text, data };
}

/** The pagination of what a search printed: its matches, as one page. */
function printedPage(matched: number): Pagination {
  return { currentPage: 1, pageSize: matched, totalPages: matched > 0 ? 1 : 0, totalItems: matched, hasNextPage: false, hasPreviousPage: false };
}
