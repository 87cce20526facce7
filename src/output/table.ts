import Table from 'cli-table3';
import { sanitizeCell } from './sanitize.js';

export interface Column {
  /** Dot path into the item, also the header when none is given. */
  key: string;
  header?: string;
  /** Computes the cell instead of reading `key` (pending documents as "2: A, B"). */
  value?: (item: unknown) => unknown;
}

/** Text of a value in a table cell: null as a dash, arrays joined, objects as compact JSON. */
export function displayText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Renders rows as a table. On a terminal the widest columns are truncated so
 * the table fits its width; when piped, values are complete.
 */
export function renderTable(headers: string[], rows: string[][], opts: { columns?: number; color?: boolean }): string {
  const cells = rows.map((r) => r.map(sanitizeCell));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => [...r[i]].length)));
  if (opts.columns) fitWidths(widths, opts.columns);
  const table = new Table({
    head: headers,
    colWidths: widths.map((w) => w + 2),
    wordWrap: false,
    truncate: '…',
    style: { head: opts.color ? ['bold'] : [], border: opts.color ? ['grey'] : [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const r of cells) table.push(r);
  return `${table.toString()}\n`;
}

function fitWidths(widths: number[], columns: number): void {
  // Borders take one character per column plus one, padding two per column.
  const budget = columns - (widths.length * 3 + 1);
  const minWidth = 6;
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const i = widths.indexOf(Math.max(...widths));
    if (widths[i] <= minWidth) break;
    widths[i] -= 1;
  }
}

/** A key/value block for one record, nested values indented as sub-blocks. */
export function renderKeyValue(value: unknown, indent = 0, mask?: (path: string, v: unknown) => unknown, path = ''): string {
  const pad = '  '.repeat(indent);
  if (value === null || value === undefined || typeof value !== 'object') return `${pad}${sanitizeCell(displayText(value))}\n`;
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i + 1}]`, v, String(i)] as const) : Object.entries(value).map(([k, v]) => [k, v, k] as const);
  if (entries.length === 0) return `${pad}-\n`;
  const width = Math.max(...entries.map(([k]) => k.length));
  let out = '';
  for (const [label, raw, key] of entries) {
    const childPath = path ? `${path}.${key}` : key;
    const v = mask ? mask(childPath, raw) : raw;
    if (v !== null && typeof v === 'object' && !(Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))) {
      out += `${pad}${sanitizeCell(label)}:\n${renderKeyValue(v, indent + 1, mask, childPath)}`;
    } else {
      out += `${pad}${sanitizeCell(label).padEnd(width)}  ${sanitizeCell(displayText(v))}\n`;
    }
  }
  return out;
}
