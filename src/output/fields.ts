import { UsageError } from '../errors.js';
import { MAX_DEPTH, nestedTooDeep } from './depth.js';

/** Reads a dot path (`reportsTo.firstName`, `education.0.degree`) from a value. */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Parses `--fields a,b.c` into paths; rejects empty or malformed lists. */
export function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw.split(',').map((f) => f.trim());
  if (fields.length === 0 || fields.some((f) => f === '' || !/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(f))) {
    throw new UsageError(`Invalid --fields "${raw}"`, 'Give a comma-separated list of field names or dot paths, for example --fields employeeCode,fullName,reportsTo.lastName');
  }
  return fields;
}

/** Keeps only the given paths, rebuilding the nesting (`a.b` -> {a:{b}}). */
export function pickFields(value: unknown, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of fields) {
    const parts = path.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    const v = getPath(value, path);
    target[parts[parts.length - 1]] = v === undefined ? null : v;
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
  if (value !== null && typeof value === 'object') {
    if (room === 0) throw nestedTooDeep(prefix);
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0 && prefix) out[prefix] = Array.isArray(value) ? [] : {};
    for (const [k, v] of entries) flattenInto(v, prefix ? `${prefix}.${k}` : k, out, room - 1);
  } else if (prefix) {
    out[prefix] = value;
  }
}
