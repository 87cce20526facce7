// `partner employees list`: one page, or every page with --all (run: ./list.run.ts).
import { defineCommand } from '../../command.js';
import { EMPLOYEE_FIELDS, EMPLOYEE_STATUSES, PAGE_SIZE_MAX, SORT_BY_FIELDS, SORT_ORDERS } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { bool, choice, int, negated, path, text, uuid } from '../../flags.js';
import { CHANGE_FIELDS, changesFlags } from '../changes-flags.js';

export const MAX_CONCURRENCY = 32;
const DEFAULT_CONCURRENCY = 8;

export const list = defineCommand({
  name: 'list',
  summary: 'list employees, one page or every page (--all)',
  flags: {
    page: int('page number, 1 or more (default 1)', { min: 1 }),
    pageSize: int(`employees per page, 1 to ${PAGE_SIZE_MAX} (default 20; ${PAGE_SIZE_MAX} with --all)`, { min: 1, max: PAGE_SIZE_MAX }),
    status: choice(EMPLOYEE_STATUSES, 'only employees with this status (default: all)', { placeholder: 'status' }),
    employeeId: uuid('exact employee id (wins over --employee-code)'),
    employeeCode: text('exact employee code', { placeholder: 'code' }),
    sortBy: choice(SORT_BY_FIELDS, "sort field (default: the server's order)", { placeholder: 'field' }),
    sortOrder: choice(SORT_ORDERS, "sort direction (default: the server's)", { placeholder: 'order' }),
    all: bool('walk every page and print all employees'),
    search: text('only employees whose name, display name, work email or code contains this text (case and accents ignored); searches every page, on the client', { placeholder: 'text', max: 200 }),
    limit: int('stop after this many employees (default: no limit)', { min: 1 }),
    concurrency: int(`pages fetched at once with --all, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`, { min: 1, max: MAX_CONCURRENCY }),
    progress: negated('no progress bar on stderr with --all'),
    allowDrift: bool('with --all: keep what was seen when the company changed during the export or its pages did not add up (exit 0 with a warning; default: exit 1)'),
    outputFile: path('write to this file instead of stdout, atomically: replaced only when complete (new files are 0600)', { role: 'output' }),
    changesSince: path('with --all: print only what changed since this earlier export (JSON, NDJSON or CSV by partner) or --state file; each record has change (added, changed, removed) and changedFields', { role: 'input' }),
    state: path('with --all: compare with this state file and replace it once the output is whole (the bookmark of a nightly job; created on the first run)', { role: 'output' }),
  },
  output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: [...EMPLOYEE_FIELDS, ...CHANGE_FIELDS], fileFlag: 'outputFile' },
  refine: (o, env) => {
    const changes = changesFlags(o, env, { walksAll: o.all, walkFlag: '--all' });
    if (changes && (o.search !== undefined || o.limit !== undefined || o.allowDrift)) throw new UsageError('--changes-since and --state compare every employee: they cannot be used with --search, --limit or --allow-drift', 'A diff is only written from a whole walk; drop those flags.');
    if (o.concurrency !== undefined && !o.all && o.search === undefined) throw new UsageError('--concurrency only applies with --all (or --search)');
    if (o.allowDrift && !o.all && o.search === undefined) throw new UsageError('--allow-drift only applies with --all (or --search)');
    if (o.all && o.page !== undefined) throw new UsageError('--page cannot be used with --all', '--all walks every page from the first; drop --page (or drop --all to get one page).');
    if (o.search !== undefined && o.page !== undefined) throw new UsageError('--page cannot be used with --search', '--search looks through every page; drop --page.');
    // The API has no name search: --search walks every page, as --all does.
    const all = o.all || o.search !== undefined;
    const query = {
      page: o.page,
      // The largest page makes --all need the fewest requests.
      pageSize: o.pageSize ?? (all ? PAGE_SIZE_MAX : undefined),
      status: o.status,
      employeeId: o.employeeId,
      employeeCode: o.employeeCode,
      sortBy: o.sortBy,
      sortOrder: o.sortOrder,
    };
    return { query, all, search: o.search, limit: o.limit, concurrency: o.concurrency ?? DEFAULT_CONCURRENCY, progress: o.progress, outputFile: o.outputFile, allowDrift: o.allowDrift, changes };
  },
  // Every page, bound for a file or a program (not a person reading a terminal): on a worker
  // thread whose young generation stays as small at 200,000 employees as at 20,000.
  worker: { anyOf: ['all', 'search'], notForTerminal: true },
  details: `On a terminal the table ends with the page and the total (Page 1 of 3 · 45 employees · next: --page 2, or --all).
JSON is {"data": [...], "pagination": {...}}, for one page and for --all alike; NDJSON is one employee per line; CSV has every field of the employee record.
--search TEXT walks every page (like --all, with the server's filters such as --status) and keeps the employees whose fullName, displayName, workEmail or employeeCode contains TEXT, ignoring case and accents ("jose" finds José); matches are printed as their page arrives, in every format, and stderr says how many employees were searched. The search runs on the client: the API has none. --limit counts matches.
--changes-since FILE (with --all) prints only the employees added, changed or removed since FILE, an earlier export by partner (JSON, NDJSON or CSV) or a --state file, matched by id: each with "change" and, when changed, "changedFields" (dot paths); a removed one with its last known values. --state FILE is compared with and then replaced, only after the output was written whole. See docs/guides/exports-in-ci.md.`,
  examples: [
    'partner employees list --status ACTIVE',
    'partner employees list --employee-code ACME-00007 -o json',
    'partner employees list --all --fields employeeCode,fullName,status -o ndjson',
    'partner employees list --all -o csv --output-file employees.csv',
    'partner employees list --search priya --status ACTIVE',
    'partner employees list --all --state employees.state -o ndjson --output-file changes.ndjson',
  ],
  load: () => import('./list.run.js'),
});
