// The spreadsheet of `gp create --from-csv`: RFC 4180 CSV (csv-parse), a
// header row of field paths, rows whose first cell starts with "#" ignored
// (the description row of `gp template`), blank lines skipped. Read through
// the one capped reader (a file, a pipe or a device alike), then parsed as
// a stream, one record at a time, as often as the run needs (a check pass,
// then a send pass): only the file's bytes are held, never every row.
//
// Parsed as bytes, decoded cell by cell: the CSV's delimiters are ASCII,
// never part of a multi-byte UTF-8 sequence nor of a Windows-1252 letter, so
// an undecodable cell is named by its row and column, and never turned into
// U+FFFD (which would then be sent as if the user had typed it).
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { UsageError } from '../../errors.js';
import { firstInvalidUtf8, readInputBytes } from '../../input.js';
import { isUnsafeKey, UNSAFE_NAMES_HINT } from '../../safe-keys.js';

export const MAX_CSV_BYTES = 32 * 1024 * 1024;
/** One row (all its cells) at most: a form row is a few kB; this refuses a runaway quote or a non-CSV file fast. */
export const MAX_ROW_BYTES = 256 * 1024;

import type { CsvEncoding } from './limits.js';

export interface CsvRow {
  /** Spreadsheet row number (the header is row 1). */
  row: number;
  cells: string[];
}

export interface CsvSheet {
  /** The name used in messages (the path). */
  source: string;
  columns: string[];
  /** The spreadsheet row of the header: rows are the records after it. */
  headerRow: number;
  encoding: CsvEncoding;
  /** The file's bytes (BOM dropped): parsed again by sheetRows. */
  bytes: Buffer;
}

export async function readSheet(path: string, o: { stdin: Readable; signal?: AbortSignal; encoding?: CsvEncoding }): Promise<CsvSheet> {
  const bytes = await readInputBytes(path, { flag: '--from-csv', maxBytes: MAX_CSV_BYTES, stdin: o.stdin, signal: o.signal, code: 'INVALID_CSV' });
  return sheetOf(bytes, path, o.encoding ?? 'utf-8');
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The header of the bytes (the rows are read later by sheetRows). */
export async function sheetOf(data: Buffer | string, source: string, encoding: CsvEncoding = 'utf-8'): Promise<CsvSheet> {
  let bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.subarray(0, 3).equals(UTF8_BOM)) bytes = bytes.subarray(3);
  const blankSheet: CsvSheet = { source, columns: [], headerRow: 0, encoding, bytes };
  let header: CsvRow | undefined;
  for await (const r of records(blankSheet)) {
    if (!blank(r.cells) && !comment(r.cells)) {
      header = r;
      break;
    }
  }
  if (!header) throw new UsageError(`${source} has no header row`, 'The first row names the fields, as `partner gp template --entity NAME -o csv` writes it.', 'INVALID_CSV');
  const columns = header.cells.map((c) => c.trim());
  const seen = new Set<string>();
  for (const c of columns) {
    if (c === '') throw new UsageError(`${source}: the header has an empty column name (row ${header.row})`, undefined, 'INVALID_CSV');
    if (c.split('.').some(isUnsafeKey)) throw new UsageError(`${source}: the column "${c.slice(0, 80)}" is not a field of any form`, UNSAFE_NAMES_HINT, 'INVALID_CSV');
    if (seen.has(c)) throw new UsageError(`${source}: the column "${c.slice(0, 80)}" appears twice in the header`, undefined, 'INVALID_CSV');
    seen.add(c);
  }
  return { source, columns, headerRow: header.row, encoding, bytes };
}

/** The rows after the header, blank and "#" rows skipped, one at a time; `chunkBytes`: how the bytes are fed to the parser (tests). */
export async function* sheetRows(sheet: CsvSheet, chunkBytes = CHUNK): AsyncGenerator<CsvRow> {
  for await (const r of records(sheet, chunkBytes)) if (r.row > sheet.headerRow && !blank(r.cells) && !comment(r.cells)) yield r;
}

