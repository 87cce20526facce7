// `gp create --from-csv`: bulk onboarding from a spreadsheet. Every row is
// checked first, in one streaming pass (nothing is sent while any row is
// invalid, unless --skip-invalid); then the rows are created N at a time
// (each row's POST, then the PATCH of its dynamic sections), the window
// narrowed while the server answers 429/503, with a journal that makes a
// re-run finish exactly what is left, and a results CSV written in input
// order as rows finish. Only what the results need is kept: the rows are
// parsed again for the sending pass. Cell values are never printed or
// journalled (they may be secret).
//
// A row is known by what it is (its work e-mail, its values, compared in
// NFC), and without a work e-mail also by its place and the fields only it
// has: rows deleted, inserted or moved between runs keep their records, and
// a sent row that changed stops the run before anything is sent (identity.ts).
//
// The contract across crashes: see onboardRow. A row is
// journalled "posting" (durably) before its POST and "created"/"done"/... after
// its answer; a row found "posting" by a re-run is looked up on the server by
// its work e-mail, or without one by name and start date (lost-posts.ts; a 409
// for its e-mail is looked up too) before anything is sent again.
import { setTimeout as delay } from 'node:timers/promises';
import type { FormContext } from '../form-context.js';
import type { HttpClient } from '../../api/http.js';
import { parseRetryAfter } from '../../api/http.js';
import { AdaptiveConcurrency } from '../../api/adaptive-concurrency.js';
import { createGpEmployment, listEmployees, submitDynamicDetails } from '../../api/employees.js';
import { mapOrdered } from '../../concurrency.js';
import { ApiError, CliError, ExitCode, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import { createProgress } from '../../output/progress.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { buildBodies, workEmailField, workEmailOf } from '../bodies.js';
import type { FormSchema } from '../schema.js';
import { Journal, JournalWriteError, type JournalEntry, type RowState } from './journal.js';
import { identities, priorOf, rowKeys, rowsChanged, SheetMatch, type RowIdentity } from './identity.js';
import { sheetRows, type CsvRow, type CsvSheet } from './read.js';
import { defaultResultsPath, ResultsFile, type Outcome, type Result } from './results.js';
import { BULK_DEFAULT_CONCURRENCY } from './limits.js';
import { rowDoc, unknownColumns, type RowIssue } from './rows.js';
import { findLost, lookupKey, type Found } from './lost-posts.js';
import { countOf, formatCount } from '../../text/count.js';
import { partnerCommand, q } from '../../text/command-line.js';

export { defaultResultsPath } from './results.js';

/** After Ctrl-C, the rows in flight get this long to finish (the entry point exits 1 s after the signal). */
export const STOP_GRACE_MS = 500;
/** Attempts of one request refused with 429/503 before the row is given up (a re-run finishes it). */
const MAX_ATTEMPTS = 8;

export interface BulkOptions {
  entity: string;
  csvPath: string;
  /** The results CSV; the journal is this path + ".journal". Default: beside the input, FILE.results.csv. */
  resultsPath?: string;
  skipInvalid: boolean;
  /** Check every row and stop: nothing is sent. */
  dryRun?: boolean;
  /** Rows in flight at most (default 4). */
  concurrency?: number;
  /** The sheet, read (and its header checked) before any request. */
  sheet: CsvSheet;
  /** Told about the window (the HTTP client's onRetry feeds it too). */
  adaptive?: AdaptiveConcurrency;
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

/** Interrupted, no answer, or the journal cannot be written: the run stops starting rows; a re-run continues. */
function stopsTheRun(err: unknown): boolean {
  return err instanceof InterruptedError || err instanceof NetworkError || err instanceof JournalWriteError;
}

/**
 * A signal for the run's requests: aborted STOP_GRACE_MS after `stop`
 * (Ctrl-C), so the rows in flight may finish while no new row starts.
 */
export function graceSignal(stop: AbortSignal, graceMs = STOP_GRACE_MS): AbortSignal {
  const c = new AbortController();
  const later = () => setTimeout(() => c.abort(new InterruptedError()), graceMs).unref();
  if (stop.aborted) later();
  else stop.addEventListener('abort', later, { once: true });
  return c.signal;
}

/** What the check pass keeps: counts, the listed problems (bounded), and per invalid row its text. */
interface Check {
  total: number;
  todo: number;
  /** Problems shown on stderr (the first MAX_LISTED). */
  listed: RowIssue[];
  problems: number;
  /** The results' error text of each invalid row. */
  invalid: Map<number, string>;
  /** Rows "posting" in the journal (a POST whose answer was lost) -> what they are looked for by (lost-posts.ts). */
  orphans: Map<number, string | undefined>;
  /** What the journal knows a row of this sheet by. */
  identify: (cells: readonly string[]) => RowIdentity;
}

/** The index of the work e-mail column of the sheet, if it has one. */
function emailColumn(form: FormSchema, columns: string[]): number | undefined {
  const f = workEmailField(form, {});
  const i = f ? columns.indexOf(f.path.join('.')) : -1;
  return i < 0 ? undefined : i;
}

async function checkRows(ctx: FormContext, form: FormSchema, sheet: CsvSheet, journal: Journal | undefined): Promise<Check> {
  const email = emailColumn(form, sheet.columns);
  const c: Check = { total: 0, todo: 0, listed: [], problems: 0, invalid: new Map(), orphans: new Map(), identify: identities(sheet.columns, email) };
  // Without a work e-mail a row is known by its values: an edited sent row is found by its place and content.
  const match = new SheetMatch(journal, email === undefined);
  // No journal (a dry run): a row is only checked against the rows above it, by its key alone.
  const keyOf = journal ? undefined : rowKeys(sheet.columns, email);
  const invalid = (issues: RowIssue[]) => {
    c.problems += issues.length;
    for (const i of issues) if (c.listed.length < MAX_LISTED) c.listed.push(i);
    c.invalid.set(issues[0].row, issues.map((i) => `${i.column}: ${i.message}`).join('; ').slice(0, 500));
  };
  for await (const row of sheetRows(sheet)) {
    if (ctx.signal.aborted) throw new InterruptedError();
    c.total++;
    const r = rowDoc(form, sheet.columns, row);
    if (r.issues.length) {
      invalid(r.issues);
      continue;
    }
    const seen = keyOf ? { duplicateOf: match.firstWith(row.row, keyOf(row.cells)) } : match.see(row.row, c.identify(row.cells), row.cells);
    if (seen.duplicateOf !== undefined) {
      // One employee, two rows: sending both would create it twice (or the second would be refused).
      const column = email === undefined ? 'every column' : sheet.columns[email];
      invalid([{ row: row.row, column, message: `the same employee as row ${seen.duplicateOf} (${email === undefined ? 'the same values' : 'the same work e-mail'}): one row per employee` }]);
      continue;
    }
    c.todo++;
    if (seen.prior?.state === 'posting') c.orphans.set(row.row, lookupKey(r.doc, workEmailOf(form, r.doc)));
  }
  const changed = match.changedRows();
  if (changed.length) throw rowsChanged(sheet.source, journal!.path, changed);
  return c;
}

export async function bulkOnboard(ctx: FormContext, http: HttpClient, form: FormSchema, opts: BulkOptions): Promise<number> {
  const { sheet } = opts;
  const unknown = unknownColumns(form, sheet.columns);
  if (unknown.length) {
    throw new UsageError(
      `${opts.csvPath}: ${unknown.length === 1 ? 'a column is' : `${unknown.length} columns are`} not fields of the form of ${opts.entity}: ${unknown.slice(0, 20).map((c) => c.slice(0, 80)).join(', ')}`,
      `The header names fields by dot path, as \`partner gp template --entity "${opts.entity}" -o csv\` writes them.`,
      'INVALID_CSV',
    );
  }
  const resultsPath = opts.resultsPath ?? defaultResultsPath(opts.csvPath);
  // The journal (and its lock) first: the check pass also compares each row with what earlier runs did.
  const journal = opts.dryRun ? undefined : Journal.open(`${resultsPath}.journal`, opts.entity);
  try {
    // 1. Every row checked before anything is sent.
    const check = await checkRows(ctx, form, sheet, journal);
    if (check.total === 0) throw new UsageError(`${opts.csvPath} has a header but no rows`, undefined, 'INVALID_CSV');
    if (check.invalid.size) {
      const c = ctx.errColors;
      const n = check.invalid.size;
      ctx.log.info(`${c.red('Invalid rows')} (${formatCount(n)} of ${formatCount(check.total)}; ${countOf(check.problems, 'problem')}):`);
      for (const i of check.listed) ctx.log.info(`  row ${i.row}, ${sanitizeTerminal(i.column)}: ${sanitizeTerminal(i.message)}`);
      if (check.problems > MAX_LISTED) ctx.log.info(`  …and ${check.problems - MAX_LISTED} more`);
      if (!opts.skipInvalid) throw new UsageError(`${formatCount(n)} row${n === 1 ? ' is' : 's are'} invalid; nothing was sent`, 'Fix the rows and run again, or add --skip-invalid to create the valid rows only.', 'CSV_INVALID');
      ctx.log.info(`--skip-invalid: ${n === 1 ? 'that row is' : `those ${formatCount(n)} rows are`} left out.`);
    }
    if (opts.dryRun || !journal) {
      ctx.log.info(`Dry run: ${formatCount(check.todo)} of ${formatCount(check.total)} rows are valid; nothing was sent.`);
      return ExitCode.OK;
    }
    const code = await send(ctx, http, form, opts, journal, check, resultsPath);
    // The last sync: a journal that could not be made durable is a failure of the run.
    await journal.close();
    return code;
  } finally {
    // After a failure: released, the failure reported (not a later one of the close).
    await journal?.close().catch(() => undefined);
  }
}

interface Tally {
  [k: string]: number;
}

async function send(ctx: FormContext, http: HttpClient, form: FormSchema, opts: BulkOptions, journal: Journal, check: Check, resultsPath: string): Promise<number> {
  const { sheet } = opts;
  const adaptive = opts.adaptive ?? new AdaptiveConcurrency({ max: opts.concurrency ?? BULK_DEFAULT_CONCURRENCY });
  const run: RowRun = { ctx, http, form, entity: opts.entity, columns: sheet.columns, journal, adaptive, found: new Map(), stop: undefined };

  // 2. POSTs whose answer an earlier run lost: looked up (one walk of the list for all of them) before anything is sent.
  if (check.orphans.size) {
    try {
      // Employees the journal gives other rows are not these rows' (one name may be two people).
      const known = new Set([...journal.entries()].map((e) => e.id).filter((id): id is string => id !== undefined));
      run.found = await findLost(ctx, http, new Set([...check.orphans.values()].filter((k): k is string => !!k)), known);
    } catch (err) {
      if (!stopsTheRun(err)) throw err;
      run.stop = err;
    }
  }

  // 3. N rows in flight, results in input order as they finish.
  const results = ResultsFile.create(resultsPath);
  const tally: Tally = {};
  const progress = createProgress(ctx.io, true, { label: 'Onboarding', units: { pages: 'rows', items: 'created' }, etaBy: 'pages' });
  let done = 0;
  let failures = 0;
  let lastRow = 0;
  const stopping = () => run.stop !== undefined || ctx.signal.aborted;
  const onStop = () => (run.stop ??= new InterruptedError());
  ctx.signal.addEventListener('abort', onStop, { once: true });
  let resultsError: unknown;
  const emit = (r: Result) => {
    lastRow = r.row;
    tally[r.outcome] = (tally[r.outcome] ?? 0) + 1;
    if (resultsError === undefined) {
      try {
        results.append(r);
      } catch (err) {
        resultsError = err;
        run.stop ??= err;
      }
    }
  };
  /** The rows to start: none more once the run is stopping (Ctrl-C, no answer, the journal or results cannot be written). */
  async function* rowsToStart(): AsyncGenerator<CsvRow> {
    for await (const row of sheetRows(sheet)) {
      if (stopping()) return;
      yield row;
    }
  }
  try {
    for await (const r of mapOrdered(rowsToStart(), { limit: () => adaptive.limit, pauseMs: () => adaptive.pauseMs }, (row) => onboardRow(run, row, check))) {
      emit(r);
      if (r.outcome === 'invalid') continue;
      done++;
      if (r.outcome !== 'created' && r.outcome !== 'already-created' && r.outcome !== 'not-run') {
        failures++;
        progress?.clear();
        ctx.log.info(`${ctx.errColors.red('✗')} row ${r.row}: ${r.outcome}${r.error ? `: ${sanitizeTerminal(r.error)}` : ''}`);
      }
      progress?.update({ pages: done, totalPages: check.todo, items: tally.created ?? 0, note: failures ? `${formatCount(failures)} failed` : undefined });
    }
    // 4. The results file, complete even after a stop: the rows never started.
    if (run.stop !== undefined) {
      for await (const row of sheetRows(sheet)) if (row.row > lastRow) emit(notRun(row.row, priorOf(journal, check.identify(row.cells), row.cells), check));
    }
  } finally {
    ctx.signal.removeEventListener('abort', onStop);
    progress?.done();
  }
  if (resultsError === undefined) {
    try {
      results.finish();
    } catch (err) {
      resultsError = err;
    }
  }
  if (resultsError !== undefined) results.abort();

  return report(ctx, opts, check, { tally, resultsPath, resultsError, stopped: run.stop });
}

/** How a sending pass ended: what each row came to, and why it stopped early, if it did. */
interface RunEnd {
  tally: Tally;
  resultsPath: string;
  /** The results file could not be written. */
  resultsError: unknown;
  /** Why the run stopped starting rows. */
  stopped: unknown;
}

/** The counts, where the results are, and how to finish: the run's exit code, or its stop thrown. */
function report(ctx: FormContext, opts: BulkOptions, check: Check, { tally, resultsPath, resultsError, stopped }: RunEnd): number {
  const { sheet } = opts;
  const count = (o: Outcome) => tally[o] ?? 0;
  const parts = [`${formatCount(count('created'))} created`];
  if (count('already-created')) parts.push(`${formatCount(count('already-created'))} created by an earlier run`);
  for (const o of ['conflict', 'rejected', 'patch-failed', 'failed', 'invalid', 'not-run'] as const) if (count(o)) parts.push(`${formatCount(count(o))} ${o}`);
  ctx.log.info(`${parts.join(', ')} (of ${formatCount(check.total)} rows).${resultsError === undefined ? ` Results: ${resultsPath}` : ''}`);
  const rerun = partnerCommand(
    ctx.globals,
    `gp create --entity ${q(opts.entity)} --from-csv ${q(opts.csvPath)}${opts.resultsPath ? ` --results ${q(opts.resultsPath)}` : ''}${opts.skipInvalid ? ' --skip-invalid' : ''}${sheet.encoding !== 'utf-8' ? ` --encoding ${sheet.encoding}` : ''}`,
  );
  if (resultsError !== undefined) {
    if (stopped instanceof JournalWriteError && stopped !== resultsError) ctx.log.info(sanitizeTerminal(stopped.message));
    throw resultsError instanceof CliError ? resultsError : new CliError(`Could not write the results file ${resultsPath}: ${errorText(resultsError)}`, { code: 'RESULTS_FILE', exitCode: ExitCode.FAILURE });
  }
  if (stopped !== undefined) {
    // An interrupt is said once, by the error that ends the run ("Interrupted."): only another cause is named here.
    const why = stopped instanceof InterruptedError ? '' : `Stopped: ${sanitizeTerminal(errorText(stopped))}. `;
    ctx.log.info(`${why}Run the same command again to finish; rows already created are not created again:\n  ${rerun}`);
    if (stopped instanceof InterruptedError) throw stopped;
    if (stopped instanceof CliError && !(stopped instanceof NetworkError)) throw stopped;
    throw new CliError(`The bulk run stopped at a network failure: ${errorText(stopped)}`, { code: 'BULK_STOPPED', exitCode: ExitCode.FAILURE, hint: `Run it again when the server answers: ${rerun}` });
  }
  if (count('patch-failed')) ctx.log.info(`Rows whose dynamic details failed are finished by running the same command again (after fixing the cause); they are not created again:\n  ${rerun}`);
  else if (count('failed')) ctx.log.info(`Rows that failed are finished by running the same command again (after fixing the cause):\n  ${rerun}`);
  // Rows left out on purpose (--skip-invalid) do not fail the run; every other row not created does.
  const bad = check.todo - count('created') - count('already-created');
  return bad ? ExitCode.FAILURE : ExitCode.OK;
}


/** A row this run did not start (or finish): what an earlier run did of it (its record: `prior`) is kept. */
function notRun(row: number, prior: JournalEntry | undefined, check: Check): Result {
  const invalid = check.invalid.get(row);
  if (invalid !== undefined) return { row, outcome: 'invalid', error: invalid };
  return { row, outcome: prior?.state === 'done' ? 'already-created' : 'not-run', id: prior?.id, code: prior?.code };
}

interface RowRun {
  ctx: FormContext;
  http: HttpClient;
  form: FormSchema;
  entity: string;
  columns: string[];
  journal: Journal;
  adaptive: AdaptiveConcurrency;
  /** Lookup key (lost-posts.ts) -> the employees found for a POST whose answer was lost. */
  found: Map<string, Found[]>;
  /** Why the run stops starting rows (first reason wins). */
  stop: unknown;
}

/**
 * One request of a row, sent again while the server answers 429 or 503
 * (after its Retry-After, the window halved); any other answer is the caller's.
 */
async function politely<T>(run: RowRun, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await send();
      run.adaptive.success();
      return r;
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 429 && err.status !== 503) || attempt >= MAX_ATTEMPTS || run.stop !== undefined) throw err;
      const wait = parseRetryAfter(err.retryAfter) ?? Math.min(30_000, 250 * 2 ** attempt);
      run.adaptive.congestion(wait);
      // Waits at least as long as the server asked (the window's pause may be later: another row's answer).
      await pause(Math.max(wait, run.adaptive.pauseMs), run);
    }
  }
}

