// A number of an API answer that a JavaScript number would not print back as
// sent: more digits than a double holds (9007199254740993), out of its range
// (1e400), or spelt otherwise than JavaScript spells it (1.0, 1E5, -0). The
// answer's parser (parse-exact.ts) keeps such a number as this object, with
// the text the server sent; every writer prints that text (stringify-exact.ts,
// the CSV and table cells), and code that must compute with it asks
// exactNumber, which refuses one that a double cannot hold.
import { CliError, ExitCode } from '../errors.js';

export class LosslessNumber {
  /** Set once any LosslessNumber exists: until then JSON is written by JSON.stringify alone. */
  static seen = false;

  /** The number token as the server sent it (valid JSON number syntax). */
  readonly source: string;

  constructor(source: string) {
    this.source = source;
    LosslessNumber.seen = true;
  }

  /** The text as sent: `${n}`, String(n) and cells show the server's digits. */
  toString(): string {
    return this.source;
  }

  /** The nearest double (comparisons, Number(n)); exactNumber says whether it is the number sent. */
  valueOf(): number {
    return Number(this.source);
  }

  /**
   * What JSON.stringify writes for this number while stringifyExact runs (set there, then unset);
   * otherwise nothing changes: the object itself, as JSON.stringify wrote it before.
   */
  static jsonInPlace: ((n: LosslessNumber) => string) | undefined;

  toJSON(): unknown {
    return LosslessNumber.jsonInPlace ? LosslessNumber.jsonInPlace(this) : this;
  }
}

/** A value the output layer shows as it is, not walks into: anything but an array or object, or a LosslessNumber. */
export function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object' || v instanceof LosslessNumber;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The decimal value of a JSON number token in one spelling (sign, digits
 * without leading or trailing zeros, exponent): "1.50" and "15e-1" give the
 * same key. Exponents as large as a token can hold are kept as text arithmetic
 * would need: a BigInt.
 */
export function decimalKey(token: string): string {
  const m = NUMBER.exec(token);
  if (!m) return token;
  const frac = m[3] ?? '';
  let digits = (m[2]! + frac).replace(/^0+/, '');
  if (digits === '') return `${m[1]}0`;
  let exp = BigInt(m[4] ?? '0') - BigInt(frac.length);
  const trimmed = digits.replace(/0+$/, '');
  exp += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${m[1]}${digits}e${exp}`;
}

/** Whether the double nearest to `token` is exactly the number it spells (1.0, 1E5, -0: yes; 9007199254740993, 1e400, 0.10000000000000000555: no). */
export function isExact(token: string): boolean {
  const n = Number(token);
  if (!Number.isFinite(n)) return false;
  // String(-0) is "0": the sign of a zero is kept by the key of "-0".
  return decimalKey(Object.is(n, -0) ? '-0' : String(n)) === decimalKey(token);
}

/**
 * A number partner computes with (a form's minimum, a page number): a plain
 * number as it is, a LosslessNumber only when a double holds it exactly,
 * otherwise NUMBER_NOT_EXACT naming `where`, never a rounded value. Anything
 * else is returned as it is, for the caller's own type checks.
 */
export function exactNumber(v: unknown, where: string): unknown {
  if (!(v instanceof LosslessNumber)) return v;
  if (isExact(v.source)) return Number(v.source);
  throw notExact(v.source, where);
}

export function notExact(source: string, where: string): CliError {
  const shown = source.length > 40 ? `${source.slice(0, 40)}…` : source;
  return new CliError(`The server sent ${shown} for ${where}: partner cannot compute with that number exactly (it has more digits than a double holds, or is out of its range), so it was not used`, {
    code: 'NUMBER_NOT_EXACT',
    exitCode: ExitCode.FAILURE,
    hint: 'Report it to the API provider, quoting the number and where it was. Commands that only print the answer (-o json, partner api) show it as sent.',
  });
}

/**
 * `doc` with every LosslessNumber in it replaced, in place, by its number
 * when a double holds it exactly (1.0 -> 1); the first one that it does not
 * is NUMBER_NOT_EXACT named by its dot path "of `what`", or what `inexact`
 * makes of its text and dot path ('' for `doc` itself). For documents partner
 * computes with (a form: its bounds, enums, defaults) or sends (a values
 * file). A walk with its own stack: any depth.
 */
export function withExactNumbers<T>(doc: T, what: string, inexact = (source: string, path: string): Error => notExact(source, path ? `${path} of ${what}` : what)): T {
  if (!LosslessNumber.seen) return doc;
  const exact = (v: LosslessNumber, path: string): number => {
    if (isExact(v.source)) return Number(v.source);
    throw inexact(v.source, path);
  };
  if (doc instanceof LosslessNumber) return exact(doc, '') as T;
  const todo: [Record<string, unknown> | unknown[], string][] = [];
  if (doc !== null && typeof doc === 'object') todo.push([doc as Record<string, unknown>, '']);
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [holder, path] = next;
    for (const key of Object.keys(holder)) {
      const v = (holder as Record<string, unknown>)[key];
      if (v === null || typeof v !== 'object') continue;
      const at = path ? `${path}.${key}` : key;
      if (v instanceof LosslessNumber) (holder as Record<string, unknown>)[key] = exact(v, at.length > 200 ? `${at.slice(0, 200)}…` : at);
      else todo.push([v as Record<string, unknown>, at]);
    }
  }
  return doc;
}
