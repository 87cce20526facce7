// The JSON text each row of a list page came in, so that `-o ndjson` and
// `-o json` write it instead of serialising the parsed row again (at 20,000
// rows, ~100-180 ms of a walk's CPU). Only text that is exactly one compact
// row per item is kept; anything else is serialised as before. The writer
// still makes the text safe to print (jsonSafe), as it does any JSON.
import { endOfString, isSpace, skipSpace } from './json-text.js';

// Kept by page: on the parsed "data" array itself, under a symbol, the body it
// was parsed from, and once the writer asked, the texts of its rows (or null:
// not usable). A page the walker hands on whole (no repeat skipped, no --limit
// cut) is that very array, so the writer finds the texts with one lookup a
// page, nothing per row. The rows are found when the writer asks, not when the
// page arrives: a page's arrival frees its slot for the next request, so
// nothing more is done there.
// Not a WeakMap from array to body: V8's minor collections keep a WeakMap's
// values alive, so every page's body (~60 KB) outlived two of them and was
// promoted, and the old generation filled with dead bodies between full
// collections (peak RSS of a 200,000-employee export 1.4x a 20,000 one).
const RAW = Symbol('rawRows');
interface Kept {
  body: string;
  rows?: string[] | null;
}
type WithRaw = readonly unknown[] & { [RAW]?: Kept };

/**
 * Remembers that the array `items` was parsed from `body`, for rawRows. The
 * rows' own text is used only when `body` is an object whose one "data"
 * member is an array of compact objects (no whitespace outside strings, so
 * one line each), as many as `items`, each holding its item's id.
 */
export function rememberRawRows(body: string, items: readonly unknown[]): void {
  // Under a symbol: invisible to JSON.stringify and Object.keys, and not carried by a copy (slice, spread).
  Object.defineProperty(items, RAW, { value: { body } satisfies Kept, configurable: true });
}

/** The texts of the rows of `batch`, in order, if `batch` is a page remembered whole (rememberRawRows). */
export function rawRows(batch: readonly unknown[]): readonly string[] | undefined {
  const kept = (batch as WithRaw)[RAW];
  if (!kept) return undefined;
  if (kept.rows === undefined) kept.rows = rowsOf(kept.body, batch) ?? null;
  const rows = kept.rows;
  return rows && rows.length === batch.length ? rows : undefined;
}

/** The rows of `body` when they are exactly `items`, one compact text each holding its item's id. */
function rowsOf(body: string, items: readonly unknown[]): string[] | undefined {
  const rows = dataRows(body);
  if (!rows || rows.length !== items.length) return undefined;
  for (let k = 0; k < rows.length; k++) {
    const item = items[k];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const id = (item as { id?: unknown }).id;
    // A cheap check that text and item are the same row.
    if (id !== undefined && (typeof id !== 'string' || !rows[k]!.includes(`"id":"${id}"`))) return undefined;
  }
  return rows;
}

/** The texts of the elements of the top-level "data" array, or undefined (not one compact object each, or not exactly one "data"). */
export function dataRows(t: string): string[] | undefined {
  let rows: string[] | undefined;
  let i = skipSpace(t, 0);
  if (t.charCodeAt(i) !== 0x7b) return undefined;
  i = skipSpace(t, i + 1);
  if (t.charCodeAt(i) === 0x7d) return undefined;
  for (;;) {
    if (t.charCodeAt(i) !== 0x22) return undefined;
    const keyEnd = endOfString(t, i);
    if (keyEnd < 0) return undefined;
    const isData = keyEnd - i === 6 && t.startsWith('"data"', i);
    i = skipSpace(t, keyEnd);
    if (t.charCodeAt(i) !== 0x3a) return undefined;
    i = skipSpace(t, i + 1);
    if (isData) {
      // JSON.parse keeps the last of two "data" members: never guess which.
      if (rows) return undefined;
      const found = arrayRows(t, i);
      if (!found) return undefined;
      rows = found.rows;
      i = found.end;
    } else {
      i = endOfValue(t, i, false);
      if (i < 0) return undefined;
    }
    i = skipSpace(t, i);
    const c = t.charCodeAt(i);
    if (c === 0x2c) {
      i = skipSpace(t, i + 1);
      continue;
    }
    if (c !== 0x7d) return undefined;
    return skipSpace(t, i + 1) === t.length ? rows : undefined;
  }
}

/** The elements of the array at `i`, each a compact object. */
function arrayRows(t: string, i: number): { rows: string[]; end: number } | undefined {
  if (t.charCodeAt(i) !== 0x5b) return undefined;
  const rows: string[] = [];
  i = skipSpace(t, i + 1);
  if (t.charCodeAt(i) === 0x5d) return { rows, end: i + 1 };
  for (;;) {
    if (t.charCodeAt(i) !== 0x7b) return undefined;
    const end = endOfValue(t, i, true);
    if (end < 0) return undefined;
    rows.push(t.slice(i, end));
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === 0x5d) return { rows, end: i + 1 };
    if (c !== 0x2c) return undefined;
    i = skipSpace(t, i + 1);
  }
}

/**
 * The end of the value at `i` (exclusive), or -1 if it is malformed or, when
 * `compact`, an object or array with whitespace outside its strings.
 */
function endOfValue(t: string, i: number, compact: boolean): number {
  const c = t.charCodeAt(i);
  if (c === 0x22) return endOfString(t, i);
  if (c !== 0x7b && c !== 0x5b) {
    // A number, true, false or null: up to the next delimiter.
    let k = i;
    while (k < t.length && !isDelimiter(t.charCodeAt(k))) k++;
    return k > i ? k : -1;
  }
  let depth = 0;
  for (let k = i; k < t.length; k++) {
    const d = t.charCodeAt(k);
    if (d === 0x22) {
      const end = endOfString(t, k);
      if (end < 0) return -1;
      k = end - 1;
    } else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      if (--depth === 0) return k + 1;
    } else if (compact && isSpace(d)) return -1;
  }
  return -1;
}

function isDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c);
}