/** A 429/503 not waited out because the run is stopping: the row is left for the re-run, not failed. */
function refusedWhileStopping(run: RowRun, err: unknown): boolean {
  return run.stop !== undefined && err instanceof ApiError && (err.status === 429 || err.status === 503);
}

/** A wait that Ctrl-C ends (the row is then left for the re-run). */
async function pause(ms: number, run: RowRun): Promise<void> {
  try {
    await delay(ms, undefined, { signal: run.ctx.signal });
  } catch {
    throw new InterruptedError();
  }
}

/** One row being onboarded: what it is, what an earlier run recorded of it, and its bodies. */
interface RowWork {
  row: CsvRow;
  ident: RowIdentity;
  prior: JournalEntry | undefined;
  bodies: ReturnType<typeof buildBodies>;
  /** Its work e-mail, lower case (worked out when needed: it walks the whole form). */
  emailOf: () => string | undefined;
  /** What a lost POST of it is looked for by (lost-posts.ts). */
  lookupKey: () => string | undefined;
  /** Journals a step after its request; a journal that cannot be written stops the run, not this row. */
  note: (state: RowState, extra?: Omit<JournalEntry, 'row' | 'key' | 'hash' | 'rest' | 'fields' | 'state'>) => void;
}

const LOST_UNKNOWN = 'an earlier run sent this row and its answer was lost; it cannot be told apart on the server (no work e-mail, and not one employee of its name), so it is not sent again (that could create the employee twice): check with partner employees list whether it exists';

