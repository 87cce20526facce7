// `gp create --from-csv`: bulk onboarding from a spreadsheet. Every row is
// checked first (nothing is sent while any row is invalid, unless
// --skip-invalid); then the employees are created one by one (POST, then
// PATCH of the dynamic sections) with a progress bar, a journal that makes a
// re-run finish exactly what is left, and a results CSV. Cell values are
// never printed or journalled (they may be secret).
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { HttpClient } from '../../api/http.js';
import { createGpEmployment, listEmployees, submitDynamicDetails } from '../../api/employees.js';
import { ApiError, CliError, ExitCode, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import { csvRecord } from '../../output/csv.js';
import { createProgress } from '../../output/progress.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
import { buildBodies, workEmailOf } from '../bodies.js';
import type { FormSchema } from '../schema.js';
import { Journal, rowHash, type RowState } from './journal.js';
import { readSheet, type CsvRow, type CsvSheet } from './read.js';
import { rowDoc, unknownColumns, type RowIssue } from './rows.js';
import { countOf } from '../../output/count.js';
import { partnerCommand, q } from '../../text/command-line.js';

export interface BulkOptions {
  entity: string;
  csvPath: string;
  /** The results CSV; the journal is this path + ".journal". Default: beside the input, FILE.results.csv. */
  resultsPath?: string;
  skipInvalid: boolean;
  /** Check every row and stop: nothing is sent. */
  dryRun?: boolean;
  /** The sheet when the caller read it already (a bad file is reported before any request). */
  sheet?: CsvSheet;
}

type Outcome = 'created' | 'already-created' | 'invalid' | 'conflict' | 'rejected' | 'patch-failed' | 'failed' | 'not-run';

interface Result {
  row: number;
  id?: string;
  code?: string;
  outcome: Outcome;
  error?: string;
}

export function defaultResultsPath(csvPath: string): string {
  const name = basename(csvPath).replace(/\.csv$/i, '');
  return join(dirname(csvPath), `${name}.results.csv`);
}

const MAX_LISTED = 200;

/** Server words for the results file and the terminal: one line, bounded. */
function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const details = err.details.map((d) => `${d.field}: ${d.message}`).join('; ');
    return `${err.status} ${err.message}${details ? ` (${details})` : ''}`.replace(/\s+/g, ' ').slice(0, 500);
  }
  return ((err as Error).message ?? String(err)).replace(/\s+/g, ' ').slice(0, 500);
}

/** Interrupted, or no answer: the run stops here and a re-run continues. */
function stopsTheRun(err: unknown): boolean {
  return err instanceof InterruptedError || err instanceof NetworkError;
}

