import { CliError, ExitCode } from '../errors.js';
import { countOf, formatCount } from '../text/count.js';

/**
 * What the page walker's integrity checks found, filled in as it walks
 * (src/api/pages.ts) and judged once at the end by `judgeWalk`.
 */
export interface WalkFindings {
  startPage: number;
  /** Items per page, as the first page announced it. */
  pageSize: number;
  /** totalItems of the first page, and of the last answer received (re-reads included). */
  firstTotal?: number;
  lastTotal?: number;
  /** The page count the first page announced (undefined: the server gave neither totalPages nor totalItems). */
  announcedPages?: number;
  /** Rows handed on (each id once). */
  emitted: number;
  /** Walked to the end: not stopped by --limit, the reader leaving or a fatal problem. */
  complete: boolean;
  /** Some answer's totalItems differed from the first one (the company changed): the first such page and its total. */
  changedTotal?: { page: number; total: number };
  /** The first page's totalPages and totalItems disagreed (the walk went by the smaller). */
  countsDisagree?: { pages: number; items: number };
  /** Items whose id had already been emitted (skipped), and the pages that sent them. */
  duplicates: number;
  duplicatePages: number[];
  /** Items with no usable id (not a string or number), the first page with one, and how many were no object at all (left out). */
  unidentified: number;
  unidentifiedPage?: number;
  notObjects: number;
  /** Pages before the last with fewer items than the page size, after one re-read. */
  shortPages: { page: number; got: number; expected: number }[];
  /** This page and the next, before the announced end, brought no new id (both empty when read twice, or not): the walk stopped there. */
  overAnnounced?: { page: number; empty: boolean };
  /** Pages read a second time to pick up shifted items, and the rows they added. */
  rereads: number;
  recovered: number;
  /** The server said there were more pages after the last one it announced (the next was empty). */
  nextPageClaimedAt?: number;
  /** ... and the page after the last announced held rows not seen before (how many were written). */
  pastEnd?: { page: number; rows: number };
  /** Without totals: the page that said a next page follows, but was empty when read twice (the walk ended there). */
  emptyEnd?: number;
  /** A problem that stopped the walk (the server ignores `page`, pages never end). */
  fatal?: string;
}

export function newFindings(startPage = 1): WalkFindings {
  return { startPage, pageSize: 0, emitted: 0, complete: false, duplicates: 0, duplicatePages: [], unidentified: 0, notObjects: 0, shortPages: [], rereads: 0, recovered: 0 };
}

export type WalkVerdict =
  | { kind: 'ok'; warnings: string[] }
  /** The company changed during the walk (`--allow-drift` accepts it). */
  | { kind: 'drift'; message: string; warnings: string[] }
  /** The pages do not add up although the totals stayed the same (`--allow-drift` accepts it). */
  | { kind: 'inconsistent'; message: string; warnings: string[] }
  /** The walk could not go on (never accepted). */
  | { kind: 'fatal'; message: string; warnings: string[] };

/** Export integrity failures: exit 1, with what happened and how many rows were written. */
export class ExportIntegrityError extends CliError {
  constructor(message: string, hint: string, code: 'EXPORT_DRIFT' | 'EXPORT_INCONSISTENT') {
    super(message, { code, exitCode: ExitCode.FAILURE, hint });
  }
}

const employees = (x: number) => countOf(x, 'employee');

/**
 * "1,002 rows written" (to stdout), or what became of them with --output-file.
 * The rows are those the output holds, or would have held: each employee once.
 * Rows read again (after a short page, or after the company changed) and rows
 * a server sent twice are not counted again, so the figure is never more than
 * the employees seen; it is not the company's size (the drift message says
 * that, from the totals).
 */
export function rowsOutcome(rows: number, file?: string): string {
  const r = countOf(rows, 'row');
  return file === undefined ? `${r} written` : `${r} fetched, ${file} left untouched`;
}

/**
 * The verdict on a finished walk. `written` says what became of the rows
 * (rowsOutcome), for the message.
 */
