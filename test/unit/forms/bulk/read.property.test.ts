// Every cell and every line of a sheet is read as a spreadsheet wrote it, or
// refused (fast-check): over generated sheets written by an RFC 4180 writer
// with each line ending a program writes (CRLF, LF, CR, mixed in one file),
// with and without a BOM and a newline after the last row, cells quoted only
// when needed or always, holding commas, quotes and line breaks, the bytes
// fed to the parser in chunks of any size: what partner reads is exactly
// what was written, row numbers included. A row with a cell past the header
// is refused with its row number and the count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRows, sheetOf } from '../../../../src/forms/bulk/read.js';
import { rowDoc } from '../../../../src/forms/bulk/rows.js';
import { loadSchema } from '../../../../src/forms/schema.js';
import { FIELD_LIST_FORM } from '../../../../src/sandbox/field-list-form.js';

const EOLS = ['\r\n', '\n', '\r'] as const;
type Eol = (typeof EOLS)[number];

/** A cell: pieces a spreadsheet's cell may hold (separators, quotes, line breaks of every kind, NFC and NFD letters, emoji). */
const cell = fc.array(fc.constantFrom('a', 'Z', '7', ' ', ',', '"', '""', '\n', '\r\n', '\r', 'é', 'e\u0301', 'Å', '😀', '#', ';', '\t', "'"), { maxLength: 6 }).map((p) => p.join(''));
const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}(\.[a-z][a-z0-9]{0,5})?$/);

interface Written {
  columns: string[];
  rows: string[][];
  bom: boolean;
  /** The line ending after each record (header first); mixed when they differ. */
  eols: Eol[];
  finalNewline: boolean;
  quoteAll: boolean;
}

const sheet: fc.Arbitrary<Written> = fc
  .uniqueArray(name, { minLength: 1, maxLength: 5 })
  .chain((columns) =>
    fc.record({
      columns: fc.constant(columns),
      // Rows the reader keeps: not blank, not a "#" comment row (those are skipped on purpose).
      rows: fc.array(fc.array(cell, { minLength: columns.length, maxLength: columns.length }), { minLength: 1, maxLength: 6 }).filter((rows) => rows.every((r) => r.some((c) => c.trim() !== '') && !r[0].trimStart().startsWith('#'))),
      bom: fc.boolean(),
      eols: fc.array(fc.constantFrom(...EOLS), { minLength: 7, maxLength: 7 }),
      finalNewline: fc.boolean(),
      quoteAll: fc.boolean(),
    }),
  );

/** An RFC 4180 writer, as spreadsheets write: a cell holding a separator, a quote or a line break is quoted, its quotes doubled. */
function write(s: Written): Buffer {
  const field = (c: string) => (s.quoteAll || /[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c);
  const records = [s.columns, ...s.rows].map((r) => r.map(field).join(','));
  let text = records.map((r, i) => r + (i < records.length - 1 || s.finalNewline ? s.eols[i % s.eols.length] : '')).join('');
  if (s.bom) text = `\uFEFF${text}`;
  return Buffer.from(text, 'utf8');
}

describe('reading a sheet (fast-check)', () => {
  it('reads exactly what a CSV writer wrote: every cell, every line ending, BOM or none, last newline or none, any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(sheet, fc.integer({ min: 1, max: 9 }), async (w, chunk) => {
        const read = await sheetOf(write(w), 'gen.csv');
        expect(read.columns).toEqual(w.columns);
        const rows = await allRows(read, chunk);
        expect(rows).toEqual(w.rows.map((cells, i) => ({ row: i + 2, cells })));
      }),
      { numRuns: 300 },
    );
  });

  it('a CRLF file edited in an LF editor: three rows, not one', async () => {
    const read = await sheetOf('a,b\r\n1,2\n3,4\r\n5,6', 'mixed.csv');
    expect(await allRows(read)).toEqual([
      { row: 2, cells: ['1', '2'] },
      { row: 3, cells: ['3', '4'] },
      { row: 4, cells: ['5', '6'] },
    ]);
  });

  it('a row with a cell past the header is refused with its row number and the count; empty cells past it are read as nothing', async () => {
    const form = loadSchema(FIELD_LIST_FORM);
    const columns = ['personal.firstName', 'personal.lastName'];
    const extra = rowDoc(form, columns, { row: 3, cells: ['Ada', 'Lovelace', 'stray'] });
    expect(extra.issues[0]).toEqual({ row: 3, column: 'cell 3', message: expect.stringContaining('the row has 3 cells but the header names 2 columns') });
    const two = rowDoc(form, columns, { row: 4, cells: ['Ada', 'Lovelace', '', 'x', 'y'] });
    expect(two.issues[0]).toMatchObject({ row: 4, column: 'cells 3–5', message: expect.stringContaining('5 cells') });
    const blanks = rowDoc(form, columns, { row: 5, cells: ['Ada', 'Lovelace', '', ' '] });
    expect(blanks.issues.filter((i) => i.column.startsWith('cell'))).toEqual([]);
  });
});
