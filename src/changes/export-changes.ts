// An export that says what changed (--changes-since FILE, --state FILE): the
// earlier side read first (a bad file fails before any request), this run's
// records collected whole (the walk's integrity checks throw before anything
// is written), the diff printed through the one output layer, and only once
// that output is whole and flushed is the state replaced. A run that fails or
// is killed before then leaves the state as it was: the next run reports the
// same changes again (at least once, never lost).
import type { Writable } from 'node:stream';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { outputFailure, outputFlushed } from '../io.js';
import { stringifyExact } from '../json/stringify-exact.js';
import { openOutputFile } from '../output/output-file.js';
import type { Column } from '../output/table.js';
import { writeList, type ListSpec, type OutputOptions } from '../output/writer.js';
import type { Logger } from '../run-basics.js';
import { countOf, formatCount } from '../text/count.js';
import { CHANGE_FIELDS } from './fields.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { idKey, readBaseline, type Baseline } from './baseline.js';
import { companiesOf, diffRecords, type ChangeCounts } from './diff.js';
import { topOf } from './compare.js';
import { lockState, readState, writeState } from './state-file.js';
import { DamagedStateError, StateDamage, STATE_VERSION, type StateHeader } from './state-format.js';

export interface ChangesFlags {
  changesSince?: string;
  state?: string;
}

/** What the command hands over: where it reads from and writes to, and how its records look. */
export interface ChangesTarget {
  /** `employees list`, `trackers onboarding`… (a state names it). */
  command: string;
  /** The API's base URL ('sandbox' for --sandbox). */
  baseUrl: string;
  /** The walk's server-side filters (a state names them: another filter lists other records). */
  filters: Record<string, string | undefined>;
  /** The fields of the command's records (an export of another command is refused). */
  recordFields: readonly string[];
  noun: string;
  io: IO;
  stdout: Writable;
  log: Logger;
  onCleanup(fn: () => unknown): void;
  out: OutputOptions;
  outputFile?: string;
  spec: ListSpec;
  /** JSON as {data, pagination} (employees list) rather than an array (trackers). */
  paged: boolean;
  /** The text a record was received as (the server's row), when known: equal texts need no field comparison, and the state keeps it. */
  rawOf?: (record: unknown) => string | undefined;
  /** Test hook (PARTNER_TEST_KILL_BEFORE_STATE): the process is killed after the output, before the state. */
  killBeforeState?: boolean;
}


/** Runs the diff export; `collect` walks and returns this run's records (throwing when the walk was not whole). */
export async function exportChanges(flags: ChangesFlags, t: ChangesTarget, collect: () => Promise<unknown[]>): Promise<void> {
  const release = flags.state !== undefined ? lockState(flags.state) : undefined;
  if (release) t.onCleanup(release);
  try {
    const base = await loadBaseline(flags, t);
    const records = byId(await collect(), t);
    checkCompany(base, records, t);
    const { rows, counts } = diffRecords(records, base, t.out.fields, t.rawOf);
    await writeChanges(rows, t);
    if (flags.state !== undefined) {
      if (t.killBeforeState) process.kill(process.pid, 'SIGKILL');
      await writeState(flags.state, headerOf(t, records), [...records.values()].map((r) => t.rawOf?.(r) ?? stringifyExact(r)), t.onCleanup);
    }
    t.log.info(summary(base, counts, records.size, t.noun));
  } finally {
    release?.();
  }
}

/** The earlier side: the state when there is one, else --changes-since FILE, else nothing (every record is added). */
async function loadBaseline(flags: ChangesFlags, t: ChangesTarget): Promise<Baseline> {
  const state = flags.state !== undefined ? await readState(flags.state) : undefined;
  if (state && flags.changesSince !== undefined && flags.changesSince !== flags.state) {
    throw new UsageError(`--state ${sanitizeTerminal(flags.state!)} exists and is what this run compares with; --changes-since is only for a first run without a state`, 'Drop --changes-since (or give it the same file as --state).', 'CHANGES_TWO_BASELINES');
  }
  let base = state;
  if (!base && flags.changesSince !== undefined) {
    try {
      base = await readBaseline(flags.changesSince, '--changes-since');
    } catch (err) {
      if (err instanceof StateDamage) throw new DamagedStateError(sanitizeTerminal(err.message), 'Give an undamaged state file or an earlier export; this file was left as it is.');
      throw err;
    }
  }
  if (!base) {
    t.log.info(`No state in ${sanitizeTerminal(flags.state!)} yet: every ${t.noun} is reported as added, and the state is written after the output.`);
    return { source: flags.state!, kind: 'state', mode: 'typed', records: new Map() };
  }
  checkSameSource(base, t);
  return base;
}

function foreign(base: Baseline, what: string): CliError {
  return new CliError(`${sanitizeTerminal(base.source)} was taken from ${what}; its records cannot be compared with this run's`, {
    code: 'CHANGES_FOREIGN',
    exitCode: ExitCode.USAGE,
    hint: 'Compare with a file from the same company, base URL and command (and the same filters); for a first run against this one, start a new --state file.',
  });
}