export function judgeWalk(f: WalkFindings, written = rowsOutcome(f.emitted)): WalkVerdict {
  const warnings: string[] = [];
  if (f.fatal) return { kind: 'fatal', message: `${f.fatal}; ${written}.`, warnings };
  if (!f.complete) return { kind: 'ok', warnings };
  const offset = (f.startPage - 1) * f.pageSize;
  const expected = (total: number | undefined) => (total === undefined ? undefined : Math.max(0, total - offset));
  if (f.changedTotal && f.firstTotal !== undefined && f.lastTotal !== undefined) {
    return { kind: 'drift', message: driftMessage(f.firstTotal, f.lastTotal, f.changedTotal, f.emitted, expected(f.lastTotal)!, written), warnings };
  }
  const problems = pageProblems(f);
  const want = expected(f.firstTotal);
  let miscount: string | undefined;
  if (want !== undefined && f.emitted !== want) {
    miscount = f.emitted < want ? `${formatCount(f.emitted)} of the ${employees(want)} announced ${f.emitted === 1 ? 'was' : 'were'} found` : `${employees(f.emitted)} found, more than the ${formatCount(want)} announced`;
  }
  if (f.duplicates > 0) {
    const pages = f.duplicatePages.slice(0, 5).map((p) => formatCount(p)).join(', ') + (f.duplicatePages.length > 5 ? ', …' : '');
    const dup = `${employees(f.duplicates)} already sent on earlier pages came again (page${f.duplicatePages.length === 1 ? '' : 's'} ${pages}) and ${f.duplicates === 1 ? 'was' : 'were'} written once`;
    // Repeats are harmless only when the count proves every employee came: a total announced and matched.
    if (want === undefined) problems.push(`${dup}; with no total announced, nothing shows that no employee was missed`);
    else if (miscount || problems.length > 0) problems.push(dup);
    else warnings.push(`${dup}.`);
  }
  if (miscount) problems.push(miscount);
  if (f.nextPageClaimedAt !== undefined) {
    // The page that said so was the last of the walk: its number is the page count announced (or grown to).
    const last = formatCount(f.nextPageClaimedAt);
    warnings.push(`The server said page ${last} had a next page, past the ${last} pages it announced; stopped there.`);
  }
  if (f.emptyEnd !== undefined) warnings.push(`The server said there was a next page, but page ${formatCount(f.emptyEnd)} was empty (read twice); stopped there.`);
  if (problems.length === 0) return { kind: 'ok', warnings };
  return { kind: 'inconsistent', message: `The server's pages do not add up: ${problems.join('; ')}; ${written}.`, warnings };
}

/** The company changed: how, as far as the totals and the rows tell (`now`: the employees expected from the last total). */
function driftMessage(first: number, last: number, changed: { page: number; total: number }, emitted: number, now: number, written: string): string {
  const net = last - first;
  // Every employee listed now was looked for (re-reads); rows beyond that are of employees gone since.
  let disappeared = Math.max(0, emitted - now);
  const appeared = Math.max(0, net + disappeared);
  disappeared = Math.max(disappeared, -net);
  const missed = Math.max(0, now - emitted);
  // The totals first: the counts and the rows are read against them, not against a size the reader
  // may have in mind (the company may have changed before page 1 was answered). Neither count seen
  // (the total came back to the first): what the totals said instead.
  const totals = first === last ? `its total stayed at ${employees(first)}` : `its total went from ${formatCount(first)} to ${employees(last)}`;
  const change =
    appeared + disappeared > 0
      ? `${totals} (${formatCount(appeared)} appeared, ${formatCount(disappeared)} disappeared)`
      : `its total went from ${formatCount(first)} to ${employees(changed.total)} (page ${formatCount(changed.page)}) and back`;
  const missing = missed > 0 ? `, ${employees(missed)} listed now ${missed === 1 ? 'was' : 'were'} not written` : '';
  return `The company changed during the export: ${change}; ${written}${missing}. Re-run to get a consistent snapshot.`;
}

