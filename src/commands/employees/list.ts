import type { Context } from '../../context.js';
import { listEmployees, type ListQuery } from '../../api/employees.js';
import { walkPages } from '../../api/pages.js';
import { EMPLOYEE_FIELDS, PAGE_SIZE_MAX, type Employee, type EmployeePage } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { parseInteger, parseText, parseUuid } from '../../options.js';
import { outputOptions, parseOutputFlags, type OutputFlags } from '../../output/options.js';
import type { Column } from '../../output/table.js';
import { writeList, type ListSpec } from '../../output/writer.js';

export interface ListOptions extends OutputFlags {
  query: ListQuery;
  all: boolean;
  limit?: number;
  concurrency: number;
  progress: boolean;
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
  return { ...parseOutputFlags(raw), query, all, limit, concurrency, progress: raw.progress !== false };
}

export const EMPLOYEE_COLUMNS: Column[] = [
  { key: 'employeeCode', header: 'CODE' },
  { key: 'fullName', header: 'NAME' },
  { key: 'workEmail', header: 'EMAIL' },
  { key: 'designation', header: 'DESIGNATION' },
  { key: 'department', header: 'DEPARTMENT' },
  { key: 'status', header: 'STATUS' },
  { key: 'country', header: 'COUNTRY' },
  { key: 'startDate', header: 'START' },
];

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const { query } = opts;
  if (query.employeeId && query.employeeCode) ctx.log.warn('Both --employee-id and --employee-code were given; the server uses --employee-id.');
  const output = outputOptions(opts, ctx.io);
  const http = await ctx.api({ connections: opts.all ? opts.concurrency : 1 });
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
    await writeList(ctx.io, ctx.io.stdout, items, spec, output);
    return;
  }

  let total: number | undefined;
  const employees = walkPages<Employee>((page, signal) => listEmployees(http, { ...query, page }, signal), {
    startPage: query.page,
    concurrency: opts.concurrency,
    limit: opts.limit,
    signal: ctx.signal,
    onPage: (_page, pagination) => {
      total = pagination.totalItems;
    },
  });
  spec.footer = () => (total === undefined ? undefined : `${total} employee${total === 1 ? '' : 's'}`);
  const count = await writeList(ctx.io, ctx.io.stdout, employees, spec, output);
  ctx.log.debug(`wrote ${count} employees`);
}
