import type { Context } from '../../context.js';
import { listEmployees, type ListQuery } from '../../api/employees.js';
import { AdaptiveConcurrency, walkPages } from '../../api/pages.js';
import { periodicCollector } from '../../api/memory.js';
import { EMPLOYEE_FIELDS, PAGE_SIZE_MAX, type Employee, type EmployeePage } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { parseInteger, parseText, parseUuid } from '../../options.js';
import { outputOptions, parseOutputFlags, type OutputFlags } from '../../output/options.js';
import { openOutputFile } from '../../output/output-file.js';
import { createProgress } from '../../output/progress.js';
import type { Column } from '../../output/table.js';
import { writeList, type ListSpec } from '../../output/writer.js';

export interface ListOptions extends OutputFlags {
  query: ListQuery;
  all: boolean;
  limit?: number;
  concurrency: number;
  progress: boolean;
  /** Written atomically (temp file + rename) instead of stdout. */
  outputFile?: string;
}

export const MAX_CONCURRENCY = 32;
const DEFAULT_CONCURRENCY = 8;

/** Validates every flag against the spec's rules; invalid input never reaches the server. */
export function parse(_args: string[], raw: Record<string, unknown>): ListOptions {
  const all = Boolean(raw.all);
  const query: ListQuery = {
    page: parseInteger('--page', raw.page, { min: 1 }),
    pageSize: parseInteger('--page-size', raw.pageSize, { min: 1, max: PAGE_SIZE_MAX }),
    status: raw.status as string | undefined,
    employeeId: parseUuid('--employee-id', raw.employeeId),
    employeeCode: parseText('--employee-code', raw.employeeCode),
    sortBy: raw.sortBy as string | undefined,
    sortOrder: raw.sortOrder as string | undefined,
  };
  // The largest page makes --all need the fewest requests.
  if (all && query.pageSize === undefined) query.pageSize = PAGE_SIZE_MAX;
  const limit = parseInteger('--limit', raw.limit, { min: 1 });
  const concurrency = parseInteger('--concurrency', raw.concurrency, { min: 1, max: MAX_CONCURRENCY }) ?? DEFAULT_CONCURRENCY;
  if (raw.concurrency !== undefined && !all) throw new UsageError('--concurrency only applies with --all');
  const outputFile = raw.outputFile === undefined ? undefined : String(raw.outputFile);
  if (outputFile !== undefined && outputFile.trim() === '') throw new UsageError('--output-file must not be empty');
  return { ...parseOutputFlags(raw), query, all, limit, concurrency, progress: raw.progress !== false, outputFile };
}

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

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const { query } = opts;
  // A filter that does not compile is a usage error: found before anything is sent.
  if (opts.jq !== undefined) await (await import('../../output/jq.js')).checkJqFilter(opts.jq);
  if (query.employeeId && query.employeeCode) ctx.log.warn('Both --employee-id and --employee-code were given; the server uses --employee-id.');
  // Servers may send more than the spec names, so an unknown field is shown (empty if absent), with a warning.
  const unknown = (opts.fields ?? []).filter((f) => !(EMPLOYEE_FIELDS as readonly string[]).includes(f.split('.')[0]));
  if (unknown.length) ctx.log.warn(`--fields ${unknown.join(', ')}: not ${unknown.length === 1 ? 'a field' : 'fields'} of the employee record; shown empty unless the server sends ${unknown.length === 1 ? 'it' : 'them'}. Known: ${EMPLOYEE_FIELDS.join(', ')}.`);
  // The server's rate limits are unknown: start at --concurrency (polite by default), halve on 429/503.
  const adaptive = opts.all ? new AdaptiveConcurrency({ max: opts.concurrency, onChange: (n, why) => ctx.log.debug(`pages in flight: ${n} (${why})`) }) : undefined;
  const http = await ctx.api({
    connections: opts.all ? opts.concurrency : 1,
    onRetry: (e) => {
      if (e.status === 429 || e.status === 503) adaptive?.congestion(e.waitMs);
    },
  });
  // Opened after the token check, before the first request: a bad path fails with nothing sent.
  const sink = opts.outputFile !== undefined ? await openOutputFile(opts.outputFile) : undefined;
  if (sink) ctx.onCleanup(() => sink.abort());
  // A file is never a terminal: the default format is JSON, as when piped.
  const io = sink ? { ...ctx.io, stdoutIsTTY: false, columns: undefined } : ctx.io;
  const output = outputOptions(opts, io);
  const spec: ListSpec = {
    columns: EMPLOYEE_COLUMNS,
    csvColumns: EMPLOYEE_FIELDS.map((key) => ({ key })),
  };

  if (!opts.all) {
    const page: EmployeePage = await listEmployees(http, query, ctx.signal);
    const p = page.pagination;
    const items = opts.limit ? page.data.slice(0, opts.limit) : page.data;
    spec.jsonDocument = (data) => ({ data, pagination: p });
    spec.footer = () => {
      const total = `${p.totalItems} employee${p.totalItems === 1 ? '' : 's'}`;
      const next = p.hasNextPage ? ` · next: --page ${p.currentPage + 1}, or --all` : '';
      return `Page ${p.currentPage} of ${Math.max(p.totalPages, 1)} · ${total}${next}`;
    };
    await writeList(io, sink?.stream ?? ctx.io.stdout, items, spec, output).catch((err: unknown) => {
      throw sink?.writeError() ?? err;
    });
    await sink?.commit();
    return;
  }

  let total: number | undefined;
  let pagesDone = 0;
  const progress = createProgress(ctx.io, opts.progress);
  const collectGarbage = periodicCollector();
  const startPage = query.page ?? 1;
  const employees = walkPages<Employee>((page, signal) => listEmployees(http, { ...query, page }, signal), {
    startPage: query.page,
    concurrency: opts.concurrency,
    adaptive,
    limit: opts.limit,
    signal: ctx.signal,
    onPage: (_page, pagination, itemsSoFar) => {
      total = pagination.totalItems;
      pagesDone++;
      collectGarbage();
      if (progress) {
        const size = pagination.pageSize || query.pageSize || PAGE_SIZE_MAX;
        let items = Math.max(itemsSoFar, pagination.totalItems - (startPage - 1) * size);
        if (opts.limit !== undefined) items = Math.min(items, opts.limit);
        progress.update({ pages: pagesDone, totalPages: Math.max(pagesDone, Math.ceil(items / size)), items: itemsSoFar, totalItems: items });
      }
    },
  });
  spec.footer = () => (total === undefined ? undefined : `${total} employee${total === 1 ? '' : 's'}`);
  // Rows bound for the same terminal as the bar erase it first.
  const out = sink?.stream ?? (progress && ctx.io.stdoutIsTTY ? progress.interleave(ctx.io.stdout) : ctx.io.stdout);
  try {
    const count = await writeList(io, out, employees, spec, output);
    await sink?.commit();
    ctx.log.debug(`wrote ${count} employees${sink ? ` to ${sink.path}` : ''}`);
  } catch (err) {
    // A failed write to the file (disk full) is the cause, not the closed stream it left.
    throw sink?.writeError() ?? err;
  } finally {
    progress?.done();
  }
}
