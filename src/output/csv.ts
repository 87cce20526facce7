import { neutraliseFormula } from './sanitize.js';

/** A value as CSV cell text: arrays of scalars joined with "; ", objects as JSON, null/undefined empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => (v === null ? '' : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One RFC 4180 record (CRLF-terminated). Formula-like strings are neutralised unless raw. */
export function csvRecord(values: unknown[], raw = false): string {
  return `${values.map((v) => csvCell(v, raw)).join(',')}\r\n`;
}

function csvCell(value: unknown, raw: boolean): string {
  let text = cellText(value);
  if (!raw && typeof value === 'string') text = neutraliseFormula(text);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
