import { UsageError } from '../errors.js';
import { MAX_DEPTH, nestedTooDeep } from './depth.js';
import { isScalar } from '../json/lossless-number.js';
import { closest } from '../text/suggest.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { own, put } from '../safe-keys.js';

/**
 * Reads a dot path (`reportsTo.firstName`, `education.0.degree`) from a value.
 * A name that is not ASCII also matches a key spelt in another normalisation
 * form (`Zoé` typed precomposed, the server's key decomposed): names are
 * compared NFC.
 */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === undefined || isScalar(cur)) return undefined;
    const obj = cur as Record<string, unknown>;
    cur = own(obj, part);
    if (cur === undefined && !ASCII.test(part) && !Array.isArray(obj)) cur = obj[nfcKey(obj, part)];
  }
  return cur;
}

const ASCII = /^[\x00-\x7f]*$/;

/** The key of `obj` equal to `part` once both are NFC, or `part` itself. Only on a miss with a non-ASCII name. */
function nfcKey(obj: Record<string, unknown>, part: string): string {
  const want = part.normalize('NFC');
  if (want !== part && Object.hasOwn(obj, want)) return want;
  for (const k of Object.keys(obj)) if (!ASCII.test(k) && k.normalize('NFC') === want) return k;
  return part;
}

// One segment of a field path: letters, marks and digits of any script (the
// server's keys are its own: `通勤手当`), `_`, `$` and `-`, and a joiner where
// it is spelling (Persian ZWNJ between letters: sanitizeTerminal keeps it).
// Not empty, no control or invisible character elsewhere, no space, no comma
// (it separates fields) and no dot (it separates segments).
const SEGMENT = /^[\p{L}\p{M}\p{N}\p{Pc}$\u200c\u200d-]+$/u;

/**
 * Parses `--fields a,b.c` into paths, each NFC-normalised (getPath compares
 * NFC); rejects empty or malformed lists.
 */
export function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw.split(',').map((f) => f.trim().normalize('NFC'));
  if (fields.length === 0 || fields.some((f) => !f.split('.').every((s) => SEGMENT.test(s) && sanitizeTerminal(s) === s))) {
    throw new UsageError(
      sanitizeTerminal(`Invalid --fields "${raw.length > 200 ? `${raw.slice(0, 200)}…` : raw}"`),
      'Give a comma-separated list of field names or dot paths (letters, digits, _ $ -), for example --fields employeeCode,fullName,reportsTo.lastName',
    );
  }
  return fields;
}

/** Names shown in one message: a list of 10,000 typos must not come back whole. */
const NAMES_SHOWN = 5;

/** `a, b, c and 9,997 more`, each name cut to 40 characters. */
function someNames(names: readonly string[], max = NAMES_SHOWN): string {
  const shown = names.slice(0, max).map((n) => (n.length > 40 ? `${n.slice(0, 40)}…` : n));
  return names.length > max ? `${shown.join(', ')} and ${(names.length - max).toLocaleString('en-US')} more` : shown.join(', ');
}

/**
 * A --fields path whose first segment is not a field of the record is a usage
 * error (exit 2, nothing sent or written): a CI export must not silently lose
 * a column. `known` are the record's top-level fields; dot paths below them
 * are the data's business. The message is bounded however many names are wrong.
 */
export function checkKnownFields(fields: readonly string[], known: readonly string[], what = 'this record'): void {
  const unknown = [...new Set(fields.filter((f) => !known.includes(f.split('.')[0]!)))];
  if (unknown.length === 0) return;
  const first = unknown[0]!;
  const near = unknown.length === 1 ? closest(first.split('.')[0]!, known) ?? known.find((k) => k.toLowerCase() === first.split('.')[0]!.toLowerCase()) : undefined;
  const message = unknown.length === 1 ? `--fields: "${someNames(unknown)}" is not a field of ${what}${near ? ` (did you mean ${near}?)` : ''}` : `--fields: ${unknown.length.toLocaleString('en-US')} names are not fields of ${what}: ${someNames(unknown)}`;
  throw new UsageError(message, `The fields of ${what}: ${known.join(', ')}.`, 'UNKNOWN_FIELD');
}

