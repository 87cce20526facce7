// The second form format: a field-definition list, the other common shape of
// HR form APIs, translated once into the JSON Schema the engine already
// understands (so ajv stays the one validator and the wizard, --from-file,
// --set and the CSV template work the same for both formats).
//
//   {sections: [{key, label|title, description?, submit?: "dynamic-details" | dynamic?: true,
//                fields: [{key|name, label|title, type, required, allowedValues | options,
//                          validation: {pattern, min, max, minLength, maxLength},
//                          defaultValue, description|helpText, dependsOn|visibleWhen: {field, equals | in}}]}]}
//   or {fields: […]} (each field is then its own top-level member of the body).
//
// The README ("Field-definition lists") documents the mapping.
import { isObj, str, type JsonSchema } from './json-values.js';
import { put } from '../safe-keys.js';

export class FieldListError extends Error {}

export interface Translated {
  schema: JsonSchema;
  /** Things translated with a guess (unknown types, conditions on unknown fields). */
  warnings: string[];
}

/** A field-definition list: `sections` (an array) or a top-level `fields` array, and no JSON Schema `properties`. */
export function isFieldList(raw: unknown): raw is Record<string, unknown> {
  return isObj(raw) && !isObj(raw.properties) && (Array.isArray(raw.sections) || Array.isArray(raw.fields));
}

const KNOWN = ['TEXT', 'NUMBER', 'INTEGER', 'DATE', 'EMAIL', 'PHONE', 'BOOLEAN', 'SELECT', 'MULTI_SELECT', 'TEXTAREA', 'PASSWORD', 'SECRET'] as const;
type FieldType = (typeof KNOWN)[number];

/** Common other names of the same types. */
const ALIASES: Record<string, FieldType> = {
  MULTISELECT: 'MULTI_SELECT',
  CHECKBOXES: 'MULTI_SELECT',
  STRING: 'TEXT',
  SHORT_TEXT: 'TEXT',
  LONG_TEXT: 'TEXTAREA',
  TEL: 'PHONE',
  INT: 'INTEGER',
  DECIMAL: 'NUMBER',
  CHECKBOX: 'BOOLEAN',
  RADIO: 'SELECT',
  DROPDOWN: 'SELECT',
};

/** `MULTI_SELECT`, `multi-select`, `multiSelect` and `multiselect` are one type. */
function normaliseType(t: unknown): string {
  if (typeof t !== 'string') return 'TEXT';
  const u = t.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/[-\s]/g, '_').toUpperCase();
  return ALIASES[u] ?? u;
}

const dynamicMarker = (s: Record<string, unknown>) => s.submit === 'dynamic-details' || s.dynamic === true || s['x-submit'] === 'dynamic-details';

export function translateFieldList(raw: Record<string, unknown>): Translated {
  const warnings: string[] = [];
  const root: JsonSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', 'x-form-format': 'field-list' };
  if (str(raw.title) ?? str(raw.label)) root.title = str(raw.title) ?? str(raw.label);
  if (str(raw.description)) root.description = str(raw.description);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const order: string[] = [];

  if (Array.isArray(raw.sections)) {
    const sections = raw.sections.filter(isObj);
    if (sections.length !== raw.sections.length) throw new FieldListError('every entry of "sections" must be an object {key, label, fields: […]}');
    const anyMarker = sections.some(dynamicMarker);
    const dynamic: string[] = [];
    sections.forEach((s, i) => {
      const key = str(s.key) ?? str(s.name) ?? str(s.id);
      if (!key) throw new FieldListError(`section ${i + 1} has no "key" (or "name")`);
      if (Object.hasOwn(properties, key)) throw new FieldListError(`two sections have the key "${key}"`);
      if (!Array.isArray(s.fields)) throw new FieldListError(`section "${key}" has no "fields" array`);
      const section = objectOf(s.fields, key, warnings);
      const title = str(s.label) ?? str(s.title);
      if (title) section.title = title;
      if (str(s.description)) section.description = str(s.description);
      put(properties, key, section);
      order.push(key);
      // A section is required when it says so or holds a required field.
      if (s.required === true || (Array.isArray(section.required) && section.required.length > 0)) required.push(key);
      // Per-section marker when any section has one; otherwise every section is PATCHed (the endpoint is the dynamic-details schema).
      if (!anyMarker || dynamicMarker(s)) dynamic.push(key);
    });
    root['x-dynamic-sections'] = dynamic;
  } else {
    // One flat list: every field is a top-level member of the body, all PATCHed.
    const flat = objectOf(raw.fields as unknown[], '', warnings);
    for (const [k, v] of Object.entries(flat.properties as object)) put(properties, k, v);
    if (Array.isArray(flat.required)) required.push(...(flat.required as string[]));
    // Each field is a one-question section here; sections cannot be conditional,
    // so a field with a condition is kept as an optional question.
    for (const b of (flat.allOf as JsonSchema[] | undefined) ?? []) {
      for (const [k, v] of Object.entries((b.then as JsonSchema).properties as object)) {
        put(properties, k, v);
        warnings.push(`${k}: conditions are honoured only inside sections; in a flat field list this field is always asked, as optional`);
      }
    }
    order.push(...(flat['x-jsf-order'] as string[]));
    root['x-dynamic-sections'] = [...order];
  }
  root['x-jsf-order'] = order;
  root.required = required;
  root.properties = properties;
  return { schema: root, warnings };
}

