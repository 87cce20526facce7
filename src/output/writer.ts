import type { Writable } from 'node:stream';
import type { IO } from '../io.js';
import { readyBatches } from './batch.js';
import { rawRows } from '../json/raw-rows.js';
import { writeWarning } from './colors.js';
import { csvRecord } from './csv.js';
import { jsonOf } from './depth.js';
import { checkFieldsPresent, flatten, getPath, pickFields } from './fields.js';
import type { Format } from './format.js';
import { writeChunk } from './stream.js';
import { keepInView } from './pager.js';
import { wrapMessage } from '../text/wrap.js';
import type { Column, TableLayout } from './table.js';
import { jsonSafe, jsonText } from './sanitize.js';
import { sanitizeCell, sanitizeTerminal } from '../text/sanitize.js';

export interface OutputOptions {
  format: Format;
  fields?: string[];
  /** Only ids, one per line. */
  quiet?: boolean;
  /** Keep formula-like CSV cells as they are. */
  csvRaw?: boolean;
  /** Start CSV with a UTF-8 BOM (csvStart). */
  bom?: boolean;
  /** jq filter applied to the whole JSON document (what `json` would print). */
  jq?: string;
}

export interface ListSpec {
  /** Default table columns (most useful first). */
  columns: Column[];
  /** Default CSV columns: every field of the resource, in spec order. */
  csvColumns: Column[];
  /**
   * JSON shape: absent, an array; with it, {"data": [...], "pagination": …}
   * (one page and --all alike), the pagination read after the last item so
   * that a streamed walk can write it last.
   */
  pagination?: () => unknown;
  /** Text after the table (page x of y, total), printed once at the end. */
  footer?: () => string | undefined;
  /**
   * What a table with no row says, in place of the generic `No results.`: a
   * command that can say why there is nothing ("No saved drafts.") says it
   * here, once, rather than after the generic line. Read once the rows are
   * written. Other formats print their empty document (see saysEmpty).
   */
  empty?: () => string | undefined;
  /** Field printed by --quiet. */
  idField?: string;
}

/** Rows per table block when a long stream is shown as a table. */
const TABLE_BLOCK = 500;

type Items = AsyncIterable<unknown> | Iterable<unknown>;

/** What every list writer takes: where to write, the spec, the options, and the columns --fields asked for. */
interface ListRun {
  io: IO;
  out: Writable;
  spec: ListSpec;
  opts: OutputOptions;
  fieldColumns: Column[] | undefined;
}

/**
 * The one entry point for lists. Items are consumed as they arrive and written
 * with backpressure, so memory stays flat for NDJSON, CSV and JSON arrays.
 */
export async function writeList(io: IO, out: Writable, items: Items, spec: ListSpec, opts: OutputOptions): Promise<number> {
  // A field that is also a default column keeps its kind (a code is never cut) and style (status colours).
  const fieldColumns = opts.fields?.map((f): Column => {
    const known = spec.columns.find((c) => c.key === f && !c.value);
    return { key: f, kind: known?.kind, style: known?.style };
  });
  const run: ListRun = { io, out, spec, opts, fieldColumns };
  if (opts.quiet) return writeIds(run, items);
  // One document, as -o json prints it: every page of --all, not page by page.
  if (opts.jq !== undefined) return writeListJq(run, items, opts.jq);
  switch (opts.format) {
    case 'ndjson':
      return writeNdjson(run, items);
    case 'json':
      return writeJsonArray(run, items);
    case 'csv':
      return writeCsvList(run, items);
    case 'table':
      return writeTable(run, items);
  }
  return 0;
}

/**
 * Whether a list written with these options says, when it has no row, why
 * (ListSpec.empty): a table does; JSON, NDJSON, CSV, --jq and -q print their
 * empty document, and the command may say it on stderr for a person.
 */
export function saysEmpty(opts: OutputOptions): boolean {
  return opts.format === 'table' && !opts.quiet && opts.jq === undefined;
}

/** -q: the id of each item, one per line. */
async function writeIds({ out, spec }: ListRun, items: Items): Promise<number> {
  const idField = spec.idField ?? 'id';
  const { displayText } = await tableModule();
  let count = 0;
  for await (const item of items) {
    count++;
    await writeChunk(out, `${sanitizeTerminal(displayText(getPath(item, idField), idField))}\n`);
  }
  return count;
}

async function writeListJq({ io, out, spec, opts }: ListRun, items: Items, jq: string): Promise<number> {
  const all: unknown[] = [];
  for await (const item of items) all.push(project(item, opts.fields));
  await writeJq(io, out, spec.pagination ? { data: all, pagination: spec.pagination() ?? null } : all, jq);
  return all.length;
}

