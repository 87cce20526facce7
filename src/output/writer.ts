import type { Writable } from 'node:stream';
import type { IO } from '../io.js';
import { csvRecord } from './csv.js';
import { getPath, pickFields } from './fields.js';
import type { Format } from './format.js';
import { writeChunk } from './stream.js';
import { displayText, hiddenNote, layoutTable, renderHeader, renderRows, type Column, type TableLayout } from './table.js';
import { jsonText, sanitizeCell, sanitizeTerminal } from './sanitize.js';

export interface OutputOptions {
  format: Format;
  fields?: string[];
  /** Only ids, one per line. */
  quiet?: boolean;
  /** Keep formula-like CSV cells as they are. */
  csvRaw?: boolean;
  /** jq filter applied to the whole JSON document (what `json` would print). */
  jq?: string;
}

export interface ListSpec {
  /** Default table columns (most useful first). */
  columns: Column[];
  /** Default CSV columns: every field of the resource, in spec order. */
  csvColumns: Column[];
  /** For JSON of one page: wraps the items as a document ({data, pagination}); absent, JSON is an array. */
  jsonDocument?: (items: unknown[]) => unknown;
  /** Text after the table (page x of y, total), printed once at the end. */
  footer?: () => string | undefined;
  /** Field printed by --quiet. */
  idField?: string;
}

/** Rows per table block when a long stream is shown as a table. */
const TABLE_BLOCK = 500;

/**
 * The one entry point for lists. Items are consumed as they arrive and written
 * with backpressure, so memory stays flat for NDJSON, CSV and JSON arrays.
 */
export async function writeList(io: IO, out: Writable, items: AsyncIterable<unknown> | Iterable<unknown>, spec: ListSpec, opts: OutputOptions): Promise<number> {
  // A field that is also a default column keeps its kind (a code is never cut) and style (status colours).
  const fieldColumns = opts.fields?.map((f): Column => {
    const known = spec.columns.find((c) => c.key === f && !c.value);
    return { key: f, kind: known?.kind, style: known?.style };
  });
  let count = 0;
  if (opts.quiet) {
    const idField = spec.idField ?? 'id';
    for await (const item of items) {
      count++;
      await writeChunk(out, `${sanitizeTerminal(displayText(getPath(item, idField)))}\n`);
    }
    return count;
  }
  if (opts.jq !== undefined) {
    // One document, as -o json prints it: every page of --all, not page by page.
    const all: unknown[] = [];
    for await (const item of items) all.push(project(item, opts.fields));
    await writeJq(io, out, spec.jsonDocument ? spec.jsonDocument(all) : all, opts.jq);
    return all.length;
  }
  switch (opts.format) {
    case 'ndjson': {
      for await (const item of items) {
        count++;
        await writeChunk(out, `${jsonText(project(item, opts.fields))}\n`);
      }
      break;
    }
    case 'json': {
      if (spec.jsonDocument) {
        const all: unknown[] = [];
        for await (const item of items) all.push(project(item, opts.fields));
        count = all.length;
        await writeChunk(out, `${jsonText(spec.jsonDocument(all), 2)}\n`);
        break;
      }
      await writeChunk(out, '[');
      for await (const item of items) {
        await writeChunk(out, `${count === 0 ? '\n' : ',\n'}  ${jsonText(project(item, opts.fields))}`);
        count++;
      }
      await writeChunk(out, count === 0 ? ']\n' : '\n]\n');
      break;
    }
    case 'csv': {
      const cols = fieldColumns ?? spec.csvColumns;
      await writeChunk(out, csvRecord(cols.map((c) => c.header ?? c.key), true));
      for await (const item of items) {
        count++;
        await writeChunk(out, csvRecord(cols.map((c) => cellValue(item, c)), opts.csvRaw));
      }
      break;
    }
    case 'table': {
      const cols = fieldColumns ?? spec.columns;
      // The first block decides the layout (columns shown, widths); later blocks follow it under the same header.
      let layout: TableLayout | undefined;
      let block: string[][] = [];
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
      for await (const item of items) {
        count++;
        block.push(cols.map((c) => sanitizeCell(displayText(cellValue(item, c)))));
        if (block.length >= TABLE_BLOCK) await flush();
      }
      await flush();
      const note = layout && hiddenNote(layout);
      if (layout && note) await writeChunk(out, `${layout.colors.dim(note)}\n`);
      if (count === 0) await writeChunk(out, 'No results.\n');
      const footer = spec.footer?.();
      if (footer) await writeChunk(out, `${footer}\n`);
      break;
    }
  }
  return count;
}

/** One document: through the jq filter when given, otherwise pretty-printed JSON. */
export async function writeDocument(io: IO, out: Writable, value: unknown, opts: { jq?: string }): Promise<void> {
  if (opts.jq !== undefined) await writeJq(io, out, value, opts.jq);
  else await writeJson(out, value);
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

function cellValue(item: unknown, c: Column): unknown {
  return c.value ? c.value(item) : getPath(item, c.key);
}

function project(item: unknown, fields?: string[]): unknown {
  return fields ? pickFields(item, fields) : item;
}