/** The employee of a row: created now, or by an earlier run (`earlier`). */
interface Made {
  id: string;
  code: string | undefined;
  earlier: boolean;
}

/**
 * One row: its POST (journalled "posting" before, its outcome after), then
 * its PATCH. What an earlier run recorded decides where it starts:
 * done → nothing; created or patch-failed → the PATCH only; posting (the
 * answer was lost) → looked up on the server first (lost-posts.ts).
 */
async function onboardRow(run: RowRun, row: CsvRow, check: Check): Promise<Result> {
  const invalid = check.invalid.get(row.row);
  if (invalid !== undefined) return { row: row.row, outcome: 'invalid', error: invalid };
  const { form, journal } = run;
  const ident = check.identify(row.cells);
  const prior = priorOf(journal, ident, row.cells);
  if (prior?.state === 'done') return { row: row.row, id: prior.id, code: prior.code, outcome: 'already-created' };
  // A row the server refused (conflict, rejected) is sent again: the cause may have been fixed there.
  // Checked by the check pass already (these bytes, this form): only its answers are needed now.
  const { doc } = rowDoc(form, run.columns, row, { check: false });
  const work: RowWork = {
    row,
    ident,
    prior,
    bodies: buildBodies(form, run.entity, doc),
    emailOf: () => workEmailOf(form, doc)?.toLowerCase(),
    lookupKey: () => lookupKey(doc, workEmailOf(form, doc)),
    note: (state, extra = {}) => {
      try {
        journal.record({ row: row.row, ...ident, state, ...extra });
      } catch (err) {
        run.stop ??= err;
      }
    },
  };
  const made = await madeOf(run, work, check);
  if (!('earlier' in made)) return made;
  return patchRow(run, work, made);
}

