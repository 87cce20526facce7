// Width of text in terminal cells (wide CJK characters take two, combining
// marks none, emoji sequences two), measured by string-width, and cutting to
// a width without splitting a grapheme.
import stringWidth from 'string-width';
import { checkDepth } from './depth.js';

/** Terminal cells the text takes (ANSI colour codes take none). */
export function cellWidth(text: string): number {
  return stringWidth(text);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text cut to `width` cells with a trailing `…` when it is wider; whole graphemes only. */
export function truncateCell(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = cellWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** `painted` (the text, maybe with colour codes) followed by spaces up to `width` cells of `text`. */
export function padCell(painted: string, text: string, width: number): string {
  return painted + ' '.repeat(Math.max(0, width - cellWidth(text)));
}

/**
 * Text of a value in a table cell: null as a dash, arrays joined, objects as
 * compact JSON. `path` names the value in the error for one nested too deeply.
 */
export function displayText(value: unknown, path = ''): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value !== 'object') return String(value);
  checkDepth(value, path);
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', ');
  return JSON.stringify(value);
}
