import type { Context } from '../../context.js';
import { getFormSchema } from '../../api/employees.js';
import { parseChoice, parseText } from '../../options.js';
import { writeJson } from '../../output/writer.js';
import { renderTable, type Column } from '../../output/table.js';
import { shapeOf } from '../../forms/conditions.js';
import { choicesOf, kindOf, merge } from '../../forms/questions.js';
import { isObj, loadSchema, presentation, resolveRef, str, type FormSchema, type JsonSchema } from '../../forms/schema.js';

export interface SchemaOptions {
  entity: string;
  output?: 'table' | 'json';
}

export function parse(_args: string[], raw: Record<string, unknown>): SchemaOptions {
  return { entity: parseText('--entity', raw.entity)!, output: parseChoice('--output', raw.output, ['table', 'json'] as const) };
}

// Field paths are never cut; the rest shares what is left ("yes, when term = …",
// "section (dynamic-details)"); titles go first when even that does not fit.
export const SCHEMA_COLUMNS: Column[] = [
  { key: 'field', header: 'FIELD', kind: 'key' },
  { key: 'title', header: 'TITLE', kind: 'free', priority: 1 },
  { key: 'kind', header: 'KIND', kind: 'free' },
  { key: 'required', header: 'REQUIRED', kind: 'free' },
  { key: 'details', header: 'DETAILS', kind: 'free' },
];

export interface OutlineRow {
  field: string;
  title: string;
  kind: string;
  required: string;
  details: string;
}

/** Every field of the form (conditions listed, not evaluated): what a values file may hold. */
export function outline(form: FormSchema): OutlineRow[] {
  const rows: OutlineRow[] = [];
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
        rows.push({ field: p.join('.'), title: str(s.title) ?? key, kind: 'object', required, details: '' });
        visit(list, p, when, depth + 1);
        continue;
      }
      rows.push({ field: p.join('.'), title: str(s.title) ?? key, kind, required, details: details(form, s, kind) });
      if (kind === 'group') visit([resolveRef(form.root, s.items)], [...p, 'N'], when, depth + 1);
    }
  };
  for (const section of form.sections) {
    rows.push({ field: section.key, title: section.title, kind: section.dynamic ? 'section (dynamic-details)' : 'section', required: section.required ? 'yes' : 'no', details: '' });
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

function details(form: FormSchema, s: JsonSchema, kind: string): string {
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
  if (presentation(s).maskSecret === true || s.writeOnly === true) parts.push('secret');
  if (str(s.description)) parts.push(str(s.description)!);
  return parts.join('; ');
}

export async function run(opts: SchemaOptions, ctx: Context): Promise<void> {
  const http = await ctx.api();
  const raw = await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: opts.entity });
  const form = loadSchema(raw);
  const format = opts.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'json');
  if (format === 'json') {
    await writeJson(ctx.io.stdout, raw);
    return;
  }
  const rows = outline(form);
  ctx.io.stdout.write(
    renderTable(
      SCHEMA_COLUMNS,
      rows.map((r) => [r.field, r.title, r.kind, r.required, r.details]),
      { columns: ctx.io.columns, color: ctx.io.color, fullOutput: '-o json' },
    ),
  );
  ctx.log.info(`Values files nest fields under their section: {"${form.sections[0]?.key ?? 'section'}": {…}}. Use with: partner gp create --entity "${opts.entity}" --from-file values.json`);
}
