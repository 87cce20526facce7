import type { Context } from '../../context.js';
import { getFormSchema } from '../../api/employees.js';
import type { OptionsOf } from '../../command.js';
import type { schema } from './schema.js';
import { writeRecord } from '../../output/writer.js';
import { renderTable, type Column } from '../../output/table.js';
import { shapeOf } from '../../forms/conditions.js';
import { choicesOf, kindOf, merge } from '../../forms/questions.js';
import { FormFormatError, isObj, isSecretSchema, resolveRef, str, type FormSchema, type JsonSchema } from '../../forms/schema.js';
import { loadServerForm } from '../../forms/load.js';
import { ExitCode } from '../../errors.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
import { countOf } from '../../output/count.js';
import { partnerCommand, q } from '../../text/command-line.js';

export type SchemaOptions = OptionsOf<typeof schema>;

// Field paths are never cut. KIND and REQUIRED take the width of their usual
// values ("multiselect", "yes, when"), DETAILS (what people read to fill the
// form in) the rest; on a terminal the three wrap within their column rather
// than being cut. When even that does not fit, titles go first, then KIND, then
// REQUIRED: DETAILS is the last to go (at 60 columns: FIELD and DETAILS).
export const SCHEMA_COLUMNS: Column[] = [
  { key: 'field', header: 'FIELD', kind: 'key' },
  { key: 'title', header: 'TITLE', kind: 'free', priority: 1, wrap: true },
  { key: 'kind', header: 'KIND', kind: 'free', priority: 2, maxWidth: 11, wrap: true },
  { key: 'required', header: 'REQUIRED', kind: 'free', priority: 3, maxWidth: 10, wrap: true },
  { key: 'details', header: 'DETAILS', kind: 'free', wrap: true },
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
  if (isSecretSchema(s)) parts.push('secret');
  if (str(s.description)) parts.push(str(s.description)!);
  return parts.join('; ');
}

export async function run(opts: SchemaOptions, ctx: Context): Promise<number> {
  const http = await ctx.http();
  const raw = await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: opts.entity });
  const output = opts.out;
  if (output.format !== 'table') {
    // The server's document as it came, whatever its format (through --jq when given).
    await writeRecord(ctx.io, ctx.io.stdout, raw, output);
    return ExitCode.OK;
  }
  let form: FormSchema;
  try {
    form = loadServerForm(raw, ctx.log);
  } catch (err) {
    if (!(err instanceof FormFormatError)) throw err;
    // Show what there is, and say what is not understood.
    ctx.io.stdout.write(renderTable([{ key: 'member', header: 'MEMBER', kind: 'key' }, { key: 'type', header: 'TYPE', kind: 'short' }, { key: 'size', header: 'SIZE', kind: 'short' }], topLevel(raw), { columns: ctx.io.columns, color: ctx.io.color }));
    ctx.log.warn(`${sanitizeTerminal(err.message)}.`);
    ctx.log.info(`The whole document: ${partnerCommand(ctx.globals, `gp schema --entity ${q(opts.entity)} -o json`)}. ${err.hint ?? ''}`);
    return ExitCode.OK;
  }
  const rows = outline(form);
  ctx.io.stdout.write(
    renderTable(
      SCHEMA_COLUMNS,
      rows.map((r) => [r.field, r.title, r.kind, r.required, r.details]),
      { columns: ctx.io.columns, color: ctx.io.color, fullOutput: '-o json' },
    ),
  );
  if (form.format === 'field-list') ctx.log.info('The server sent a field-definition list; it is shown as partner reads it (-o json prints it as sent).');
  ctx.log.info(`Values files nest fields under their section: {"${form.sections[0]?.key ?? 'section'}": {…}}. Use with: ${partnerCommand(ctx.globals, `gp create --entity ${q(opts.entity)} --from-file values.json`)}`);
  return ExitCode.OK;
}


/** The top-level members of a document partner does not understand, for the table. */
function topLevel(raw: unknown): string[][] {
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const size = (v: unknown) => (Array.isArray(v) ? countOf(v.length, 'item') : isObj(v) ? countOf(Object.keys(v).length, 'member') : typeof v === 'string' ? `${v.length} chars` : '');
  if (!isObj(raw)) return [['(document)', typeOf(raw), size(raw)]];
  return Object.entries(raw).slice(0, 200).map(([k, v]) => [k, typeOf(v), size(v)]);
}