/** A state names what it was taken from; a plain export can be told by its fields (and its company, below). */
function checkSameSource(base: Baseline, t: ChangesTarget): void {
  const h = base.header;
  if (h) {
    if (h.baseUrl !== t.baseUrl) throw foreign(base, `another API (${sanitizeTerminal(h.baseUrl)}, not ${sanitizeTerminal(t.baseUrl)})`);
    if (h.command !== t.command) throw foreign(base, `another command (${sanitizeTerminal(h.command)}, not ${t.command})`);
    const now = filtersOf(t);
    if (JSON.stringify(h.filters) !== JSON.stringify(now)) throw foreign(base, `other filters (${sanitizeTerminal(JSON.stringify(h.filters))}, not ${JSON.stringify(now)})`);
    return;
  }
  const tops = base.columns ? new Set(base.columns.map(topOf)) : (base.tops ?? new Set<string>());
  const stray = [...tops].filter((f) => !t.recordFields.includes(f));
  if (stray.length > 0) throw foreign(base, `another command (its records have ${sanitizeTerminal(stray.slice(0, 3).join(', '))}, which ${t.command} records do not)`);
}

function checkCompany(base: Baseline, records: ReadonlyMap<string, unknown>, t: ChangesTarget): void {
  const now = companiesOf(records.values());
  const before = base.header ? new Set(base.header.company ? [base.header.company] : []) : companiesOf(base.records.values());
  if (now.size === 0 || before.size === 0) return;
  if (![...now].some((c) => before.has(c))) throw foreign(base, `another company (customerId ${sanitizeTerminal([...before][0]!)}, not ${sanitizeTerminal([...now][0]!)}); nothing was written`);
  void t;
}

function filtersOf(t: ChangesTarget): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(t.filters).sort()) if (t.filters[k] !== undefined) out[k] = t.filters[k]!;
  return out;
}

/** This run's records by id; an id that repeats (the walk dedups pages; trackers come in one answer) is refused. */
function byId(records: unknown[], t: ChangesTarget): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const r of records) {
    const id = idKey(r !== null && typeof r === 'object' ? (r as Record<string, unknown>).id : undefined);
    if (id === undefined) throw new CliError(`The server sent a ${t.noun} without a usable id: records are matched by id, so no changes can be told`, { code: 'CHANGES_NO_ID', exitCode: ExitCode.FAILURE, hint: 'Report it to the API provider; a plain export (without --changes-since) still works.' });
    if (out.has(id)) throw new CliError(`The server sent ${t.noun} id ${sanitizeTerminal(id.slice(0, 80))} twice: records are matched by id, so no changes can be told; nothing was written`, { code: 'CHANGES_DUPLICATE_ID', exitCode: ExitCode.FAILURE, hint: 'Run again; if it happens again, report it to the API provider.' });
    out.set(id, r);
  }
  return out;
}

function headerOf(t: ChangesTarget, records: ReadonlyMap<string, unknown>): StateHeader {
  const companies = [...companiesOf(records.values())];
  return { partnerState: STATE_VERSION, command: t.command, baseUrl: t.baseUrl, company: companies[0] ?? null, filters: filtersOf(t), records: records.size, takenAt: new Date().toISOString() };
}

const CHANGE_COLUMN: Column = { key: 'change', header: 'CHANGE', kind: 'short' };
const CHANGED_COLUMN: Column = { key: 'changedFields', header: 'CHANGED', kind: 'free', priority: 6 };

/** The diff through the output layer, whole: committed to --output-file, or flushed to stdout without error. */
async function writeChanges(rows: Record<string, unknown>[], t: ChangesTarget): Promise<void> {
  const spec: ListSpec = {
    ...t.spec,
    columns: [CHANGE_COLUMN, ...t.spec.columns, CHANGED_COLUMN],
    csvColumns: [{ key: 'change' }, { key: 'changedFields' }, ...t.spec.csvColumns],
    pagination: t.paged ? () => ({ currentPage: 1, pageSize: rows.length, totalPages: rows.length > 0 ? 1 : 0, totalItems: rows.length, hasNextPage: false, hasPreviousPage: false }) : undefined,
    footer: undefined,
  };
  // --fields keeps the change of each record: a diff without it cannot be read.
  const out = t.out.fields ? { ...t.out, fields: [...CHANGE_FIELDS.filter((f) => !t.out.fields!.includes(f)), ...t.out.fields] } : t.out;
  if (t.outputFile === undefined) {
    await writeList(t.io, t.stdout, rows, spec, out);
    await outputFlushed(t.stdout);
    const failed = outputFailure(t.stdout) ?? (t.stdout.destroyed ? new CliError('stdout was closed before the changes were all written; the state was not replaced', { code: 'OUTPUT_CLOSED', exitCode: ExitCode.FAILURE }) : undefined);
    if (failed) throw failed;
    return;
  }
  const sink = await openOutputFile(t.outputFile);
  t.onCleanup(() => sink.abort());
  const io = { ...t.io, stdoutIsTTY: false, columns: undefined };
  await writeList(io, sink.stream, rows, spec, out).catch((err: unknown) => {
    throw sink.writeError() ?? err;
  });
  await sink.commit();
}

function summary(base: Baseline, c: ChangeCounts, now: number, noun: string): string {
  const since = base.records.size === 0 && base.kind === 'state' && !base.header ? 'no earlier state' : sanitizeTerminal(base.source);
  return `Changes since ${since}: ${formatCount(c.added)} added, ${formatCount(c.changed)} changed, ${formatCount(c.removed)} removed (${countOf(now, noun)} now, ${formatCount(c.unchanged)} unchanged).`;
}
