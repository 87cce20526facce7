// The one reading of an API answer's JSON that keeps every number as sent.
//
// JSON.parse turns 9007199254740993 into 9007199254740992, 1e400 into
// Infinity and 1.0 into 1, and the writers then print what it made. Most
// answers hold no such number: a scan for number tokens that would not print
// back as sent (hasNumberToKeep) lets them take JSON.parse as before.
// An answer with one is read by the parser below, which gives the same values
// as JSON.parse except that such a number becomes a LosslessNumber (its text).
import { endOfString, skipSpace } from './json-text.js';
import { LosslessNumber } from './lossless-number.js';

/** JSON.parse, except that a number JavaScript would not print back as sent is a LosslessNumber. Throws SyntaxError on invalid JSON, as JSON.parse. */
export function parseJsonExact(text: string): unknown {
  return hasNumberToKeep(text) ? parseKeepingNumbers(text) : JSON.parse(text);
}

/**
 * Everything up to the next character that may start a number outside a
 * string: runs of other characters, and whole strings (escapes honoured; the
 * unrolled form has one way to match, so a string never closed costs one pass,
 * never backtracking without end). Native code walks the text; JavaScript
 * only sees the numbers.
 */
const UP_TO_NUMBER = /(?:[^"\-\d]+|"[^"\\]*(?:\\.[^"\\]*)*")*/y;

/**
 * Whether `text` holds a number token that String(Number(token)) would not
 * give back (9007199254740993, 1e400, 1.0, -0): strings are passed over
 * (UP_TO_NUMBER), a short plain integer is taken at a glance, any other
 * token checked exactly. Malformed text is left to JSON.parse, which says
 * what is wrong.
 */
export function hasNumberToKeep(t: string): boolean {
  const n = t.length;
  let i = 0;
  for (;;) {
    UP_TO_NUMBER.lastIndex = i;
    UP_TO_NUMBER.exec(t);
    i = UP_TO_NUMBER.lastIndex;
    if (i >= n) return false;
    const c = t.charCodeAt(i);
    // A string never closed.
    if (c === 0x22) return false;
    let k = i + 1;
    let plain = c !== 0x2d;
    for (; k < n; k++) {
      const d = t.charCodeAt(k);
      if (d >= 0x30 && d <= 0x39) continue;
      if (d !== 0x2e && d !== 0x65 && d !== 0x45 && d !== 0x2b && d !== 0x2d) break;
      plain = false;
    }
    // Up to 15 digits, no sign, point or exponent: printed back as sent (JSON allows no leading zero).
    if (!(plain && k - i <= 15)) {
      const token = t.slice(i, k);
      if (String(Number(token)) !== token) return true;
    }
    i = k;
  }
}

const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

interface Open {
  /** The array or object being filled. */
  value: unknown[] | Record<string, unknown>;
  /** The key the next value goes under (objects). */
  key?: string;
}

/**
 * A full JSON parser with an explicit stack (no recursion: an answer nested
 * 100,000 levels deep parses as with JSON.parse, and the output layer's depth
 * bound refuses it later). Objects are made as JSON.parse makes them: plain
 * objects, every key an own data property (a "__proto__" key too, never the
 * prototype), the last of two equal keys winning.
 */
export function parseKeepingNumbers(t: string): unknown {
  const stack: Open[] = [];
  let i = skipSpace(t, 0);
  for (;;) {
    // A value starts at i.
    let value: unknown;
    const c = t.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      const open: Open = { value: c === 0x7b ? {} : [] };
      i = skipSpace(t, i + 1);
      const close = t.charCodeAt(i);
      if (close === (c === 0x7b ? 0x7d : 0x5d)) {
        value = open.value;
        i++;
      } else {
        if (c === 0x7b) i = readKey(t, i, open);
        stack.push(open);
        continue;
      }
    } else if (c === 0x22) {
      const end = stringEnd(t, i);
      value = JSON.parse(t.slice(i, end));
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER_TOKEN.lastIndex = i;
      const m = NUMBER_TOKEN.exec(t);
      if (!m) throw unexpected(t, i);
      const token = m[0];
      const n = Number(token);
      value = String(n) === token ? n : new LosslessNumber(token);
      i += token.length;
    } else if (t.startsWith('true', i)) {
      value = true;
      i += 4;
    } else if (t.startsWith('false', i)) {
      value = false;
      i += 5;
    } else if (t.startsWith('null', i)) {
      value = null;
      i += 4;
    } else {
      throw unexpected(t, i);
    }
    // Place the value, then close every container that ends here.
    for (;;) {
      i = skipSpace(t, i);
      const top = stack[stack.length - 1];
      if (!top) {
        if (i !== t.length) throw unexpected(t, i);
        return value;
      }
      if (Array.isArray(top.value)) top.value.push(value);
      else setOwn(top.value, top.key!, value);
      const d = t.charCodeAt(i);
      if (d === 0x2c) {
        i = skipSpace(t, i + 1);
        if (!Array.isArray(top.value)) i = readKey(t, i, top);
        break;
      }
      if (d !== (Array.isArray(top.value) ? 0x5d : 0x7d)) throw unexpected(t, i);
      stack.pop();
      value = top.value;
      i++;
    }
  }
}

/** Reads `"key" :` at i into `open.key`; returns where the value starts. */
function readKey(t: string, i: number, open: Open): number {
  if (t.charCodeAt(i) !== 0x22) throw unexpected(t, i);
  const end = stringEnd(t, i);
  open.key = JSON.parse(t.slice(i, end)) as string;
  i = skipSpace(t, end);
  if (t.charCodeAt(i) !== 0x3a) throw unexpected(t, i);
  return skipSpace(t, i + 1);
}

/** As JSON.parse defines a member: "__proto__" becomes an own property, not the prototype. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** The index after the closing quote of the string opening at i (its content is checked by JSON.parse). */
function stringEnd(t: string, i: number): number {
  const end = endOfString(t, i);
  if (end < 0) throw new SyntaxError(`Unterminated string in JSON at position ${i}`);
  return end;
}

function unexpected(t: string, i: number): SyntaxError {
  return new SyntaxError(i >= t.length ? 'Unexpected end of JSON input' : `Unexpected token in JSON at position ${i}`);
}