export async function bulkOnboard(ctx: Context, http: HttpClient, form: FormSchema, opts: BulkOptions): Promise<number> {
  const sheet = opts.sheet ?? (await readSheet(opts.csvPath));
  const unknown = unknownColumns(form, sheet.columns);
  if (unknown.length) {
    throw new UsageError(
      `${opts.csvPath}: ${unknown.length === 1 ? 'a column is' : `${unknown.length} columns are`} not fields of the form of ${opts.entity}: ${unknown.slice(0, 20).map((c) => c.slice(0, 80)).join(', ')}`,
      `The header names fields by dot path, as \`partner gp template --entity "${opts.entity}" -o csv\` writes them.`,
      'INVALID_CSV',
    );
  }
  if (sheet.rows.length === 0) throw new UsageError(`${opts.csvPath} has a header but no rows`, undefined, 'INVALID_CSV');

  // 1. Every row checked before anything is sent.
  const docs = new Map<number, Record<string, unknown>>();
  const issues: RowIssue[] = [];
  const invalid = new Set<number>();
  for (const row of sheet.rows) {
    const r = rowDoc(form, sheet.columns, row);
    if (r.issues.length) {
      invalid.add(row.row);
      issues.push(...r.issues);
    } else docs.set(row.row, r.doc);
  }
  if (issues.length) {
    const c = ctx.errColors;
    ctx.io.stderr.write(`${c.red('Invalid rows')} (${invalid.size} of ${sheet.rows.length}; ${countOf(issues.length, 'problem')}):\n`);
    for (const i of issues.slice(0, MAX_LISTED)) ctx.io.stderr.write(`  row ${i.row}, ${sanitizeTerminal(i.column)}: ${sanitizeTerminal(i.message)}\n`);
    if (issues.length > MAX_LISTED) ctx.io.stderr.write(`  …and ${issues.length - MAX_LISTED} more\n`);
    if (!opts.skipInvalid) {
      throw new UsageError(`${invalid.size} row${invalid.size === 1 ? ' is' : 's are'} invalid; nothing was sent`, 'Fix the rows and run again, or add --skip-invalid to create the valid rows only.', 'CSV_INVALID');
    }
    ctx.io.stderr.write(`--skip-invalid: ${invalid.size === 1 ? 'that row is' : `those ${invalid.size} rows are`} left out.\n`);
  }
  if (opts.dryRun) {
    ctx.io.stderr.write(`Dry run: ${docs.size} of ${sheet.rows.length} rows are valid; nothing was sent.\n`);
    return ExitCode.OK;
  }

  // 2. The journal: what earlier runs did.
  const resultsPath = opts.resultsPath ?? defaultResultsPath(opts.csvPath);
  const journal = Journal.open(`${resultsPath}.journal`, opts.entity);
  const hashes = new Map(sheet.rows.map((r) => [r.row, rowHash(r.cells)]));
  for (const row of sheet.rows) {
    const prior = journal.get(row.row);
    if (prior && (prior.state === 'done' || prior.state === 'created' || prior.state === 'posting' || prior.state === 'patch-failed') && prior.hash !== hashes.get(row.row)) {
      journal.close();
      throw new UsageError(
        `Row ${row.row} changed since the run recorded in ${journal.path} (where it was ${prior.state === 'posting' ? 'being created' : 'created'})`,
        'Rows of a run must not change between re-runs. Put new employees in a new file, or pass another --results path to start a new run.',
        'BULK_JOURNAL',
      );
    }
  }

  // 3. One row at a time.
  const results = new Map<number, Result>();
  for (const row of sheet.rows) if (invalid.has(row.row)) results.set(row.row, { row: row.row, outcome: 'invalid', error: issues.filter((i) => i.row === row.row).map((i) => `${i.column}: ${i.message}`).join('; ').slice(0, 500) });
  const todo = sheet.rows.filter((r) => docs.has(r.row));
  const progress = createProgress(ctx.io, true, { label: 'Onboarding', units: { pages: 'rows', items: 'created' } });
  let done = 0;
  let created = 0;
  let stopped: unknown;
  try {
    for (const row of todo) {
      if (ctx.signal.aborted) {
        stopped = new InterruptedError();
        break;
      }
      try {
        const r = await onboardRow(ctx, http, form, opts.entity, row, docs.get(row.row)!, hashes.get(row.row)!, journal);
        results.set(row.row, r);
        if (r.outcome === 'created') created++;
        if (r.outcome !== 'created' && r.outcome !== 'already-created') {
          progress?.clear();
          ctx.io.stderr.write(`${ctx.errColors.red('✗')} row ${row.row}: ${r.outcome}${r.error ? `: ${sanitizeTerminal(r.error)}` : ''}\n`);
        }
      } catch (err) {
        if (!stopsTheRun(err)) throw err;
        stopped = err;
        break;
      }
      done++;
      progress?.update({ pages: done, totalPages: todo.length, items: created });
    }
  } finally {
    progress?.done();
    journal.close();
  }
  for (const row of todo) if (!results.has(row.row)) results.set(row.row, { row: row.row, outcome: 'not-run', ...idsOf(journal, row.row) });

  // 4. The results file, complete even after a stop.
  const ordered = sheet.rows.map((r) => results.get(r.row)!);
  writeResults(resultsPath, ordered);
  const count = (o: Outcome) => ordered.filter((r) => r.outcome === o).length;
  const parts = [`${count('created')} created`];
  if (count('already-created')) parts.push(`${count('already-created')} created by an earlier run`);
  for (const o of ['conflict', 'rejected', 'patch-failed', 'invalid', 'not-run'] as const) if (count(o)) parts.push(`${count(o)} ${o}`);
  ctx.io.stderr.write(`${parts.join(', ')} (of ${sheet.rows.length} rows). Results: ${resultsPath}\n`);
  const rerun = partnerCommand(ctx.globals, `gp create --entity ${q(opts.entity)} --from-csv ${q(opts.csvPath)}${opts.resultsPath ? ` --results ${q(opts.resultsPath)}` : ''}${opts.skipInvalid ? ' --skip-invalid' : ''}`);
  if (stopped) {
    ctx.io.stderr.write(`Stopped: ${sanitizeTerminal(errorText(stopped))}. Run the same command again to finish; rows already created are not created again:\n  ${rerun}\n`);
    if (stopped instanceof InterruptedError) throw stopped;
    throw new CliError(`The bulk run stopped at a network failure: ${errorText(stopped)}`, { code: 'BULK_STOPPED', exitCode: ExitCode.FAILURE, hint: `Run it again when the server answers: ${rerun}` });
  }
  if (count('patch-failed')) ctx.io.stderr.write(`Rows whose dynamic details failed are finished by running the same command again (after fixing the cause):\n  ${rerun}\n`);
  // Rows left out on purpose (--skip-invalid) do not fail the run; every other row not created does.
  const bad = ordered.filter((r) => r.outcome !== 'created' && r.outcome !== 'already-created' && r.outcome !== 'invalid').length;
  return bad ? ExitCode.FAILURE : ExitCode.OK;
}