/** The row's employee: the one an earlier run created (or whose lost POST is found on the server), else POSTed now. */
async function madeOf(run: RowRun, work: RowWork, check: Check): Promise<Made | Result> {
  const { prior } = work;
  if ((prior?.state === 'created' || prior?.state === 'patch-failed') && prior.id !== undefined) return { id: prior.id, code: prior.code, earlier: true };
  if (prior?.state === 'posting') {
    // The last run sent this POST and never saw the answer: found on the server, it is not sent again.
    const key = work.lookupKey();
    const hits = key === undefined ? undefined : (run.found.get(key) ?? []);
    // By e-mail the server's own identity; by name, one employee only (two of one name: the operator decides).
    const hit = hits && (key!.startsWith('mail:') ? hits[0] : hits.length === 1 ? hits[0] : undefined);
    if (hit) {
      work.note('created', { id: hit.id, code: hit.code });
      return { id: hit.id, code: hit.code, earlier: true };
    }
    // No way to look, or more than one employee found: sending it again could create it twice.
    if (run.stop === undefined && (hits === undefined || hits.length > 1)) return { row: work.row.row, outcome: 'failed', error: LOST_UNKNOWN };
  }
  if (run.stop !== undefined) return notRun(work.row.row, prior, check);
  return postRow(run, work, check);
}

