// Numbers sent with their digits as the operator wrote them. A `--set`
// value is typed by the form's schema into a JavaScript number (the checks
// compute with it), which would send 100000000000000000000000 as 1e+23 and
// 1.0 as 1. The text as written is remembered beside the answers document,
// by the field's path, and put back into the request bodies (as a
// LosslessNumber, whose text the HTTP layer and the dry run write) for as
// long as the field still holds that number.
import { LosslessNumber } from '../json/lossless-number.js';
import { getAt, setAt } from './paths.js';

/** A JSON number token (RFC 8259). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Answers document -> dot path -> the number as written. */
const spelled = new WeakMap<object, Map<string, string>>();

/** Remembers how the number at `path` of `doc` was written (nothing to remember when JavaScript writes it the same way). */
export function rememberSpelling(doc: Record<string, unknown>, path: string[], text: string, value: unknown): void {
  const token = text.trim();
  const key = path.join('.');
  let map = spelled.get(doc);
  if (typeof value !== 'number' || !JSON_NUMBER.test(token) || String(value) === token) {
    map?.delete(key);
    return;
  }
  if (!map) spelled.set(doc, (map = new Map()));
  map.set(key, token);
}

/** Puts the numbers of `doc` as written into `body` (a request body built from it, with the same paths), where the body still holds that number. */
export function withSpelledNumbers<T extends Record<string, unknown>>(doc: Record<string, unknown>, body: T): T {
  const map = spelled.get(doc);
  if (!map) return body;
  for (const [key, token] of map) {
    const path = key.split('.');
    if (getAt(body, path) === Number(token)) setAt(body, path, new LosslessNumber(token));
  }
  return body;
}
