// One spreadsheet row -> the answers document, typed by the schema like
// --set values, then checked like --from-file: every problem of every row
// listed by row and column, no cell value ever repeated (cells may be secret).
import { fillFixed, validateSections } from '../inputs.js';
import { setAt } from '../paths.js';
import type { FormSchema } from '../schema.js';
import { coerce, schemasAt } from '../values.js';
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

export function rowDoc(form: FormSchema, columns: string[], row: CsvRow): { doc: Record<string, unknown>; issues: RowIssue[] } {
  const doc: Record<string, unknown> = {};
  const issues: RowIssue[] = [];
  columns.forEach((column, i) => {
    const text = (row.cells[i] ?? '').trim();
    if (text === '') return;
    const path = column.split('.');
    const c = coerce(form, path, text);
    // Named by the field's title, like the validator's messages.
    if ('error' in c) issues.push({ row: row.row, column, message: `${titleAt(form, column)} ${c.error}` });
    else setAt(doc, path, c.value);
  });
  const sections = form.sections.map((s) => s.key);
  fillFixed(form, doc, sections);
  // A cell that could not be read is one problem, not also "is required".
  const unreadable = new Set(issues.map((i) => i.column));
  for (const i of validateSections(form, doc, sections)) if (!unreadable.has(i.path)) issues.push({ row: row.row, column: i.path, message: i.text });
  return { doc, issues };
}