/** The rows of a whole sheet in memory (tests, small files). */
export async function allRows(sheet: CsvSheet, chunkBytes = CHUNK): Promise<CsvRow[]> {
  const out: CsvRow[] = [];
  for await (const r of sheetRows(sheet, chunkBytes)) out.push(r);
  return out;
}

const blank = (cells: string[]) => cells.every((c) => c.trim() === '');
const comment = (cells: string[]) => (cells[0] ?? '').trimStart().startsWith('#');

const CHUNK = 64 * 1024;

/**
 * Every line ending a spreadsheet writes ends a record, whatever the first
 * line used: CRLF (Excel, RFC 4180), LF (most other programs) and CR (old
 * Macintosh CSV), mixed in one file as after an edit in another editor.
 * (csv-parse would otherwise take the first line's ending for the whole file
 * and read an LF after a CRLF file's first line as part of a cell.) Inside
 * quotes a line break is the cell's text, kept as written.
 */
const LINE_ENDINGS = ['\r\n', '\n', '\r'];

/** Every record, numbered from 1, cells decoded. */
async function* records(sheet: CsvSheet, chunkBytes = CHUNK): AsyncGenerator<CsvRow> {
  const { bytes } = sheet;
  // Cells come out as latin1 strings (one character per byte: the bytes, exactly), not as one
  // Buffer each (csv-parse copies each into an ArrayBuffer of its own, memory outside the heap
  // that waits for a collection: ~8 MiB more at 10,000 rows); decoded below.
  const parser = parse({ encoding: 'latin1', record_delimiter: LINE_ENDINGS, relax_column_count: true, skip_empty_lines: false, max_record_size: MAX_ROW_BYTES });
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += chunkBytes) yield bytes.subarray(i, i + chunkBytes);
    })(),
    { objectMode: false },
  );
  source.pipe(parser);
  const decode = decoder(sheet.encoding);
  let row = 0;
  try {
    for await (const raw of parser as AsyncIterable<string[]>) {
      row++;
      yield { row, cells: raw.map((cell, i) => decode(cell, sheet, row, i)) };
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const e = err as CsvError;
    const big = e.code === 'CSV_MAX_RECORD_SIZE';
    throw new UsageError(big ? `${sheet.source} has a row over ${MAX_ROW_BYTES / 1024} KiB (a quote left open, or not a CSV file)` : `${sheet.source} is not valid CSV: ${String(e.message).slice(0, 200)}`, 'Save the spreadsheet as CSV (comma-separated, UTF-8).', 'INVALID_CSV');
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** A cell as csv-parse gives it: its bytes, one latin1 character each. */
type Decode = (cell: string, sheet: CsvSheet, row: number, column: number) => string;

/** Every character (byte) below 0x80: the same text in every encoding. */
const ASCII = /^[\x00-\x7f]*$/;

function decoder(encoding: CsvEncoding): Decode {
  if (encoding === 'latin1') return (cell) => cell;
  if (encoding === 'windows-1252') {
    const d = new TextDecoder('windows-1252');
    return (cell) => (ASCII.test(cell) ? cell : d.decode(Buffer.from(cell, 'latin1')));
  }
  const d = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return (text, sheet, row, column) => {
    if (ASCII.test(text)) return text;
    const cell = Buffer.from(text, 'latin1');
    try {
      return d.decode(cell);
    } catch {
      const at = firstInvalidUtf8(cell);
      const name = sheet.columns[column] ?? `${column + 1}`;
      throw new UsageError(
        `${sheet.source} is not valid UTF-8: row ${row}, column ${name.slice(0, 80)} (byte 0x${cell[at].toString(16).padStart(2, '0')} at offset ${at} of the cell)`,
        'Save the spreadsheet as CSV UTF-8, or name its encoding: --encoding windows-1252 (Excel on Windows in Western Europe and the Americas) or --encoding latin1.',
        'INVALID_ENCODING',
      );
    }
  };
}
