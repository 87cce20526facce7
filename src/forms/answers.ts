// The answers document as a whole: dropping answers a condition hid, and
// what a request carries (empty answers dropped, required containers kept).
import { put } from '../safe-keys.js';
import { isVisible, shapeOf, visibleKeys } from './conditions.js';
import { allFields, isNestedObject, kindOf, merge } from './questions.js';
import { isObj, resolveRef, type FormSchema, type JsonSchema } from './schema.js';

/**
 * Drops the values of fields that are no longer visible (a condition stopped
 * holding), repeating until nothing changes. Returns the dropped paths.
 */
export function pruneHidden(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): string[] {
  const dropped: string[] = [];
  for (let round = 0; round < 8; round++) {
    const before = dropped.length;
    const rootShape = shapeOf(form, [form.root], doc);
    for (const s of form.sections) {
      if (sections && !sections.includes(s.key)) continue;
      if (!isVisible(rootShape, s.key) && doc[s.key] !== undefined) {
        dropped.push(s.key);
        delete doc[s.key];
        continue;
      }
      pruneNode(form, rootShape.props.get(s.key) ?? [s.schema], doc[s.key], [s.key], dropped);
    }
    if (dropped.length === before) break;
  }
  return dropped;
}

function pruneNode(form: FormSchema, schemas: unknown[], value: unknown, path: string[], dropped: string[]): void {
  if (!isObj(value)) return;
  const shape = shapeOf(form, schemas, value);
  for (const key of Object.keys(value)) {
    const declared = shape.order.includes(key) || shape.forbidden.has(key);
    if (!declared) continue; // unknown keys are left for validation to report
    if (!isVisible(shape, key)) {
      dropped.push([...path, key].join('.'));
      delete value[key];
      continue;
    }
    const list = shape.props.get(key) ?? [];
    const s = merge(form, list);
    if (isNestedObject(form, s)) pruneNode(form, list, value[key], [...path, key], dropped);
    else if (kindOf(form, s) === 'group' && Array.isArray(value[key])) {
      const items = resolveRef(form.root, s.items);
      (value[key] as unknown[]).forEach((item, i) => pruneNode(form, [items], item, [...path, key, String(i)], dropped));
    }
  }
}

/** Drops what was left empty: undefined, empty strings, empty objects below a section (entries of lists stay). */
export function compact(value: unknown, depth = 0): unknown {
  // An entry of a list is kept even when all its answers were left empty: it was added on purpose and counts toward minItems.
  if (Array.isArray(value)) return value.map((v) => compact(v, depth + 1) ?? (isObj(v) ? {} : undefined)).filter((v) => v !== undefined);
  if (isObj(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = compact(v, depth + 1);
      if (c !== undefined) put(out, k, c);
    }
    if (depth > 0 && Object.keys(out).length === 0) return undefined;
    return out;
  }
  if (value === '' && depth > 0) return undefined;
  return value;
}

/**
 * What a request carries for the answers: compact(), then every object the
 * form requires (a required section, a required nested object under an object
 * that is sent) put back as `{}` when all its fields were left empty. Without
 * this, a required object of optional fields left empty would be dropped and
 * then refused as missing, with no question that could fix it. An optional
 * object left empty is still not sent.
 */
export function requestDoc(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): Record<string, unknown> {
  const clean = (compact(doc) ?? {}) as Record<string, unknown>;
  const rootShape = shapeOf(form, [form.root], clean);
  for (const s of form.sections) {
    if (sections && !sections.includes(s.key)) continue;
    const list = rootShape.props.get(s.key) ?? [s.schema];
    if (clean[s.key] === undefined && s.required && isVisible(rootShape, s.key) && isNestedObject(form, merge(form, list))) clean[s.key] = {};
    keepRequired(form, list, clean[s.key], 0);
  }
  return clean;
}

function keepRequired(form: FormSchema, schemas: unknown[], value: unknown, depth: number): void {
  if (!isObj(value) || depth > 32) return;
  const shape = shapeOf(form, schemas, value);
  for (const key of visibleKeys(shape)) {
    const list = shape.props.get(key) ?? [];
    const s = merge(form, list);
    if (isNestedObject(form, s)) {
      if (value[key] === undefined && shape.required.has(key)) value[key] = {};
      keepRequired(form, list, value[key], depth + 1);
    } else if (kindOf(form, s) === 'group' && Array.isArray(value[key])) {
      const items = resolveRef(form.root, s.items) as JsonSchema;
      for (const item of value[key] as unknown[]) keepRequired(form, [items], item, depth + 1);
    }
  }
}

/**
 * Drops the answers a condition hid, and forgets that their questions were
 * asked (a question that becomes hidden is asked again if it comes back).
 */
export function pruneAnswers(w: { form: FormSchema; doc: Record<string, unknown>; asked: Set<string>; sections: string[] }): void {
  const dropped = pruneHidden(w.form, w.doc, w.sections);
  for (const p of dropped) for (const a of [...w.asked]) if (a === p || a.startsWith(`${p}.`)) w.asked.delete(a);
  const visible = new Set(allFields(w.form, w.doc, w.sections).map((f) => f.id));
  for (const a of [...w.asked]) if (!visible.has(a) && !isGroupItemPath(a) && !/^(section|skip):/.test(a)) w.asked.delete(a);
}

function isGroupItemPath(id: string): boolean {
  return /\.\d+(\.|$)/.test(id);
}