/** The fields of one section as an object schema (conditions as if/then branches). */
function objectOf(fields: unknown[], section: string, warnings: string[]): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const order: string[] = [];
  const branches: JsonSchema[] = [];
  const conditional: string[] = [];
  const where = (key: string) => (section ? `${section}.${key}` : key);
  const defs = fields.map((f, i) => {
    if (!isObj(f)) throw new FieldListError(`field ${i + 1}${section ? ` of section "${section}"` : ''} is not an object`);
    const key = str(f.key) ?? str(f.name) ?? str(f.id);
    if (!key) throw new FieldListError(`field ${i + 1}${section ? ` of section "${section}"` : ''} has no "key" (or "name")`);
    return { f, key };
  });
  const keys = new Set(defs.map((d) => d.key));
  for (const { f, key } of defs) {
    if (order.includes(key)) throw new FieldListError(`two fields are called "${where(key)}"`);
    order.push(key);
    const schema = fieldSchema(f, where(key), warnings);
    const cond = condition(f.dependsOn ?? f.visibleWhen, where(key), section, keys, warnings);
    if (cond) {
      // Declared only in the branch: the engine shows it while the condition holds and drops it otherwise.
      const then: JsonSchema = { properties: { [key]: schema } };
      if (f.required === true) then.required = [key];
      // Hidden: refused when the condition does not hold (the wizard drops such answers itself).
      branches.push({ if: { properties: { [cond.field]: cond.test }, required: [cond.field] }, then, else: { properties: { [key]: false } } });
      conditional.push(key);
      continue;
    }
    put(properties, key, schema);
    if (f.required === true) required.push(key);
  }
  // Unknown members are refused. Fields declared only in a condition's branch are
  // made known to additionalProperties through patternProperties (not properties,
  // which would make them unconditional for the engine).
  const out: JsonSchema = { type: 'object', properties, 'x-jsf-order': order, additionalProperties: false };
  if (conditional.length) out.patternProperties = { [`^(${conditional.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`]: true };
  if (required.length) out.required = required;
  if (branches.length) out.allOf = branches;
  return out;
}

function condition(raw: unknown, where: string, section: string, keys: Set<string>, warnings: string[]): { field: string; test: JsonSchema } | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObj(raw) || !str(raw.field)) {
    warnings.push(`${where}: its condition is not {field, equals|in}; the field is always asked`);
    return undefined;
  }
  // `section.field` names a field of the same section too.
  const named = str(raw.field)!;
  const field = section && named.startsWith(`${section}.`) ? named.slice(section.length + 1) : named;
  if (!keys.has(field)) {
    warnings.push(`${where}: its condition names "${named}", which is not a field of the same section; the field is always asked`);
    return undefined;
  }
  if (Object.hasOwn(raw, 'equals')) return { field, test: { const: raw.equals } };
  if (Array.isArray(raw.in)) return { field, test: { enum: raw.in } };
  warnings.push(`${where}: its condition has neither "equals" nor "in"; the field is always asked`);
  return undefined;
}

function choices(f: Record<string, unknown>): { value: unknown; title: string }[] | undefined {
  if (Array.isArray(f.options)) {
    return f.options.map((o) => (isObj(o) ? { value: o.value ?? o.key ?? o.id, title: str(o.label) ?? str(o.title) ?? String(o.value ?? o.key ?? o.id) } : { value: o, title: String(o) })).filter((c) => c.value !== undefined);
  }
  if (Array.isArray(f.allowedValues)) return f.allowedValues.filter((v) => v !== null && typeof v !== 'object').map((v) => ({ value: v, title: String(v) }));
  return undefined;
}

