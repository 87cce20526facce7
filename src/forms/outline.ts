// The outline of a form: every field with its kind, whether it is required
// (and when) and what it accepts, conditions listed rather than evaluated.
// `gp schema` draws it, `gp template` fills it in, the MCP server returns it.
import { shapeOf } from './conditions.js';
import { choicesOf, kindOf, merge } from './questions.js';
import { isObj, isSecretSchema, resolveRef, str, type FormSchema, type JsonSchema } from './schema.js';

export interface OutlineRow {
  field: string;
  title: string;
  kind: string;
  required: string;
  details: string;
}

/** Every field of the form (conditions listed, not evaluated): what a values file may hold. */
export function outline(form: FormSchema): OutlineRow[] {
  return outlineParts(form).map(({ parts: _, ...row }) => row);
}

/** A field of the outline with its details one by one (the blocks show each on its own line). */
export type OutlinePartsRow = OutlineRow & { parts: string[] };

export function outlineParts(form: FormSchema): OutlinePartsRow[] {
  const rows: OutlinePartsRow[] = [];
  const visit = (schemas: unknown[], path: string[], parentWhen: string | undefined, depth: number) => {
    if (depth > 8) return;
    const shape = shapeOf(form, schemas, {});
    // Properties from every branch, active or not.
    const all = collectProps(form, schemas);
    for (const key of shape.order) {
      const list = all.get(key);
      if (!list) continue;
      const s = merge(form, list);
      const p = [...path, key];
      const when = shape.when.get(key) ?? parentWhen;
      const required = shape.conditional.has(key) ? `${shape.required.has(key) || isRequiredInBranch(form, schemas, key) ? 'yes' : 'no'}, ${when ?? 'conditional'}` : shape.required.has(key) ? 'yes' : 'no';
      const kind = kindOf(form, s);
      const nested = (s.type === 'object' || isObj(s.properties)) && !choicesOf(form, s);
      if (nested) {
        rows.push({ field: p.join('.'), title: str(s.title) ?? key, kind: 'object', required, details: '', parts: [] });
        visit(list, p, when, depth + 1);
        continue;
      }
      const parts = detailParts(form, s, kind);
      rows.push({ field: p.join('.'), title: str(s.title) ?? key, kind, required, details: parts.join('; '), parts });
      if (kind === 'group') visit([resolveRef(form.root, s.items)], [...p, 'N'], when, depth + 1);
    }
  };
  for (const section of form.sections) {
    rows.push({ field: section.key, title: section.title, kind: section.dynamic ? 'section (dynamic-details)' : 'section', required: section.required ? 'yes' : 'no', details: '', parts: [] });
    visit([section.schema], [section.key], undefined, 0);
  }
  return rows;
}

function isRequiredInBranch(form: FormSchema, schemas: unknown[], key: string): boolean {
  let found = false;
  const walk = (raw: unknown, depth: number) => {
    const s = resolveRef(form.root, raw);
    if (!isObj(s) || depth > 12 || found) return;
    if (Array.isArray(s.required) && s.required.includes(key)) found = true;
    if (Array.isArray(s.allOf)) for (const x of s.allOf) walk(x, depth + 1);
    if (s.then !== undefined) walk(s.then, depth + 1);
    if (s.else !== undefined) walk(s.else, depth + 1);
  };
  for (const s of schemas) walk(s, 0);
  return found;
}

function collectProps(form: FormSchema, schemas: unknown[]): Map<string, JsonSchema[]> {
  const out = new Map<string, JsonSchema[]>();
  const walk = (raw: unknown, depth: number) => {
    const s = resolveRef(form.root, raw);
    if (!isObj(s) || depth > 12) return;
    if (isObj(s.properties)) {
      for (const [k, v] of Object.entries(s.properties)) {
        if (!isObj(v)) continue;
        const l = out.get(k) ?? [];
        l.push(v);
        out.set(k, l);
      }
    }
    if (Array.isArray(s.allOf)) for (const x of s.allOf) walk(x, depth + 1);
    if (s.then !== undefined) walk(s.then, depth + 1);
    if (s.else !== undefined) walk(s.else, depth + 1);
  };
  for (const s of schemas) walk(s, 0);
  return out;
}

function detailParts(form: FormSchema, s: JsonSchema, kind: string): string[] {
  const parts: string[] = [];
  const choices = kind === 'multiselect' ? choicesOf(form, resolveRef(form.root, s.items) as JsonSchema) : choicesOf(form, s);
  if (choices) parts.push(`one of: ${choices.map((c) => (c.title !== String(c.value) ? `${String(c.value)} (${c.title})` : String(c.value))).join(', ')}`);
  if (typeof s.format === 'string') parts.push(`format ${s.format}`);
  if (typeof s.pattern === 'string') parts.push(`pattern ${s.pattern}`);
  const bound = (k: string, w: string) => {
    if (typeof s[k] === 'number') parts.push(`${w} ${String(s[k])}`);
  };
  bound('minimum', '>=');
  bound('exclusiveMinimum', '>');
  bound('maximum', '<=');
  bound('exclusiveMaximum', '<');
  bound('minLength', 'min length');
  bound('maxLength', 'max length');
  bound('minItems', 'min items');
  bound('maxItems', 'max items');
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (isSecretSchema(s)) parts.push('secret');
  if (str(s.description)) parts.push(str(s.description)!);
  return parts;
}
