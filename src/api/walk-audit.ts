import { CliError, ExitCode } from '../errors.js';
import { countOf, formatCount } from '../output/count.js';

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
  /** Some answer's totalItems differed from the first one: the company changed. */
  totalsChanged: boolean;
  /** Items whose id had already been emitted (skipped), and the pages that sent them. */
  duplicates: number;
  duplicatePages: number[];
  /** Pages before the last with fewer items than the page size, after one re-read. */
  shortPages: { page: number; got: number; expected: number }[];
  /** Pages read a second time to pick up shifted items, and the rows they added. */
  rereads: number;
  recovered: number;
  /** The server said there were more pages after the last one it announced. */
  nextPageClaimedAt?: number;
  /** A problem that stopped the walk (the server ignores `page`, pages never end). */
  fatal?: string;
}

export function newFindings(startPage = 1): WalkFindings {
  return { startPage, pageSize: 0, emitted: 0, complete: false, totalsChanged: false, duplicates: 0, duplicatePages: [], shortPages: [], rereads: 0, recovered: 0 };
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

/** "1,002 rows written" (to stdout), or what became of them with --output-file. */
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
  if (f.totalsChanged && f.firstTotal !== undefined && f.lastTotal !== undefined) {
    const now = expected(f.lastTotal)!;
    const net = f.lastTotal - f.firstTotal;
    // Every employee listed now was looked for (re-reads); rows beyond that are of employees gone since.
    let disappeared = Math.max(0, f.emitted - now);
    const appeared = Math.max(0, net + disappeared);
    disappeared = Math.max(disappeared, -net);
    const missed = Math.max(0, now - f.emitted);
    const parts = [`${employees(appeared)} appeared`, `${formatCount(disappeared)} disappeared`];
    const missing = missed > 0 ? `, ${employees(missed)} listed now ${missed === 1 ? 'was' : 'were'} not written` : '';
    return {
      kind: 'drift',
      message: `The company changed during the export: ${parts.join(', ')}; ${written}${missing}. Re-run to get a consistent snapshot.`,
      warnings,
    };
  }
  const problems: string[] = [];
  for (const s of f.shortPages.slice(0, 3)) problems.push(`page ${formatCount(s.page)}${f.announcedPages ? ` of ${formatCount(f.announcedPages)}` : ''} had ${formatCount(s.got)} employees instead of ${formatCount(s.expected)} (read twice)`);
  if (f.shortPages.length > 3) problems.push(`${formatCount(f.shortPages.length - 3)} more short pages`);
  const want = expected(f.firstTotal);
  const countOk = want === undefined || f.emitted === want;
  if (f.duplicates > 0) {
    const pages = f.duplicatePages.slice(0, 5).map((p) => formatCount(p)).join(', ') + (f.duplicatePages.length > 5 ? ', …' : '');
    const dup = `${employees(f.duplicates)} already sent on earlier pages came again (page${f.duplicatePages.length === 1 ? '' : 's'} ${pages}) and ${f.duplicates === 1 ? 'was' : 'were'} written once`;
    if (countOk && f.shortPages.length === 0) warnings.push(`${dup}.`);
    else problems.push(dup);
  }
  if (!countOk) problems.push(`${formatCount(f.emitted)} of the ${employees(want!)} announced ${f.emitted === 1 ? 'was' : 'were'} found`);
  if (f.nextPageClaimedAt !== undefined) {
    warnings.push(`The server said page ${formatCount(f.nextPageClaimedAt)} had a next page, past the ${formatCount(f.announcedPages ?? f.nextPageClaimedAt)} pages it announced; stopped there.`);
  }
  if (problems.length === 0) return { kind: 'ok', warnings };
  return { kind: 'inconsistent', message: `The server's pages do not add up: ${problems.join('; ')}; ${written}.`, warnings };
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
