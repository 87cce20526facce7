// One spreadsheet row -> the answers document, typed by the schema like
// --set values, then checked like --from-file: every problem of every row
// listed by row and column, no cell value ever repeated (cells may be secret).
import { fillFixed, validateSections } from '../inputs.js';
import { setAt } from '../paths.js';
import { merge } from '../questions.js';
import type { FormSchema, JsonSchema } from '../schema.js';
import { coerce, schemasAt, toValue } from '../values.js';
import { titleAt } from '../validate.js';
import type { CsvRow } from './read.js';

export interface RowIssue {
  row: number;
  column: string;
  message: string;
}

/** Header columns that are not fields of the form (unknown to every branch of the schema). */
export function unknownColumns(form: FormSchema, columns: string[]): string[] {
  return columns.filter((c) => !/^[^.\s]+(\.[^.\s]+)*$/.test(c) || schemasAt(form, c.split('.')).length === 0);
}

/** A column read against the form: its path, and the merged schema that types its cells (undefined: not in the schema). */
interface Column {
  name: string;
  path: string[];
  schema?: JsonSchema;
}

/**
 * The columns of a sheet worked out once per form (as `coerce` would for
 * every cell: the schemas at the path, merged), not once per cell of every
 * row (about a sixth of a row's check; a run reads each row twice).
 */
const prepared = new WeakMap<string[], { form: FormSchema; columns: Column[] }>();

function columnsOf(form: FormSchema, columns: string[]): Column[] {
  const hit = prepared.get(columns);
  if (hit && hit.form === form) return hit.columns;
  const list = columns.map((name) => {
    const path = name.split('.');
    const schemas = schemasAt(form, path);
    return { name, path, schema: schemas.length ? merge(form, schemas) : undefined };
  });
  prepared.set(columns, { form, columns: list });
  return list;
}

/**
 * A row with more cells than the header has columns: a cell with no column
 * would be dropped without a word (a comma too many, a value typed beyond the
 * last column, a column whose name was deleted), so the row is refused.
 * Empty cells past the last column carry nothing and are read as such (a
 * spreadsheet writes them when another row, or a formatted cell, reached
 * further).
 */
function extraCells(columns: string[], row: CsvRow): RowIssue | undefined {
  const n = row.cells.length;
  if (n <= columns.length || row.cells.slice(columns.length).every((c) => c.trim() === '')) return undefined;
  const first = columns.length + 1;
  return {
    row: row.row,
    column: n === first ? `cell ${first}` : `cells ${first}–${n}`,
    message: `the row has ${n} cells but the header names ${columns.length} columns: a cell past the last column is not read; remove it, or name its column in the header`,
  };
}

/**
 * The answers of a row, its fixed values filled in, and (unless `check` is
 * false) every problem with them. The send pass reads again rows the check
 * pass found valid: the same bytes give the same answers, so it skips the checks.
 */
export function rowDoc(form: FormSchema, columns: string[], row: CsvRow, { check = true } = {}): { doc: Record<string, unknown>; issues: RowIssue[] } {
  const doc: Record<string, unknown> = {};
  const issues: RowIssue[] = [];
  const extra = extraCells(columns, row);
  if (extra) issues.push(extra);
  const cols = columnsOf(form, columns);
  for (let i = 0; i < cols.length; i++) {
    const text = (row.cells[i] ?? '').trim();
    if (text === '') continue;
    const { name, path, schema } = cols[i];
    // The same conversion as coerce(form, path, text), with the column's schema worked out once.
    let c: { value: unknown } | { error: string };
    if (schema) {
      const v = toValue(form, schema, text);
      c = v.ok ? { value: v.value } : { error: v.message };
    } else c = coerce(form, path, text);
    // Named by the field's title, like the validator's messages.
    if ('error' in c) issues.push({ row: row.row, column: name, message: `${titleAt(form, name)} ${c.error}` });
    else setAt(doc, path, c.value);
  }
  const sections = form.sections.map((s) => s.key);
  fillFixed(form, doc, sections);
  if (!check) return { doc, issues };
  // A cell that could not be read is one problem, not also "is required".
  const unreadable = new Set(issues.map((i) => i.column));
  for (const i of validateSections(form, doc, sections)) if (!unreadable.has(i.path)) issues.push({ row: row.row, column: i.path, message: i.text });
  return { doc, issues };
}
