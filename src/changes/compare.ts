// What a diff compares: each record as dot paths (flattened as CSV flattens
// it), each value as a token that is equal exactly when the values are. Text
// is compared after Unicode NFC (a name re-sent in another normalisation is
// not a change); numbers by their decimal value as sent (9007199254740993
// and 9007199254740992 differ; 1.50 and 1.5 do not); a missing value and null
// are the same. Against a CSV export the values are cells: compared as the
// cell text partner writes for them.
import { cellText } from '../output/csv.js';
import { flatten, getPath } from '../output/fields.js';
import { decimalKey, LosslessNumber } from '../json/lossless-number.js';
import { neutraliseControls, neutraliseFormula } from '../text/sanitize.js';

const ASCII = /^[\x00-\x7f]*$/;

/** How the earlier values are known: as typed JSON values, or as CSV cells (text). */
export type CompareMode = 'typed' | 'cell';

/** Dot path → token, for one record. */
export type Tokens = Map<string, string>;

/** The token of one typed value (a scalar, or an empty array or object as flatten leaves them). */
export function valueToken(v: unknown): string {
  if (v === null || v === undefined) return 'z';
  if (typeof v === 'string') return ASCII.test(v) ? `s${v}` : `s${v.normalize('NFC')}`;
  if (typeof v === 'number') return `n${decimalKey(String(v))}`;
  if (v instanceof LosslessNumber) return `n${decimalKey(v.source)}`;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  if (Array.isArray(v)) return 'a'; // only empty ones reach here
  return 'o';
}

/**
 * A record's tokens over its flattened dot paths. `tops`: only paths under
 * these top-level fields (--fields, or what an earlier export held).
 */
export function typedTokens(record: unknown, tops?: ReadonlySet<string>): Tokens {
  const flat = flatten(record);
  const out: Tokens = new Map();
  for (const path of Object.keys(flat)) {
    if (tops && !tops.has(topOf(path))) continue;
    const t = valueToken(flat[path]);
    // Missing and null are the same: a null is not recorded.
    if (t !== 'z') out.set(path, t);
  }
  return out;
}

/** The cell text partner writes for the value at each column (formulas neutralised as a file gets them). */
export function cellTokens(record: unknown, columns: readonly string[]): Tokens {
  const out: Tokens = new Map();
  for (const col of columns) {
    const text = cellText(getPath(record, col), col);
    if (text !== '') out.set(col, text.normalize('NFC'));
  }
  return out;
}

/** A CSV cell as read back, for comparison with cellTokens: what --csv-raw kept is neutralised as a plain export would be. */
export function cellOfFile(text: string): string {
  return text.normalize('NFC');
}

/** Whether an earlier cell equals the current one, whichever way the file was written (default, or --csv-raw). */
function sameCell(before: string, now: string): boolean {
  return before === now || before === neutraliseFormula(neutraliseControls(now));
}

/** The dot paths whose tokens differ (either side missing counts as null), in the current record's order, then the earlier one's. */
export function changedPaths(before: Tokens, now: Tokens, mode: CompareMode): string[] {
  const out: string[] = [];
  for (const [path, t] of now) {
    const b = before.get(path);
    if (b === undefined ? true : mode === 'cell' ? !sameCell(b, t) : b !== t) out.push(path);
  }
  for (const path of before.keys()) if (!now.has(path)) out.push(path);
  return out;
}

export function topOf(path: string): string {
  const dot = path.indexOf('.');
  return dot < 0 ? path : path.slice(0, dot);
}
