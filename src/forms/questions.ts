// Schema -> the ordered questions of a section, for the answers given so far.
// Nested objects are flattened into their fields; arrays of objects are one
// group question whose items are small forms of their own.
import { put } from '../safe-keys.js';
import { shapeOf, visibleKeys, type NodeShape } from './conditions.js';
import { getAt } from './paths.js';
import { isObj, isSecretSchema, presentation, resolveRef, str, type FormSchema, type JsonSchema } from './schema.js';

export type Kind = 'text' | 'textarea' | 'email' | 'date' | 'number' | 'integer' | 'select' | 'multiselect' | 'list' | 'boolean' | 'secret' | 'group' | 'object' | 'json';

export interface Choice {
  value: unknown;
  title: string;
  description?: string;
}

export interface Field {
  /** Dot path in the answers: `employment.endDate`, `legal.children.0.firstName`. */
  id: string;
  path: string[];
  key: string;
  section: string;
  title: string;
  description?: string;
  kind: Kind;
  required: boolean;
  /** The merged schema of the field now (base and active branches). */
  schema: JsonSchema;
  /** All schemas that apply (for arrays of objects: their items are read from these). */
  schemas: JsonSchema[];
  choices?: Choice[];
  default?: unknown;
  /** The field's value is not asked: a constant or hidden input with a value. */
  fixed?: { value: unknown };
  /**
   * Titles of the objects and list entries the field sits in, below its
   * section (`['Home address']`, `['EPF nominees #1']`): labels, not keys.
   */
  trail: string[];
  /** The nested object the field belongs to (announced when its questions start). */
  parent?: { id: string; title: string; description?: string };
  /** Money fields: the currency their amount is in (`x-jsf-presentation.currency`). */
  currency?: string;
  /** Why the field is shown, when a condition brought it in. */
  when?: string;
  /** Group arrays: the item schemas, bounds and the "add" wording. */
  items?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  addText?: string;
}