/** The POST of a row, journalled "posting" (durably) before it goes out and with its outcome after. */
async function postRow(run: RowRun, work: RowWork, check: Check): Promise<Made | Result> {
  const { row, prior } = work;
  // Durable before the POST: a crash from here on leaves "posting", which a re-run looks up.
  try {
    run.journal.record({ row: row.row, ...work.ident, state: 'posting' });
  } catch (err) {
    run.stop ??= err;
    return notRun(row.row, prior, check);
  }
  /** A POST may have reached the server: a 503 (or an earlier run's lost answer) makes a 409 worth a look. */
  let uncertain = prior?.state === 'posting';
  try {
    const res = await politely(run, async () => {
      try {
        return await createGpEmployment(run.http, work.bodies.create);
      } catch (err) {
        if (err instanceof ApiError && err.status === 503) uncertain = true;
        throw err;
      }
    });
    const code = typeof res.employeeCode === 'string' ? res.employeeCode : undefined;
    if (typeof res.id !== 'string' || res.id === '') {
      // Created, but without an id its dynamic details cannot be sent: say so, never POST it again.
      work.note('done', { code, error: 'the create answer had no id' });
      return { row: row.row, code, outcome: 'patch-failed', error: 'created, but the answer had no employee id: send its dynamic details with partner dynamic-details submit' };
    }
    work.note('created', { id: res.id, code });
    return { id: res.id, code, earlier: false };
  } catch (err) {
    return postFailed(run, work, check, err, uncertain);
  }
}

