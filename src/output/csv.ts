import { jsonOf } from './depth.js';
import { isScalar } from '../json/lossless-number.js';
import { neutraliseControls, neutraliseFormula, sanitizeTerminal } from '../text/sanitize.js';

/**
 * A value as CSV cell text: arrays of scalars joined with "; ", objects (and
 * arrays holding any) as JSON, null/undefined empty. `path` names the value
 * in the error for one nested too deeply.
 */
export function cellText(value: unknown, path = ''): string {
  if (value === null || value === undefined) return '';
  if (isScalarList(value)) return value.map(elementText).join(LIST_SEPARATOR);
  if (!isScalar(value)) return jsonOf(value, path);
  return String(value);
}

const LIST_SEPARATOR = '; ';

function isScalarList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.every(isScalar);
}

function elementText(v: unknown): string {
  return v === null ? '' : String(v);
}

export interface CsvOptions {
  /** --csv-raw: keep cells that a spreadsheet would run as formulas, and control characters (in a file or pipe). */
  raw?: boolean;
  /** stdout is a terminal: escape sequences and control characters are removed, records end in LF (files and pipes keep the data). */
  terminal?: boolean;
  /** The column of each value (a dot path), named in the error for a value nested too deeply. */
  columns?: readonly string[];
}

/**
 * One RFC 4180 record (CRLF-terminated; LF on a terminal). The final text of every cell,
 * whatever the value's type (string, number, array), is neutralised if a
 * spreadsheet would run it as a formula, unless raw; on a terminal it is
 * also made safe to print. (A boolean second argument means `raw`.)
 */
export function csvRecord(values: unknown[], opts: CsvOptions | boolean = {}): string {
  const o = typeof opts === 'boolean' ? { raw: opts } : opts;
  let line = '';
  for (let k = 0; k < values.length; k++) line += (k === 0 ? '' : ',') + csvCell(values[k], o, k);
  // On a terminal a bare LF: the CR of RFC 4180's CRLF is one more control character on the screen.
  return o.terminal ? `${line}\n` : `${line}\r\n`;
}

function csvCell(value: unknown, o: CsvOptions, k: number): string {
  // Each element of a list on its own: a spreadsheet set to semicolon-separated
  // values splits the cell at our "; ", and every piece must still be plain text.
  const text = typeof value === 'string' ? safeText(value, o) : isScalarList(value) ? value.map((v) => safeText(elementText(v), o)).join(LIST_SEPARATOR) : safeText(cellText(value, o.columns?.[k]), o);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Sanitised first on a terminal (an escape sequence may hide a formula); in a file or a pipe,
 * control characters are made visible (a `grep` of the file must not drive the terminal); then
 * formulas neutralised. --csv-raw keeps both as they are (but on a terminal).
 */
function safeText(text: string, o: CsvOptions): string {
  if (o.terminal) return o.raw ? sanitizeTerminal(text) : neutraliseFormula(sanitizeTerminal(text));
  return o.raw ? text : neutraliseFormula(neutraliseControls(text));
}

const NEEDS_QUOTES = /[",\r\n]/;