/** What the pages themselves got wrong (counts, empty and short pages, rows past the end, items without ids), in that order. */
function pageProblems(f: WalkFindings): string[] {
  const problems: string[] = [];
  const of = f.announcedPages ? ` of ${formatCount(f.announcedPages)}` : '';
  if (f.countsDisagree) {
    const { pages, items } = f.countsDisagree;
    problems.push(`page ${formatCount(f.startPage)} announced ${countOf(pages, 'page')} but ${employees(items)}, which fill ${countOf(Math.ceil(items / f.pageSize), 'page')} of ${formatCount(f.pageSize)}; the walk went by the smaller`);
  }
  if (f.overAnnounced) {
    const { page, empty } = f.overAnnounced;
    const what = empty ? 'was empty (read twice), and so was page' : 'brought no employee not already written, and neither did page';
    problems.push(`page ${formatCount(page)}${of} ${what} ${formatCount(page + 1)}: the server announced more pages than it has; stopped`);
  }
  for (const s of f.shortPages.slice(0, 3)) problems.push(`page ${formatCount(s.page)}${of} had ${formatCount(s.got)} employees instead of ${formatCount(s.expected)} (read twice)`);
  if (f.shortPages.length > 3) problems.push(`${formatCount(f.shortPages.length - 3)} more short pages`);
  if (f.pastEnd) {
    const claimed = f.pastEnd.page - 1;
    problems.push(`page ${formatCount(claimed)} said it had a next page, past the ${formatCount(claimed)} pages announced, and page ${formatCount(f.pastEnd.page)} held ${countOf(f.pastEnd.rows, 'more employee')}; stopped there`);
  }
  if (f.unidentified > 0) {
    const left = f.notObjects > 0 ? `, ${formatCount(f.notObjects)} of them not an object at all (left out)` : '';
    problems.push(`${countOf(f.unidentified, 'item')} came without a usable id (first on page ${formatCount(f.unidentifiedPage!)})${left}: nothing shows that no employee was written twice`);
  }
  return problems;
}

/** The error for a verdict that is not accepted, or undefined (ok, or accepted with --allow-drift). */
export function verdictError(v: WalkVerdict, allowDrift: boolean): ExportIntegrityError | undefined {
  if (v.kind === 'ok') return undefined;
  if (v.kind === 'fatal') return new ExportIntegrityError(v.message, 'The server\'s pagination cannot be trusted; nothing was changed on your side. Report it to the API provider.', 'EXPORT_INCONSISTENT');
  if (allowDrift) return undefined;
  if (v.kind === 'drift') return new ExportIntegrityError(v.message, 'Pass --allow-drift to keep what was seen (exit 0 with a warning).', 'EXPORT_DRIFT');
  return new ExportIntegrityError(v.message, 'Re-run the export; if it happens again, report it to the API provider (or pass --allow-drift to keep what was seen).', 'EXPORT_INCONSISTENT');
}

/**
 * What an export does with the findings once every row was handed to the
 * output: the warnings to print, and the error to fail with (before an
 * --output-file is committed, so the previous file stays untouched).
 */
export function settleWalk(f: WalkFindings, opts: { rows: number; file?: string; allowDrift: boolean }): { warnings: string[]; error?: ExportIntegrityError } {
  // Accepted with --allow-drift, the rows do reach the file: say so.
  const provisional = judgeWalk(f, rowsOutcome(opts.rows, opts.file));
  const error = verdictError(provisional, opts.allowDrift);
  if (error || provisional.kind === 'ok') return { warnings: provisional.warnings, error };
  const accepted = judgeWalk(f, rowsOutcome(opts.rows));
  const message = accepted.kind === 'ok' ? '' : accepted.message.replace(/ Re-run to get a consistent snapshot\.$/, '');
  return { warnings: [...accepted.warnings, `${message} Kept as seen (--allow-drift).`] };
}