/** A POST that failed: the run stops, our own earlier POST is found behind a 409, or the row's outcome is said. */
async function postFailed(run: RowRun, work: RowWork, check: Check, err: unknown, uncertain: boolean): Promise<Made | Result> {
  const { row, prior } = work;
  if (stopsTheRun(err) || refusedWhileStopping(run, err)) {
    run.stop ??= err;
    return notRun(row.row, prior, check);
  }
  const email = err instanceof ApiError && err.status === 409 && uncertain ? work.emailOf() : undefined;
  if (email) {
    // Our own earlier POST may be what the e-mail conflicts with: look before calling it a conflict.
    let hit: { id: string; code?: string } | undefined;
    try {
      hit = (await findLost(run.ctx, run.http, new Set([`mail:${email}`]))).get(`mail:${email}`)?.[0];
    } catch (lookup) {
      if (stopsTheRun(lookup)) {
        run.stop ??= lookup;
        return notRun(row.row, prior, check);
      }
    }
    if (hit) {
      work.note('created', { id: hit.id, code: hit.code });
      return { id: hit.id, code: hit.code, earlier: prior?.state === 'posting' };
    }
  }
  if (err instanceof ApiError && err.status === 409) {
    work.note('conflict', { error: errorText(err) });
    return { row: row.row, outcome: 'conflict', error: errorText(err) };
  }
  if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
    work.note('rejected', { error: errorText(err) });
    return { row: row.row, outcome: 'rejected', error: errorText(err) };
  }
  // A 5xx (or 429 past the retries): the journal keeps "posting", and the next run looks before sending again.
  return { row: row.row, outcome: 'failed', error: errorText(err) };
}

/** The PATCH of a created row's dynamic sections (if it has any), then "done". */
async function patchRow(run: RowRun, work: RowWork, { id, code, earlier }: Made): Promise<Result> {
  const { row, bodies } = work;
  if (bodies.dynamic) {
    try {
      await politely(run, () => submitDynamicDetails(run.http, id, bodies.dynamic));
    } catch (err) {
      if (stopsTheRun(err) || refusedWhileStopping(run, err)) {
        run.stop ??= err;
        return { row: row.row, id, code, outcome: 'not-run', error: 'created; its dynamic details are sent by the next run' };
      }
      work.note('patch-failed', { id, code, error: errorText(err) });
      return { row: row.row, id, code, outcome: 'patch-failed', error: errorText(err) };
    }
  }
  work.note('done', { id, code });
  return { row: row.row, id, code, outcome: earlier ? 'already-created' : 'created' };
}

