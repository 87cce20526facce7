// How many terminal rows text takes: a line wider than the terminal wraps
// onto the next row, so a page "fits the screen" by rows, not by newlines.
// Counted as the text streams in (chunks may split a line or a character).
// Widths are by code point (wide East Asian characters two columns, marks
// and controls none, colour codes none): what a terminal draws for the text
// partner prints, without loading a grapheme segmenter to decide on paging.
import { StringDecoder } from 'node:string_decoder';
import { stripVTControlCharacters } from 'node:util';
import { eastAsianWidth } from 'get-east-asian-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Combining marks, zero-width spaces and joiners, variation selectors: drawn on the character before.
const ZERO_WIDTH = /[\p{M}\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\ufeff]/u;

/** Columns that one line (no newline in it) takes on a terminal. */
export function lineColumns(line: string): number {
  if (PRINTABLE_ASCII.test(line)) return line.length;
  let width = 0;
  for (const ch of stripVTControlCharacters(line)) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || ZERO_WIDTH.test(ch)) continue;
    width += cp < 0x1100 ? 1 : eastAsianWidth(cp);
  }
  return width;
}

const OPEN_LINE_KEPT = 64 * 1024;

export class ScreenRows {
  /** Rows of the lines ended so far. */
  private ended = 0;
  /** The line still open: its last text (a colour code may be split between chunks), and the columns of what came before. */
  private open = '';
  private openColumns = 0;
  private readonly decoder = new StringDecoder('utf8');

  /** `columns`: the terminal's width (undefined: unknown, a line is one row). */
  constructor(private readonly columns: number | undefined) {}

  /** Adds text; returns the rows taken so far, the open line included. */
  add(chunk: Buffer | string): number {
    const text = this.open + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.ended += this.rowsOf(text.slice(start, nl), this.openColumns);
      this.openColumns = 0;
      start = nl + 1;
    }
    this.open = text.slice(start);
    // A line of megabytes is measured as it comes, not kept.
    if (this.open.length > OPEN_LINE_KEPT) {
      this.openColumns += lineColumns(this.open);
      this.open = '';
    }
    return this.rows;
  }

  get rows(): number {
    return this.ended + (this.open === '' && this.openColumns === 0 ? 0 : this.rowsOf(this.open, this.openColumns));
  }

  /** Rows of a line: `before` columns of it already measured, then `line`. */
  private rowsOf(line: string, before: number): number {
    const cols = this.columns;
    // A line cannot be wider than twice its length: the common short line needs no measuring.
    if (!cols || (before === 0 && line.length * 2 <= cols)) return 1;
    return Math.max(1, Math.ceil((before + lineColumns(line)) / cols));
  }
}

/** Rows that `text` takes on a terminal `columns` wide. */
export function screenRows(text: string, columns: number | undefined): number {
  return new ScreenRows(columns).add(text);
}
