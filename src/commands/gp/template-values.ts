// The JSON values skeleton of `gp template --values`: every field of the
// form at its place ({section: {field: …}}), each a placeholder saying what
// it takes. A filled copy is a `--from-file` values file; placeholders left
// in are fields not given (forms/values.ts dropPlaceholders), so an optional
// field may stay as it is and a required one is reported missing by name.
import type { FormSchema } from '../../forms/schema.js';
import { placeholder } from '../../forms/values.js';
import { put } from '../../safe-keys.js';
import { outline } from '../../forms/outline.js';
import { describeField, JSON_HINT } from './template.run.js';

type Node = Record<string, unknown> | unknown[];

/** The container at `parts` under `root`, made as needed: a list for a group entry ("N" becomes entry 0), else an object. */
function containerAt(root: Record<string, unknown>, parts: string[]): Node {
  let here: Node = root;
  for (let i = 0; i < parts.length; i++) {
    const key = parts[i] === 'N' ? '0' : parts[i]!;
    const wantList = parts[i + 1] === 'N';
    const existing: unknown = Array.isArray(here) ? here[Number(key)] : Object.hasOwn(here, key) ? here[key] : undefined;
    if (existing !== null && typeof existing === 'object') {
      here = existing as Node;
      continue;
    }
    const made: Node = wantList ? [] : {};
    if (Array.isArray(here)) here[Number(key)] = made;
    else put(here, key, made);
    here = made;
  }
  return here;
}

/**
 * A field that a condition brings in: a form may refuse it while its
 * condition does not hold, so its placeholder says to fill it in only then
 * (a placeholder left in is a field not given).
 */
function onlyWhen(required: string): string {
  const m = /^(?:yes|no), (.+)$/.exec(required);
  if (!m) return '';
  const cond = m[1].startsWith('when ') || m[1].startsWith('unless ') ? m[1] : 'its condition holds';
  return `; fill in only ${cond === 'its condition holds' ? `when ${cond}` : cond}, else leave this placeholder`;
}

/** {entity, section: {field: placeholder}} for every field of the form, in form order. */
export function valuesSkeleton(form: FormSchema, entity: string): Record<string, unknown> {
  const doc: Record<string, unknown> = { entity };
  for (const r of outline(form)) {
    const parts = r.field.split('.');
    if (r.kind === 'object' || r.kind.startsWith('section') || r.kind === 'group') {
      // Sections and objects as objects; a group as a list holding one entry to copy.
      containerAt(doc, r.kind === 'group' ? [...parts, 'N'] : parts);
      continue;
    }
    const holder = containerAt(doc, parts.slice(0, -1));
    const key = parts[parts.length - 1]!;
    const value = placeholder(`${describeField(r, JSON_HINT)}${onlyWhen(r.required)}`);
    if (Array.isArray(holder)) holder[Number(key === 'N' ? 0 : key)] = value;
    else put(holder, key, value);
  }
  return doc;
}
