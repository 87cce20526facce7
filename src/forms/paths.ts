// Dot paths into the answers document (`legal.children.0.firstName`): read
// and write, creating objects and arrays on the way. The parts come from
// schemas, values files and spreadsheet headers: only own properties are
// read and written (safe-keys.ts), so no part reaches a prototype.
import { own, put } from '../safe-keys.js';
import { isObj } from './schema.js';

export function getAt(doc: unknown, path: string[]): unknown {
  let cur = doc;
  for (const p of path) {
    if (Array.isArray(cur) && /^\d+$/.test(p)) cur = cur[Number(p)];
    else if (isObj(cur)) cur = own(cur, p);
    else return undefined;
  }
  return cur;
}

export function setAt(doc: Record<string, unknown>, path: string[], value: unknown): void {
  let cur: Record<string, unknown> | unknown[] = doc;
  for (let i = 0; i < path.length - 1; i++) {
    const p = path[i];
    const nextIsIndex = /^\d+$/.test(path[i + 1]);
    const container = cur as Record<string, unknown>;
    let next = Array.isArray(container) && /^\d+$/.test(p) ? container[Number(p)] : own(container, p);
    if (!isObj(next) && !Array.isArray(next)) {
      next = nextIsIndex ? [] : {};
      put(container, p, next);
    }
    cur = next as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else if (Object.hasOwn(cur, last)) delete (cur as Record<string, unknown>)[last];
  } else put(cur as Record<string, unknown>, last, value);
}