/**
 * One write per batch of rows ready together (a page), not per row; the rows are
 * serialised once each and made safe to print in one pass over the batch (jsonSafe).
 */
async function writeNdjson({ out, opts }: ListRun, items: Items): Promise<number> {
  let count = 0;
  for await (const batch of readyBatches(items)) {
    let chunk = '';
    const raw = opts.fields ? undefined : rawRows(batch);
    for (let k = 0; k < batch.length; k++) chunk += `${raw?.[k] ?? jsonOf(project(batch[k], opts.fields))}\n`;
    count += batch.length;
    await writeChunk(out, jsonSafe(chunk));
  }
  return count;
}

/** One formatting rule, streamed: one record per line inside the array, in constant memory; a write per batch. */
async function writeJsonArray({ out, spec, opts }: ListRun, items: Items): Promise<number> {
  let count = 0;
  const indent = spec.pagination ? '    ' : '  ';
  await writeChunk(out, spec.pagination ? '{\n  "data": [' : '[');
  for await (const batch of readyBatches(items)) {
    let chunk = '';
    const raw = opts.fields ? undefined : rawRows(batch);
    for (let k = 0; k < batch.length; k++) chunk += `${count++ === 0 ? '\n' : ',\n'}${indent}${raw?.[k] ?? jsonOf(project(batch[k], opts.fields))}`;
    await writeChunk(out, jsonSafe(chunk));
  }
  const close = count === 0 ? ']' : `\n${indent.slice(2)}]`;
  await writeChunk(out, spec.pagination ? `${close},\n  "pagination": ${jsonText(spec.pagination() ?? null)}\n}\n` : `${close}\n`);
  return count;
}

async function writeCsvList({ io, out, spec, opts, fieldColumns }: ListRun, items: Items): Promise<number> {
  const cols = fieldColumns ?? spec.csvColumns;
  // On a terminal every cell is made safe to print; files and pipes keep the data (formulas neutralised unless --csv-raw).
  const csvOpts = { raw: opts.csvRaw, terminal: io.stdoutIsTTY, columns: cols.map((c) => c.key) };
  // The header too: --fields paths are the user's, but a header is a cell like any other.
  await writeChunk(out, csvStart(io, out, opts) + csvRecord(cols.map((c) => c.header ?? c.key), csvOpts));
  let count = 0;
  for await (const batch of readyBatches(items)) {
    let chunk = '';
    for (const item of batch) chunk += csvRecord(cols.map((c) => cellValue(item, c)), csvOpts);
    count += batch.length;
    await writeChunk(out, chunk);
  }
  return count;
}

/** The first block decides the layout (columns shown, widths); later blocks follow it under the same header. */
async function writeTable({ io, out, spec, fieldColumns }: ListRun, items: Items): Promise<number> {
  const cols = fieldColumns ?? spec.columns;
  const { displayText, hiddenNote, layoutTable, renderHeader, renderRows } = await tableModule();
  let layout: TableLayout | undefined;
  let block: string[][] = [];
  let count = 0;
  const flush = async () => {
    if (block.length === 0) return;
    let text = '';
    if (!layout) {
      layout = layoutTable(cols, block, { columns: io.stdoutIsTTY ? io.columns : undefined, color: io.color });
      text = renderHeader(layout);
    }
    await writeChunk(out, text + renderRows(layout, block));
    block = [];
  };
  try {
    for await (const item of items) {
      block.push(cols.map((c) => sanitizeCell(displayText(cellValue(item, c), c.key))));
      count++;
      if (block.length >= TABLE_BLOCK) await flush();
    }
  } catch (err) {
    // The rows read before a failure (a page that could not be had, Ctrl-C) are shown, as -o csv and
    // ndjson have written theirs: what the error says was written was.
    await flush().catch(() => undefined);
    throw err;
  }
  await flush();
  const note = layout && hiddenNote(layout);
  // Prose under the table, at stdout's width between words (its cells were fitted by the layout).
  const prose = (text: string) => wrapMessage(text, io.stdoutIsTTY ? io.columns : undefined);
  if (layout && note) await writeChunk(out, `${layout.colors.dim(prose(note))}\n`);
  if (count === 0) await writeChunk(out, `${prose(spec.empty?.() ?? 'No results.')}\n`);
  const said = spec.footer?.();
  const footer = said && prose(said);
  if (footer) {
    // Where the next page is: seen even when the reader quits the pager before the end.
    keepInView(out, footer);
    await writeChunk(out, `${footer}\n`);
  }
  return count;
}

