// The spreadsheet of `gp create --from-csv`: RFC 4180 CSV (csv-parse), a
// header row of field paths, rows whose first cell starts with "#" ignored
// (the description row of `gp template`), blank lines skipped. Bounded in
// size before parsing.
import { readFile, stat } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';

export const MAX_CSV_BYTES = 32 * 1024 * 1024;
/** One row (all its cells) at most: a form row is a few kB; this refuses a runaway quote or a non-CSV file fast. */
export const MAX_ROW_BYTES = 256 * 1024;

export interface CsvRow {
  /** Spreadsheet row number (the header is row 1). */
  row: number;
  cells: string[];
}

export interface CsvSheet {
  columns: string[];
  rows: CsvRow[];
}

export async function readSheet(path: string): Promise<CsvSheet> {
  let text: string;
  try {
    const { size } = await stat(path);
    if (size > MAX_CSV_BYTES) throw new UsageError(`--from-csv ${path} is too large (${size} bytes; at most ${MAX_CSV_BYTES})`, undefined, 'INVALID_CSV');
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read --from-csv ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'Write one with: partner gp template --entity NAME -o csv > employees.csv', 'INVALID_CSV');
  }
  return parseSheet(text, path);
}

export function parseSheet(text: string, source: string): CsvSheet {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false, max_record_size: MAX_ROW_BYTES }) as string[][];
  } catch (err) {
    const big = (err as { code?: string }).code === 'CSV_MAX_RECORD_SIZE';
    throw new UsageError(big ? `${source} has a row over ${MAX_ROW_BYTES / 1024} KiB (a quote left open, or not a CSV file)` : `${source} is not valid CSV: ${(err as Error).message.slice(0, 200)}`, 'Save the spreadsheet as CSV (comma-separated, UTF-8).', 'INVALID_CSV');
  }
  const numbered = records.map((cells, i) => ({ row: i + 1, cells }));
  const blank = (cells: string[]) => cells.every((c) => c.trim() === '');
  const comment = (cells: string[]) => (cells[0] ?? '').trimStart().startsWith('#');
  const header = numbered.find((r) => !blank(r.cells) && !comment(r.cells));
  if (!header) throw new UsageError(`${source} has no header row`, 'The first row names the fields, as `partner gp template --entity NAME -o csv` writes it.', 'INVALID_CSV');
  const columns = header.cells.map((c) => c.trim());
  const seen = new Set<string>();
  for (const c of columns) {
    if (c === '') throw new UsageError(`${source}: the header has an empty column name (row ${header.row})`, undefined, 'INVALID_CSV');
    if (seen.has(c)) throw new UsageError(`${source}: the column "${c.slice(0, 80)}" appears twice in the header`, undefined, 'INVALID_CSV');
    seen.add(c);
  }
  const rows = numbered.filter((r) => r.row > header.row && !blank(r.cells) && !comment(r.cells));
  return { columns, rows };
}
