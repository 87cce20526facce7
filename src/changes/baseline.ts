// The earlier side of a diff (--changes-since FILE, or the --state file): an
// export partner wrote (a JSON document, NDJSON, or CSV, told apart by their
// content) or a state file. Read whole but bounded in size; JSON keeps its
// numbers' digits (parse-exact); CSV cells become records under partner's own
// dot-path column names, built without a prototype from the file's keys.
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { parseJsonExact } from '../json/parse-exact.js';
import { LosslessNumber } from '../json/lossless-number.js';
import { isUnsafeKey, own, put } from '../safe-keys.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { formatCount } from '../text/count.js';
import type { CompareMode } from './compare.js';
import { isStateText, parseState, type StateHeader } from './state-format.js';

/** An earlier file larger than this is refused (a state of 200,000 employees is ~100 MB). */
export const MAX_BASELINE_BYTES = 256 * 1024 * 1024;

export interface Baseline {
  /** The file as given (messages). */
  source: string;
  kind: 'state' | 'json' | 'ndjson' | 'csv';
  mode: CompareMode;
  /** Records by id, in the file's order. */
  records: Map<string, unknown>;
  /** CSV: the file's columns (dot paths). */
  columns?: string[];
  /** A plain export: the top-level fields it holds (only these can be compared). */
  tops?: Set<string>;
  /** A state file's header: what it was taken of. */
  header?: StateHeader;
  /** NDJSON and state: each record's line as written (the same text as now means no change, without comparing fields). */
  raw?: Map<string, string>;
}

/** Reads FILE, or throws a usage error that says what to do. */
export async function readBaseline(file: string, flag: string): Promise<Baseline> {
  const text = await readBounded(file, flag);
  const label = `${flag} ${file}`;
  if (isStateText(text)) {
    const state = parseState(text, label);
    return { source: file, kind: 'state', mode: 'typed', records: state.records, header: state.header, raw: state.raw };
  }
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') return jsonBaseline(text, file, label);
  return csvBaseline(text, file, label);
}

async function readBounded(file: string, flag: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${flag} ${sanitizeTerminal(file)}: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}`, 'Give the path of an earlier export by partner (JSON, NDJSON or CSV) or of a --state file.', 'CHANGES_FILE');
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`${flag} ${sanitizeTerminal(file)} is not a regular file`, undefined, 'CHANGES_FILE');
    if (info.size > MAX_BASELINE_BYTES) throw new UsageError(`${flag} ${sanitizeTerminal(file)} is larger than ${MAX_BASELINE_BYTES / 1024 / 1024} MiB`, 'Compare against a --state file (compact) or an NDJSON export.', 'CHANGES_FILE_TOO_LARGE');
    const text = (await handle.readFile()).toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    await handle.close();
  }
}

function notAnExport(label: string, why: string): UsageError {
  return new UsageError(`${sanitizeTerminal(label)} is not an export by partner: ${why}`, 'Give an earlier `employees list --all` or trackers export (JSON, NDJSON or CSV), or a --state file.', 'CHANGES_FILE_INVALID');
}

/** A JSON document ({data: [...]} or an array), else NDJSON (one record a line). */
function jsonBaseline(text: string, file: string, label: string): Baseline {
  let doc: unknown;
  try {
    doc = parseJsonExact(text);
  } catch {
    return ndjsonBaseline(text, file, label);
  }
  const rows = Array.isArray(doc) ? doc : doc !== null && typeof doc === 'object' && Array.isArray(own(doc, 'data')) ? (own(doc, 'data') as unknown[]) : undefined;
  // One record alone on one line is NDJSON of one record.
  if (rows === undefined) return doc !== null && typeof doc === 'object' && own(doc, 'id') !== undefined ? ndjsonBaseline(text, file, label) : notAnExport(label, 'a JSON document without a "data" array') as never;
  return typedBaseline(rows, file, label, 'json');
}

function ndjsonBaseline(text: string, file: string, label: string): Baseline {
  const rows: unknown[] = [];
  const lines: string[] = [];
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    if (raw.trim() === '') continue;
    try {
      rows.push(parseJsonExact(raw));
      lines.push(raw);
    } catch {
      throw notAnExport(label, `line ${formatCount(line)} is not JSON (a file cut short?)`);
    }
  }
  const base = typedBaseline(rows, file, label, 'ndjson');
  base.raw = new Map([...base.records.keys()].map((id, k) => [id, lines[k]!]));
  return base;
}

function typedBaseline(rows: unknown[], file: string, label: string, kind: 'json' | 'ndjson'): Baseline {
  const records = new Map<string, unknown>();
  const tops = new Set<string>();
  rows.forEach((row, k) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) throw notAnExport(label, `record ${formatCount(k + 1)} is not an object`);
    if (own(row, 'change') !== undefined) throw isADiff(label);
    for (const key of Object.keys(row)) tops.add(key);
    addRecord(records, idOf(own(row, 'id'), label, k + 1), row, label);
  });
  return { source: file, kind, mode: 'typed', records, tops };
}

function csvBaseline(text: string, file: string, label: string): Baseline {
  let rows: string[][];
  try {
    rows = parse(text, { relax_column_count: false, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] }) as string[][];
  } catch (err) {
    throw notAnExport(label, `not JSON, NDJSON or valid CSV (${String((err as Error).message).slice(0, 120)})`);
  }
  const columns = (rows[0] ?? []).map((c) => c.normalize('NFC'));
  if (columns.includes('change')) throw isADiff(label);
  if (!columns.includes('id')) throw notAnExport(label, 'its CSV header has no id column (export with the default columns, or with --fields id,…)');
  const bad = columns.find((c) => c === '' || c.split('.').some(isUnsafeKey));
  if (bad !== undefined) throw notAnExport(label, `its CSV header has a column named "${sanitizeTerminal(bad.slice(0, 40))}"`);
  const records = new Map<string, unknown>();
  for (let r = 1; r < rows.length; r++) {
    const record: Record<string, unknown> = {};
    rows[r]!.forEach((cell, c) => setPath(record, columns[c]!, cell === '' ? null : cell));
    addRecord(records, idOf(own(record, 'id'), label, r + 1), record, label);
  }
  return { source: file, kind: 'csv', mode: 'cell', records, columns };
}

/** Sets a dot path, building the nesting from own, plain objects. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = own(at, part);
    if (next === null || typeof next !== 'object') put(at, part, {});
    at = own(at, part) as Record<string, unknown>;
  }
  put(at, parts[parts.length - 1]!, value);
}

/** An id as the walk keys it: a string, or a number's text. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string' && id !== '') return id.normalize('NFC');
  if (typeof id === 'number' || id instanceof LosslessNumber) return String(id);
  return undefined;
}

function idOf(id: unknown, label: string, n: number): string {
  const key = idKey(id);
  if (key === undefined) throw notAnExport(label, `record ${formatCount(n)} has no id`);
  return key;
}

function addRecord(records: Map<string, unknown>, id: string, row: unknown, label: string): void {
  if (records.has(id)) {
    throw new UsageError(`${sanitizeTerminal(label)} holds id ${sanitizeTerminal(id.slice(0, 80))} more than once: records are matched by id, so this file cannot be compared`, 'Compare against a complete export without --allow-drift (each id once), or against a --state file.', 'CHANGES_DUPLICATE_ID');
  }
  records.set(id, row);
}

function isADiff(label: string): UsageError {
  return new UsageError(`${sanitizeTerminal(label)} is the output of --changes-since (its records have a "change" field), not an export`, 'Compare against a full export (`--all`) or a --state file.', 'CHANGES_FILE_IS_DIFF');
}
