// Untrusted text (API data, webhook payloads) is neutralised here before it
// reaches a terminal or a spreadsheet.

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and the other
// escapes (ESC, any intermediates, one final byte: ESC c reset, ESC 7, ESC ( B).
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[ -/]*[0-~]?)|\u009b[0-?]*[ -/]*[@-~]?/g;
// C0 controls except tab/newline, DEL, C1 controls, and bidi overrides that can reorder what is shown.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Safe for a terminal: escape sequences removed, other controls shown as U+FFFD. Newlines and tabs kept. */
export function sanitizeTerminal(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '\ufffd');
}

/** Safe for one table cell: as sanitizeTerminal, and on one line. */
export function sanitizeCell(text: string): string {
  return sanitizeTerminal(text.replace(/\r\n|\r|\n/g, ' ↵ ').replace(/\t/g, ' '));
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** Spreadsheet formula injection: a leading ' makes the cell plain text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

// C1 controls, DEL, bidi controls and the JS line separators survive JSON.stringify raw.
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON.stringify, with the characters it leaves raw that a terminal may act
 * on (C1 controls such as the 8-bit CSI, bidi overrides) written as \u
 * escapes: the same JSON value, safe to print. (C0 controls are escaped by
 * JSON.stringify itself.)
 */
export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  return text === undefined ? text : jsonSafe(text);
}

/**
 * The escaping of jsonText, for text made of JSON.stringify output (many
 * records joined by newlines, escaped in one pass): those characters only
 * occur inside JSON strings, where a \u escape means the same.
 */
export function jsonSafe(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
