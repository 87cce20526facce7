// JSON made safe to print (the output layer's); the text sanitisers are below
// every layer, in text/sanitize.ts.
import { INVISIBLE } from '../text/sanitize.js';
import { jsonOf } from './depth.js';


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