export interface RecordSpec {
  /** The table view (a verdict, a check list); default: a key/value block. With --fields, the key/value block of those fields unless `tableFields`. */
  table?: (value: unknown) => string;
  /** The table view applies --fields itself. */
  tableFields?: boolean;
  /** Field printed by -q. */
  idField?: string;
  /**
   * A --fields path the document lacks: a usage error before anything is
   * written (default: the fields were known only from the answer); `warn`
   * when the document reports a change already made (a created employee);
   * `ignore` when the command checked them itself (a stream of records).
   */
  unknownFields?: 'error' | 'warn' | 'ignore';
}

/**
 * The one entry point for a single document (a profile, a status report, a
 * verdict, a created employee): the same -o, --fields, --jq and -q semantics
 * as lists. CSV is one row of the flattened record.
 */
export async function writeRecord(io: IO, out: Writable, value: unknown, opts: OutputOptions, spec: RecordSpec = {}): Promise<void> {
  if (opts.fields && (spec.unknownFields ?? 'error') === 'error') checkFieldsPresent(value, opts.fields);
  if (opts.fields && spec.unknownFields === 'warn') warnUnknownFields(io, value, opts.fields);
  const doc = project(value, opts.fields);
  if (opts.quiet) {
    const { displayText } = await tableModule();
    const idField = spec.idField ?? 'id';
    await writeChunk(out, `${sanitizeTerminal(displayText(getPath(value, idField), idField))}\n`);
    return;
  }
  if (opts.jq !== undefined) return writeJq(io, out, doc, opts.jq);
  switch (opts.format) {
    case 'json':
      return writeJson(out, doc);
    case 'ndjson':
      return writeChunk(out, `${jsonText(doc)}\n`);
    case 'csv': {
      const flat = flatten(doc);
      const keys = opts.fields ?? Object.keys(flat);
      const csvOpts = { raw: opts.csvRaw, terminal: io.stdoutIsTTY, columns: keys };
      // The keys of the record are the API's: the header row is neutralised like the values.
      await writeChunk(out, csvStart(io, out, opts) + csvRecord(keys, csvOpts));
      return writeChunk(out, csvRecord(keys.map((k) => (opts.fields ? getPath(doc, k) : flat[k])), csvOpts));
    }
    case 'table':
      return writeChunk(out, spec.table && (!opts.fields || spec.tableFields) ? spec.table(value) : (await import('./key-value.js')).renderKeyValue(doc, 0, { labels: 'human', width: io.stdoutIsTTY ? io.columns : undefined }));
  }
}

/** Streams that have had their BOM: one at the start, however many records a command writes to one stream. */
const bomWritten = new WeakSet<Writable>();

/**
 * What CSV output starts with: with --bom a UTF-8 byte order mark (Excel on
 * Windows reads a CSV without one as cp1252), once per stream; nothing on a
 * terminal, where it is one more invisible character.
 */
export function csvStart(io: Pick<IO, 'stdoutIsTTY'>, out: Writable, opts: Pick<OutputOptions, 'bom'>): string {
  if (!opts.bom || io.stdoutIsTTY || bomWritten.has(out)) return '';
  bomWritten.add(out);
  return '\ufeff';
}

/** A mistyped --fields path prints null: say so, with the fields there are (`employees list` names its record's fields the same way). */
function warnUnknownFields(io: IO, value: unknown, fields: string[]): void {
  const missing = fields.filter((f) => getPath(value, f) === undefined);
  if (missing.length === 0) return;
  const known = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  writeWarning(io, sanitizeTerminal(`--fields ${missing.join(', ')}: not in this output; shown as null.${known.length ? ` Fields: ${known.join(', ')}.` : ''}`));
}

/** Runs jq (loaded only now) on the document; raw strings are sanitised on a terminal. */
async function writeJq(io: IO, out: Writable, doc: unknown, filter: string): Promise<void> {
  const { applyJq } = await import('./jq.js');
  const text = await applyJq(doc, filter);
  if (text) await writeChunk(out, io.stdoutIsTTY ? sanitizeTerminal(text) : text);
}

/** One JSON document (a profile, a verdict), pretty-printed. */
export async function writeJson(out: Writable, value: unknown): Promise<void> {
  await writeChunk(out, `${jsonText(value, 2)}\n`);
}

/**
 * The table renderer (string-width and its tables: ~30 ms to load) only when a
 * table or a display value is wanted, so `-o ndjson|csv|json` do not pay for it.
 */
function tableModule(): Promise<typeof import('./table.js')> {
  return import('./table.js');
}

function cellValue(item: unknown, c: Column): unknown {
  return c.value ? c.value(item) : getPath(item, c.key);
}

function project(item: unknown, fields?: string[]): unknown {
  return fields ? pickFields(item, fields) : item;
}