function idsOf(journal: Journal, row: number): { id?: string; code?: string } {
  const e = journal.get(row);
  return { id: e?.id, code: e?.code };
}

async function onboardRow(ctx: Context, http: HttpClient, form: FormSchema, entity: string, row: CsvRow, doc: Record<string, unknown>, hash: string, journal: Journal): Promise<Result> {
  const bodies = buildBodies(form, entity, doc);
  const prior = journal.get(row.row);
  const note = (state: RowState, extra: { id?: string; code?: string; error?: string } = {}) => journal.record({ row: row.row, hash, state, ...extra });
  if (prior?.state === 'done') return { row: row.row, id: prior.id, code: prior.code, outcome: 'already-created' };

  let id = prior?.state === 'created' || prior?.state === 'patch-failed' ? prior.id : undefined;
  let code = prior?.code;
  const earlier = id !== undefined;
  if (id === undefined && prior?.state === 'posting') {
    // The last run sent this POST and never saw the answer: look before creating again.
    const found = await findByWorkEmail(ctx, http, workEmailOf(form, doc));
    if (found) {
      id = found.id;
      code = found.code;
      note('created', { id, code });
    }
  }
  if (id === undefined) {
    note('posting');
    try {
      const res = await createGpEmployment(http, bodies.create);
      code = typeof res.employeeCode === 'string' ? res.employeeCode : undefined;
      if (typeof res.id !== 'string' || res.id === '') {
        // Created, but without an id its dynamic details cannot be sent: say so, never POST it again.
        note('done', { code, error: 'the create answer had no id' });
        return { row: row.row, code, outcome: 'patch-failed', error: 'created, but the answer had no employee id: send its dynamic details with partner dynamic-details submit' };
      }
      id = res.id;
      note('created', { id, code });
    } catch (err) {
      if (stopsTheRun(err)) throw err;
      if (err instanceof ApiError && err.status === 409) {
        note('conflict', { error: errorText(err) });
        return { row: row.row, outcome: 'conflict', error: errorText(err) };
      }
      if (err instanceof ApiError && err.status < 500) {
        note('rejected', { error: errorText(err) });
        return { row: row.row, outcome: 'rejected', error: errorText(err) };
      }
      // A 5xx: the POST is not retried (it may have created the employee); the next run looks first.
      return { row: row.row, outcome: 'failed', error: errorText(err) };
    }
  }
  if (bodies.dynamic) {
    try {
      await submitDynamicDetails(http, id, bodies.dynamic);
    } catch (err) {
      if (stopsTheRun(err)) throw err;
      note('patch-failed', { id, code, error: errorText(err) });
      return { row: row.row, id, code, outcome: 'patch-failed', error: errorText(err) };
    }
  }
  note('done', { id, code });
  return { row: row.row, id, code, outcome: earlier ? 'already-created' : 'created' };
}

/** The employee with this work e-mail, walking the list (only for a POST whose answer was lost). */
async function findByWorkEmail(ctx: Context, http: HttpClient, email: string | undefined): Promise<{ id: string; code?: string } | undefined> {
  if (!email) return undefined;
  const want = email.toLowerCase();
  for (let page = 1; page <= 1000; page++) {
    const res = await listEmployees(http, { page, pageSize: 100 }, ctx.signal);
    const hit = res.data.find((e) => typeof e.workEmail === 'string' && e.workEmail.toLowerCase() === want);
    if (hit) return { id: hit.id, code: hit.employeeCode };
    if (res.data.length === 0 || !res.pagination.hasNextPage || page >= res.pagination.totalPages) return undefined;
  }
  return undefined;
}

/**
 * The results CSV, replaced atomically (temp file, fsync, rename; 0600 when
 * new). Written synchronously: it also runs right after Ctrl-C, when the
 * entry point gives the command a second to finish.
 */
function writeResults(path: string, results: Result[]): void {
  const target = resolve(path);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  let text = csvRecord(['row', 'employeeId', 'employeeCode', 'outcome', 'error']);
  for (const r of results) text += csvRecord([r.row, r.id ?? '', r.code ?? '', r.outcome, r.error ?? '']);
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`Could not write the results file ${path}: ${code ?? (err as Error).message}`, { code: 'RESULTS_FILE', exitCode: ExitCode.FAILURE, cause: err });
  }
}