function fieldSchema(f: Record<string, unknown>, where: string, warnings: string[]): JsonSchema {
  let type = normaliseType(f.type) as FieldType;
  if (!(KNOWN as readonly string[]).includes(type)) {
    warnings.push(`${where}: unknown field type "${String(f.type).slice(0, 40)}"; asked as text`);
    type = 'TEXT';
  }
  const s: JsonSchema = {};
  const title = str(f.label) ?? str(f.title);
  if (title) s.title = title;
  const description = str(f.description) ?? str(f.helpText) ?? str(f.hint) ?? str(f.placeholder);
  if (description) s.description = description;
  const v = isObj(f.validation) ? f.validation : {};
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  const opts = choices(f);
  const oneOf = opts?.map((c) => ({ const: c.value, title: c.title }));
  const valueType = (list: { value: unknown }[]) => (list.length > 0 && list.every((c) => typeof c.value === 'number') ? (list.every((c) => Number.isInteger(c.value)) ? 'integer' : 'number') : 'string');

  switch (type) {
    case 'NUMBER':
    case 'INTEGER':
      s.type = type === 'NUMBER' ? 'number' : 'integer';
      s['x-jsf-presentation'] = { inputType: 'number' };
      if (num(v.min) !== undefined) s.minimum = num(v.min);
      if (num(v.max) !== undefined) s.maximum = num(v.max);
      break;
    case 'BOOLEAN':
      s.type = 'boolean';
      s['x-jsf-presentation'] = { inputType: 'checkbox' };
      break;
    case 'MULTI_SELECT':
      s.type = 'array';
      s.uniqueItems = true;
      s.items = oneOf ? { type: valueType(opts!), oneOf } : { type: 'string' };
      s['x-jsf-presentation'] = { inputType: 'checkbox' };
      if (num(v.min) !== undefined) s.minItems = num(v.min);
      if (num(v.max) !== undefined) s.maxItems = num(v.max);
      if (!oneOf) warnings.push(`${where}: a MULTI_SELECT without allowedValues or options; asked as a comma-separated list`);
      break;
    default: {
      s.type = 'string';
      const inputType = { TEXT: 'text', TEXTAREA: 'textarea', DATE: 'date', EMAIL: 'email', PHONE: 'tel', SELECT: 'select', PASSWORD: 'password', SECRET: 'password' }[type];
      s['x-jsf-presentation'] = { inputType };
      if (type === 'DATE') s.format = 'date';
      if (type === 'DATE' && (v.min !== undefined || v.max !== undefined)) warnings.push(`${where}: date bounds (validation.min/max) are not checked here; the server checks them`);
      if (type === 'EMAIL') s.format = 'email';
      if (type === 'PASSWORD' || type === 'SECRET') s['x-jsf-presentation'] = { inputType, maskSecret: true };
      if (typeof v.pattern === 'string') s.pattern = v.pattern;
      const minLength = num(v.minLength) ?? (type === 'DATE' ? undefined : num(v.min));
      const maxLength = num(v.maxLength) ?? (type === 'DATE' ? undefined : num(v.max));
      if (minLength !== undefined) s.minLength = minLength;
      if (maxLength !== undefined) s.maxLength = maxLength;
      if (oneOf) {
        s.type = valueType(opts!);
        s.oneOf = oneOf;
        delete s.minLength;
        delete s.maxLength;
        if (type !== 'SELECT') s['x-jsf-presentation'] = { inputType: 'select' };
      } else if (type === 'SELECT') warnings.push(`${where}: a SELECT without allowedValues or options; asked as text`);
    }
  }
  if (typeof f.pattern === 'string' && s.pattern === undefined && s.type === 'string') s.pattern = f.pattern;
  if (f.defaultValue !== undefined && f.defaultValue !== null) s.default = f.defaultValue;
  if (f.readOnly === true) s.readOnly = true;
  if (f.maskSecret !== undefined && f.maskSecret !== false && f.maskSecret !== 0) s['x-jsf-presentation'] = { ...(s['x-jsf-presentation'] as object), maskSecret: f.maskSecret };
  return s;
}

/** A short description of a document that is neither format, for the error. */
export function describeShape(raw: unknown): string {
  if (Array.isArray(raw)) return `a JSON array of ${raw.length}`;
  if (!isObj(raw)) return raw === null ? 'null' : `a JSON ${typeof raw}`;
  const keys = Object.keys(raw);
  return keys.length ? `an object with ${keys.slice(0, 8).map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}${keys.length > 8 ? ', …' : ''}` : 'an empty object';
}