/**
 * For records whose fields are known only from the answer (profile sections,
 * form results): the first record must have every --fields path, or nothing
 * is written and the command exits 2.
 */
export function checkFieldsPresent(record: unknown, fields: readonly string[]): void {
  const missing = fields.filter((f) => getPath(record, f) === undefined);
  if (missing.length === 0) return;
  const known = record !== null && typeof record === 'object' && !Array.isArray(record) ? Object.keys(record) : [];
  const top = missing[0]!.split('.')[0]!;
  const near = missing.length === 1 && !known.includes(top) ? closest(top, known) : undefined;
  throw new UsageError(
    sanitizeTerminal(`--fields: ${missing.length === 1 ? `"${someNames(missing)}" is` : `${missing.length.toLocaleString('en-US')} paths are`} not in this output${missing.length === 1 ? '' : `: ${someNames(missing)}`}${near ? ` (did you mean ${near}?)` : ''}; nothing was written`),
    // The keys are the server's: bounded and made safe to print.
    known.length ? sanitizeTerminal(`Its fields: ${someNames(known, 30)}.`) : undefined,
    'UNKNOWN_FIELD',
  );
}

/** Keeps only the given paths, rebuilding the nesting (`a.b` -> {a:{b}}). */
export function pickFields(value: unknown, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of fields) {
    const parts = path.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof own(target, part) !== 'object' || target[part] === null) put(target, part, {});
      target = target[part] as Record<string, unknown>;
    }
    const v = getPath(value, path);
    put(target, parts[parts.length - 1], v === undefined ? null : v);
  }
  return out;
}

/** Flattens nested objects and arrays to dot-path keys, in order of appearance; at most MAX_DEPTH levels (NESTED_TOO_DEEP). */
export function flatten(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  flattenInto(value, '', out, MAX_DEPTH);
  return out;
}

/** `room`: the levels of arrays and objects still allowed below `prefix`. */
function flattenInto(value: unknown, prefix: string, out: Record<string, unknown>, room: number): void {
  if (isScalar(value)) {
    if (prefix) put(out, prefix, value);
    return;
  }
  if (room === 0) throw nestedTooDeep(prefix);
  // Indexed loops, not entry pairs: `profile get -o ndjson` flattens 80 keys an employee.
  if (Array.isArray(value)) {
    if (value.length === 0 && prefix) put(out, prefix, []);
    for (let i = 0; i < value.length; i++) flattenInto(value[i], prefix ? dotPath(prefix, String(i)) : String(i), out, room - 1);
    return;
  }
  const keys = Object.keys(value as object);
  if (keys.length === 0 && prefix) put(out, prefix, {});
  for (const k of keys) flattenInto((value as Record<string, unknown>)[k], prefix ? dotPath(prefix, k) : k, out, room - 1);
}

/**
 * `prefix.key`, the same string each time it is asked for: every record of a
 * list has the same paths, and a key V8 has already hashed is set without
 * hashing it again (flattening 100 profiles: 16 to 27 ms with a new string
 * each time, 6 to 11 ms with these). At most DOT_PATHS_KEPT kept (the keys
 * are the API's, any number of them): past that the table starts again.
 */
const dotPaths = new Map<string, Map<string, string>>();
const DOT_PATHS_KEPT = 50_000;
let dotPathsKept = 0;

/** How many dot paths are kept now (tests). */
export function keptDotPaths(): number {
  return dotPathsKept;
}

function dotPath(prefix: string, key: string): string {
  let byKey = dotPaths.get(prefix);
  if (byKey === undefined) dotPaths.set(prefix, (byKey = new Map()));
  let path = byKey.get(key);
  if (path === undefined) {
    path = `${prefix}.${key}`;
    if (++dotPathsKept > DOT_PATHS_KEPT) {
      dotPaths.clear();
      dotPathsKept = 0;
    } else byKey.set(key, path);
  }
  return path;
}
