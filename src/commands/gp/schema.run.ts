import type { Context } from '../../context.js';
import { getFormSchema } from '../../api/employees.js';
import type { OptionsOf } from '../../command.js';
import type { schema } from './schema.js';
import { writeRecord } from '../../output/writer.js';
import { layoutTable, renderTable, type Column, type TableLayout } from '../../output/table.js';
import { cellWidth } from '../../output/cells.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { colors, type Colors } from '../../output/colors.js';
import { wrapMessage } from '../../text/wrap.js';
import { FormFormatError, isObj, type FormSchema } from '../../forms/schema.js';
import { outlineParts, type OutlinePartsRow } from '../../forms/outline.js';
import { loadServerForm } from '../../forms/load.js';
import { ExitCode } from '../../errors.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { countOf } from '../../text/count.js';
import { partnerCommand, q, suggestion } from '../../text/command-line.js';

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
  ctx.io.stdout.write(renderOutline(outlineParts(form), { columns: ctx.io.columns, color: ctx.io.color }));
  if (form.format === 'field-list') ctx.log.info('The server sent a field-definition list; it is shown as partner reads it (-o json prints it as sent).');
  ctx.log.info(`Values files nest fields under their section: {"${form.sections[0]?.key ?? 'section'}": {…}}. ${suggestion('Use with:', partnerCommand(ctx.globals, `gp create --entity ${q(opts.entity)} --from-file values.json`))}`);
  return ExitCode.OK;
}


/**
 * The outline as a table when every column has room for its longest token
 * (a regex, a choice value, a dot path: never split), else one field per
 * block: title, then key, kind, required and each detail on a line of its own.
 */
export function renderOutline(rows: OutlinePartsRow[], opts: { columns?: number; color: boolean }): string {
  const cells = rows.map((r) => [r.field, r.title, r.kind, r.required, r.details].map(sanitizeCell));
  const table = { columns: opts.columns, color: opts.color, fullOutput: '-o json' };
  // A pattern may hold a space: it is one token all the same.
  const patterns = rows.map((r) => Math.max(0, ...r.parts.filter((p) => p.startsWith('pattern ')).map((p) => cellWidth(sanitizeCell(p.slice(8))))));
  const longest = SCHEMA_COLUMNS.map((_, col) => Math.max(0, ...cells.map((row, i) => Math.max(longestWord(row[col]!), col === 4 ? patterns[i]! : 0))));
  // A short column gives room up only down to its longest word (a condition's dot path, a kind's note).
  const columns = SCHEMA_COLUMNS.map((col, i) => (col.maxWidth === undefined ? col : { ...col, maxWidth: Math.max(col.maxWidth, longest[i]!) }));
  const layout = layoutTable(columns, cells, table);
  if (!layout.fit || tokensFit(layout, longest)) return renderTable(columns, cells, table);
  return renderBlocks(rows, opts.columns!, colors(opts.color));
}

function longestWord(text: string): number {
  return Math.max(0, ...text.split(/\s+/).map(cellWidth));
}

/** Every column is shown, and none is narrower than its longest word (wrapping breaks only between words). */
function tokensFit(layout: TableLayout, longest: number[]): boolean {
  return layout.hidden.length === 0 && layout.shown.every((col, k) => longest[col]! <= layout.widths[k]!);
}

const BLOCK_LABEL = 12;

function renderBlocks(rows: OutlinePartsRow[], width: number, c: Colors): string {
  const line = (label: string, value: string) => wrapMessage(`  ${c.dim(label.padEnd(BLOCK_LABEL))}${sanitizeCell(value)}`, width, ' '.repeat(BLOCK_LABEL));
  const blocks = rows.map((r) => {
    const lines = [c.bold(sanitizeCell(r.title)), line('key', r.field), line('kind', r.kind), line('required', r.required)];
    // A detail is "label value" (pattern ^[A-Z]+$, one of: A, B): the label in the column, the value beside it.
    for (const part of r.parts) {
      const m = /^(one of:|format|pattern|>=|>|<=|<|min length|max length|min items|max items|default) (.*)$/s.exec(part);
      // A pattern is one token even where it holds a space: never wrapped.
      if (m?.[1] === 'pattern') lines.push(`  ${c.dim('pattern'.padEnd(BLOCK_LABEL))}${sanitizeCell(m[2]!)}`);
      else lines.push(m ? line(m[1]!.replace(/:$/, ''), m[2]!) : part === 'secret' ? line('secret', 'yes') : line('about', part));
    }
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

/** The top-level members of a document partner does not understand, for the table. */
function topLevel(raw: unknown): string[][] {
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const size = (v: unknown) => (Array.isArray(v) ? countOf(v.length, 'item') : isObj(v) ? countOf(Object.keys(v).length, 'member') : typeof v === 'string' ? `${v.length} chars` : '');
  if (!isObj(raw)) return [['(document)', typeOf(raw), size(raw)]];
  return Object.entries(raw).slice(0, 200).map(([k, v]) => [k, typeOf(v), size(v)]);
}
