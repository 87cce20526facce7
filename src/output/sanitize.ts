// Untrusted text (API data, webhook payloads) is neutralised here before it
// reaches a terminal or a spreadsheet.
import { jsonOf } from './depth.js';

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and the other
// escapes (ESC, any intermediates, one final byte: ESC c reset, ESC 7, ESC ( B).
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[ -/]*[0-~]?)|\u009b[0-?]*[ -/]*[@-~]?/g;
// Characters that show nothing where they stand, yet reorder what is shown or
// make two texts that look alike differ ("admin" and "ad\u200bmin"): Unicode's
// default-ignorable code points (bidi marks, embeddings, overrides and
// isolates; zero-width space, joiners, word joiner, invisible operators; BOM;
// soft hyphen; Hangul fillers; variation selectors; tag characters), the line
// and paragraph separators, and the interlinear annotation controls. Joiners
// and variation selectors also shape some scripts and emoji; on a terminal
// they are shown as U+FFFD all the same (the exact text is in JSON, files and
// pipes): whether one changes what is drawn depends on the terminal's fonts.
const INVISIBLE = '\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\ufff9-\\ufffb';
// C0 controls except tab/newline, DEL, C1 controls, and the invisible characters.
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');

/** Safe for a terminal: escape sequences removed, other controls and invisible characters shown as U+FFFD. Newlines and tabs kept. */
export function sanitizeTerminal(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '\ufffd');
}

/** Safe for one table cell: as sanitizeTerminal, and on one line. */
export function sanitizeCell(text: string): string {
  return sanitizeTerminal(text.replace(/\r\n|\r|\n/g, ' ↵ ').replace(/\t/g, ' '));
}

// Tab or CR first, or = + - @ first once an importer has trimmed what it may:
// whitespace and line breaks, a BOM, control and invisible characters.
const FORMULA_START = new RegExp(`^(?:[\\t\\r]|[\\s\\p{Cc}${INVISIBLE}]*[=+\\-@])`, 'u');

/** Spreadsheet formula injection: a leading ' makes the cell plain text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

// C1 controls, DEL and the invisible characters survive JSON.stringify raw.
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f${INVISIBLE}]`, 'gu');

/**
 * JSON.stringify, with the characters it leaves raw that a terminal may act
 * on or hide (C1 controls such as the 8-bit CSI, bidi controls, zero-width
 * characters) written as \u escapes: the same JSON value, safe to print.
 * (C0 controls are escaped by JSON.stringify itself.) At most MAX_DEPTH
 * levels deep (NESTED_TOO_DEEP).
 */
export function jsonText(value: unknown, space?: number): string {
  const text = jsonOf(value, '', space);
  return text === undefined ? text : jsonSafe(text);
}

/**
 * The escaping of jsonText, for text made of JSON.stringify output (many
 * records joined by newlines, escaped in one pass): those characters only
 * occur inside JSON strings, where a \u escape means the same.
 */
export function jsonSafe(json: string): string {
  return json.replace(JSON_UNSAFE, escapeUnits);
}

/** \u escapes of each UTF-16 unit (a tag character is a surrogate pair), as JSON.stringify writes a lone surrogate. */
function escapeUnits(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
