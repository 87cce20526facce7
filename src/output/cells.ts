// Width of text in terminal cells (wide CJK characters take two, combining
// marks none, emoji sequences two), measured by grapheme cluster (string-width
// for each cluster), and cutting to a width without splitting a grapheme. The
// one measure of tables and key/value blocks: layout, cutting and padding.
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { checkDepth } from './depth.js';

/**
 * Text of one cell per character: printable ASCII, Latin-1 (no soft hyphen)
 * and Latin Extended-A/B, none of them wide or combining: the codes, dates and
 * most names of a table. Measured by their length, without string-width's
 * grapheme segmenter and emoji tables, whose first use alone costs 70-80 ms.
 */
const NARROW = /^[\x20-\x7e\xa0-\xac\xae-\u024f]*$/;

/** Terminal cells the text takes (ANSI colour codes take none), by grapheme cluster. */
export function cellWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes().segment(text.includes('\u001b') ? stripVTControlCharacters(text) : text)) width += clusterWidth(segment);
  return width;
}

let segmenter: Intl.Segmenter | undefined;
/** Made on first use: its set-up is part of what a table of narrow text never pays. */
const graphemes = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

// Two letters or more in one cluster: since Unicode 15.1 an Indic conjunct (consonant, virama,
// consonant: "स्ते") is one grapheme, but terminals draw each consonant and spacing vowel sign
// in a cell of its own (wcwidth), while string-width counts the first letter only. Hangul jamo
// (leading + vowel) do make one syllable of two cells: string-width knows them.
const CONJUNCT = /\p{L}[^]*\p{L}/u;
const HANGUL = /\p{Script=Hangul}/u;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** Cells of one grapheme cluster: emoji sequences and most clusters as string-width says; conjuncts by code point. */
function clusterWidth(cluster: string): number {
  if (cluster.length === 1 || !CONJUNCT.test(cluster) || HANGUL.test(cluster) || EMOJI.test(cluster)) return stringWidth(cluster);
  let width = 0;
  for (const cp of cluster) width += stringWidth(cp);
  return width;
}

/** The text cut to `width` cells with a trailing `…` when it is wider; whole graphemes only. */
export function truncateCell(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (NARROW.test(text)) return `${text.slice(0, width - 1)}…`;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes().segment(text)) {
    const w = clusterWidth(segment);
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
