import type { Context } from '../../context.js';
import { getFormSchema } from '../../api/employees.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { OptionsOf } from '../../command.js';
import type { template } from './template.js';
import { csvRecord } from '../../output/csv.js';
import { writeChunk } from '../../output/stream.js';
import { csvStart, writeRecord } from '../../output/writer.js';
import { loadServerForm } from '../../forms/load.js';
import { merge } from '../../forms/questions.js';
import type { FormSchema } from '../../forms/schema.js';
import { schemasAt } from '../../forms/values.js';
import { outline, type OutlineRow } from '../../forms/outline.js';

export type TemplateOptions = OptionsOf<typeof template>;

export interface TemplateColumn {
  column: string;
  description: string;
}

/** How a cell of the CSV template is written (a cell is text: rows.ts reads "yes" as true, "a, b" as a list). */
const CSV_HINT: Record<string, string> = {
  date: 'YYYY-MM-DD',
  boolean: 'yes or no',
  multiselect: 'comma-separated',
  list: 'comma-separated',
  secret: 'never shown',
  json: 'JSON',
};

/**
 * How a value of the JSON skeleton (`--values`) is written: the JSON that
 * the values file's check accepts (a boolean is true or false, never "yes";
 * a number is a JSON number; a list is a JSON list), so that a skeleton
 * filled as its placeholders say is accepted.
 */
export const JSON_HINT: Record<string, string> = {
  date: 'a string "YYYY-MM-DD"',
  boolean: 'true or false',
  multiselect: 'a JSON list of values from the choices',
  list: 'a JSON list',
  number: 'a JSON number',
  integer: 'a JSON whole number',
  email: 'a string, an e-mail address',
  text: 'a string',
  textarea: 'a string',
  secret: 'never shown',
  json: 'JSON',
};

/** One field in words: title, required or not, kind, how to write it (`hints`: the CSV template's, or JSON_HINT), and its details (choices, pattern, bounds). */
export function describeField(r: OutlineRow, hints: Record<string, string> = CSV_HINT): string {
  const HINT = hints;
  const req = r.required === 'yes' ? 'required' : r.required.startsWith('yes, ') ? `required ${r.required.slice(5)}` : r.required.startsWith('no, ') ? `optional, ${r.required.slice(4)}` : 'optional';
  const details = r.details.replace(/(^|; )secret(?=;|$)/, '');
  const parts = [req, r.kind, HINT[r.kind], details.replace(/^; /, '')].filter((p): p is string => Boolean(p));
  return `${r.title}: ${parts.join('; ')}`.slice(0, 300);
}

/** How many entries of a list get columns: at least minItems, 2 by default, at most maxItems (more can be added by hand). */
function entries(form: FormSchema, path: string): number {
  const s = merge(form, schemasAt(form, path.split('.')));
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  return Math.max(1, Math.min(Math.max(min, 2), max, 10));
}

/** Every field of the form as a column (dot paths; list entries numbered from 0), in form order. */
export function templateColumns(form: FormSchema): TemplateColumn[] {
  const rows = outline(form);
  const out: TemplateColumn[] = [];
  const counts = new Map<string, number>();
  for (const r of rows) {
    if (r.kind === 'object' || r.kind.startsWith('section')) continue;
    if (r.kind === 'group') {
      counts.set(r.field, entries(form, r.field));
      continue;
    }
    // Paths inside lists carry "N" for the entry number.
    let paths = [r.field];
    while (paths.some((p) => /(^|\.)N(\.|$)/.test(p))) {
      paths = paths.flatMap((p) => {
        const m = /^(.*?)\.N(\.|$)/.exec(p);
        if (!m) return [p];
        const n = counts.get(m[1]) ?? 2;
        return Array.from({ length: n }, (_, i) => p.replace(`${m[1]}.N`, `${m[1]}.${i}`));
      });
    }
    for (const p of paths) out.push({ column: p, description: describeField(r) });
  }
  return byEntry(out);
}

/** The columns of each list entry together: nominees.0.name, nominees.0.share, nominees.1.name, … */
function byEntry(columns: TemplateColumn[]): TemplateColumn[] {
  const entry = (c: string) => /^(.*?)\.(\d+)(\.|$)/.exec(c);
  const keyed = columns.map((c, i) => {
    const m = entry(c.column);
    return { c, i, group: m?.[1], n: m ? Number(m[2]) : 0 };
  });
  const first = new Map<string, number>();
  for (const k of keyed) if (k.group !== undefined && !first.has(k.group)) first.set(k.group, k.i);
  return keyed
    .sort((a, b) => {
      const pa = a.group !== undefined ? first.get(a.group)! : a.i;
      const pb = b.group !== undefined ? first.get(b.group)! : b.i;
      return pa - pb || a.n - b.n || a.i - b.i;
    })
    .map((k) => k.c);
}

export async function run(opts: TemplateOptions, ctx: Context): Promise<number> {
  const http = await ctx.http();
  const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: opts.entity }), ctx.log);
  if (opts.values) {
    if (opts.out.chosen && opts.out.format === 'csv') throw new UsageError('--values writes JSON, not CSV', 'Leave out -o csv, or leave out --values for the CSV template.', 'INVALID_OPTION');
    const { valuesSkeleton } = await import('./template-values.js');
    await writeRecord(ctx.io, ctx.io.stdout, valuesSkeleton(form, opts.entity), { ...opts.out, format: 'json' });
    ctx.log.info(`Replace each "<fill in: …>" you need (a placeholder left in is a field not given), then: partner gp create --entity "${opts.entity}" --from-file FILE`);
    return ExitCode.OK;
  }
  const columns = templateColumns(form);
  if (opts.out.format === 'json') {
    await writeRecord(ctx.io, ctx.io.stdout, columns, opts.out);
    return ExitCode.OK;
  }
  // The description row starts with "#": --from-csv skips it, so the file can be filled in as it is.
  const descriptions = columns.map((c, i) => (i === 0 ? `# ${c.description}` : c.description));
  // Titles and keys come from the server: formulas neutralised (unless --csv-raw), escapes kept off a terminal.
  const cells = { raw: opts.out.csvRaw, terminal: ctx.io.stdoutIsTTY };
  await writeChunk(ctx.io.stdout, csvStart(ctx.io, ctx.io.stdout, opts.out) + csvRecord(columns.map((c) => c.column), cells) + csvRecord(descriptions, cells));
  ctx.log.info(`${columns.length} columns. Fill one row per employee, then: partner gp create --entity "${opts.entity}" --from-csv FILE`);
  return ExitCode.OK;
}
