// Keys chosen by someone else (a server's schema or answer, a values file, a
// spreadsheet header, an MCP client) never reach a prototype. JSON.parse
// makes `"__proto__"` an ordinary own key, but `obj[key] = v` with that key
// replaces obj's prototype, a walk through it reaches Object.prototype, and
// `key in obj` or `obj[key]` find `constructor` on every object. So: reads
// are of own properties only, writes define own properties, and the three
// names that mean JavaScript's object model are refused where people and
// servers name fields (they are never field names of the API).

/** Names that are JavaScript's object model, not data: refused as field names. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The hint of an input refused for naming one of them. */
export const UNSAFE_NAMES_HINT = '__proto__, constructor and prototype are never field names; see the fields with `partner gp schema --entity NAME`.';

export function isUnsafeKey(key: string): boolean {
  return UNSAFE_KEYS.has(key);
}

/** `obj[key]` when it is obj's own property, else undefined (never an inherited member). */
export function own(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Sets `obj[key]` as an own data property, whatever the key: `__proto__` never replaces the prototype. */
export function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * The dot path of the first object key of `value` that is an unsafe name
 * (depth-first, in key order), or undefined. Walks at most `maxDepth`
 * levels; deeper values are not looked at (callers bound depth themselves).
 */
export function unsafeKeyPath(value: unknown, maxDepth = 64): string | undefined {
  const walk = (v: unknown, path: string[], room: number): string[] | undefined => {
    if (v === null || typeof v !== 'object' || room === 0) return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const at = walk(v[i], [...path, String(i)], room - 1);
        if (at) return at;
      }
      return undefined;
    }
    for (const key of Object.keys(v)) {
      if (isUnsafeKey(key)) return [...path, key];
      const at = walk((v as Record<string, unknown>)[key], [...path, key], room - 1);
      if (at) return at;
    }
    return undefined;
  };
  return walk(value, [], maxDepth)?.join('.');
}