/** Merges the schemas that apply to one field, shallowly, later ones winning. */
export function merge(form: FormSchema, schemas: unknown[]): JsonSchema {
  const out: JsonSchema = {};
  for (const s of schemas) {
    const r = resolveRef(form.root, s);
    if (!isObj(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      if (k === 'x-jsf-presentation' && isObj(out[k]) && isObj(v)) out[k] = { ...(out[k] as object), ...v };
      else put(out, k, v);
    }
  }
  return out;
}

function primaryType(s: JsonSchema): string | undefined {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  return undefined;
}

/** Options of a select: `enum`, or `oneOf`/`anyOf` whose members are `{const, title}`. */
export function choicesOf(form: FormSchema, s: JsonSchema): Choice[] | undefined {
  if (Array.isArray(s.enum)) {
    const names = presentation(s).options;
    const labels = Array.isArray(names) ? names : undefined;
    return s.enum.filter((v) => v !== null).map((v, i) => {
      const label = labels?.[i];
      const title = isObj(label) ? str(label.label) : undefined;
      return { value: v, title: title ?? String(v) };
    });
  }
  for (const k of ['oneOf', 'anyOf']) {
    const list = s[k];
    if (!Array.isArray(list) || list.length === 0) continue;
    const resolved = list.map((o) => resolveRef(form.root, o));
    if (!resolved.every((o) => isObj(o) && (Object.hasOwn(o, 'const') || (Array.isArray(o.enum) && o.enum.length === 1)))) continue;
    return (resolved as JsonSchema[])
      .filter((o) => o.const !== null)
      .map((o) => {
        const value = Object.hasOwn(o, 'const') ? o.const : (o.enum as unknown[])[0];
        return { value, title: str(o.title) ?? String(value), description: str(o.description) };
      });
  }
  return undefined;
}

export function kindOf(form: FormSchema, s: JsonSchema): Kind {
  const p = presentation(s);
  const inputType = typeof p.inputType === 'string' ? p.inputType : undefined;
  const type = primaryType(s);
  if (type === 'array' || (!type && s.items !== undefined)) {
    const items = resolveRef(form.root, s.items);
    if (isObj(items)) {
      if (choicesOf(form, items)) return 'multiselect';
      const it = primaryType(items);
      if (it === 'object' || isObj(items.properties) || inputType === 'group-array') return 'group';
    }
    if (inputType === 'group-array') return 'group';
    return items !== undefined || type === 'array' ? 'list' : 'json';
  }
  if (choicesOf(form, s)) return 'select';
  if (type === 'boolean' || (!type && inputType === 'checkbox')) return 'boolean';
  // A secret is masked whatever its type (a numeric id too); its value is still typed by the schema (values.ts).
  if (isSecretSchema(s)) return 'secret';
  if (type === 'number') return 'number';
  if (type === 'integer') return 'integer';
  if (type === 'object' || isObj(s.properties)) return 'json';
  if (s.format === 'date' || inputType === 'date') return 'date';
  if (s.format === 'email' || inputType === 'email') return 'email';
  if (inputType === 'textarea') return 'textarea';
  if (type === undefined && (inputType === 'number' || inputType === 'money')) return 'number';
  return 'text';
}

/** An object whose fields are asked one by one (not a select of objects, not free JSON). */
export function isNestedObject(form: FormSchema, s: JsonSchema): boolean {
  if (choicesOf(form, s)) return false;
  return primaryType(s) === 'object' && (isObj(s.properties) || Array.isArray(s.allOf) || s.if !== undefined) || (!s.type && isObj(s.properties));
}

function hiddenInput(s: JsonSchema): boolean {
  return presentation(s).inputType === 'hidden' || s.readOnly === true;
}

/**
 * The questions of an object node right now, in order, nested objects
 * flattened. An optional nested object is one `object` question ("fill it
 * in?"); its own questions exist only while it is present in the answers,
 * and then its required fields are required: left out, it is simply not sent.
 */
export function fieldsOf(form: FormSchema, section: string, basePath: string[], schemas: unknown[], value: unknown, trail: string[] = [], parent?: Field['parent']): Field[] {
  const shape = shapeOf(form, schemas, value);
  const out: Field[] = [];
  for (const key of visibleKeys(shape)) {
    const list = shape.props.get(key) ?? [];
    const s = merge(form, list);
    const path = [...basePath, key];
    const required = shape.required.has(key);
    if (isNestedObject(form, s)) {
      const child = isObj(value) ? value[key] : undefined;
      const title = str(s.title) ?? key;
      const here = { id: path.join('.'), title, description: str(s.description) };
      if (!required) {
        out.push({ id: here.id, path, key, section, title, description: here.description, kind: 'object', required: false, schema: s, schemas: list, trail, parent, when: shape.when.get(key) });
        if (!isObj(child)) continue;
      }
      out.push(...fieldsOf(form, section, path, list, child, [...trail, title], here));
      continue;
    }
    const field = makeField(form, section, path, s, list, required, shape, trail, parent);
    if (field) out.push(field);
  }
  return out;
}

function makeField(form: FormSchema, section: string, path: string[], s: JsonSchema, list: JsonSchema[], required: boolean, shape: NodeShape, trail: string[] = [], parent?: Field['parent']): Field | undefined {
  const key = path[path.length - 1];
  const kind = kindOf(form, s);
  const field: Field = {
    id: path.join('.'),
    path,
    key,
    section,
    title: str(s.title) ?? key,
    description: str(s.description),
    kind,
    required,
    schema: s,
    schemas: list,
    trail,
    parent,
    when: shape.when.get(key),
  };
  if (s.default !== undefined) field.default = s.default;
  const currency = str(presentation(s).currency);
  if (currency && (kind === 'number' || kind === 'integer')) field.currency = currency;
  if (kind === 'select') field.choices = choicesOf(form, s);
  if (kind === 'multiselect') field.choices = choicesOf(form, resolveRef(form.root, s.items) as JsonSchema);
  if (Object.hasOwn(s, 'const')) field.fixed = { value: s.const };
  else if (hiddenInput(s)) {
    if (s.readOnly === true) return undefined;
    if (s.default !== undefined) field.fixed = { value: s.default };
    else return undefined;
  }
  if (kind === 'group') {
    const items = resolveRef(form.root, s.items);
    field.items = isObj(items) ? [items] : [{}];
    if (typeof s.minItems === 'number') field.minItems = s.minItems;
    if (typeof s.maxItems === 'number') field.maxItems = s.maxItems;
    const p = presentation(s);
    field.addText = str(p.addFieldText);
  }
  return field;
}

/** The questions of one section now. */
export function sectionFields(form: FormSchema, sectionKey: string, doc: Record<string, unknown>): Field[] {
  const section = form.sections.find((s) => s.key === sectionKey);
  if (!section) return [];
  const s = section.schema;
  if (!isNestedObject(form, s) && !(isObj(s.properties) || Array.isArray(s.allOf))) {
    // A top-level property that is not an object: a one-question section.
    const shape = shapeOf(form, [form.root], doc);
    const f = makeField(form, sectionKey, [sectionKey], merge(form, shape.props.get(sectionKey) ?? [s]), shape.props.get(sectionKey) ?? [s], section.required, shape);
    return f ? [f] : [];
  }
  const rootShape = shapeOf(form, [form.root], doc);
  const list = rootShape.props.get(sectionKey) ?? [s];
  return fieldsOf(form, sectionKey, [sectionKey], list, doc[sectionKey]);
}

/** The questions of one item of a group array. */
export function itemFields(form: FormSchema, group: Field, index: number, doc: Record<string, unknown>): Field[] {
  const path = [...group.path, String(index)];
  const entry = { id: path.join('.'), title: `${group.title} #${index + 1}` };
  return fieldsOf(form, group.section, path, group.items ?? [{}], getAt(doc, path), [...group.trail, entry.title], entry);
}

/** Every question of the form now (group items included), for review and error mapping. */
export function allFields(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): Field[] {
  const out: Field[] = [];
  for (const s of form.sections) {
    if (sections && !sections.includes(s.key)) continue;
    for (const f of sectionFields(form, s.key, doc)) {
      out.push(f);
      if (f.kind === 'group') {
        const arr = getAt(doc, f.path);
        if (Array.isArray(arr)) arr.forEach((_, i) => out.push(...itemFields(form, f, i, doc)));
      }
    }
  }
  return out;
}
