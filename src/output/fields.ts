import { UsageError } from '../errors.js';

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

/** Flattens nested objects and arrays to dot-path keys, in order of appearance. */
export function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0 && prefix) out[prefix] = Array.isArray(value) ? [] : {};
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out[prefix] = value;
  }
  return out;
}
