// Width of text in terminal cells (wide CJK characters take two, combining
// marks none, emoji sequences two), measured by grapheme cluster (string-width
// for each cluster), and cutting to a width without splitting a grapheme. The
// one measure of tables and key/value blocks: layout, cutting, padding and
// wrapping (wrapCells, below).
import { stripVTControlCharacters } from 'node:util';
import { eastAsianWidth } from 'get-east-asian-width';
import stringWidth from 'string-width';
import { checkDepth } from './depth.js';
import { isScalar } from '../json/lossless-number.js';
import { stringifyExact } from '../json/stringify-exact.js';

/**
 * Text of one cell per character: printable ASCII, Latin-1 (no soft hyphen)
 * and Latin Extended-A/B, none of them wide or combining: the codes, dates and
 * most names of a table. Measured by their length, without string-width's
 * grapheme segmenter and emoji tables, whose first use alone costs 70-80 ms.
 */
const NARROW = /^[\x20-\x7e\xa0-\xac\xae-\u024f]*$/;

/**
 * A character that may join its neighbours into one grapheme, or whose width
 * is not its East Asian width: marks (combining, spacing, enclosing), controls
 * and format characters (ZWJ, colour codes' ESC), default-ignorables
 * (variation selectors, fillers), emoji and their parts, Hangul (jamo join
 * into syllables), lone surrogates, and the few letters that join as
 * Unicode's Prepend (U+0D4E …) or SpacingMark (Thai and Lao AM) or extend
 * (halfwidth katakana sound marks). Text with none of them is one grapheme a
 * code point (test/unit/output/cells.test.ts checks every assigned code point
 * against the segmenter), so it is measured code point by code point, without
 * the segmenter and string-width's emoji tables, whose set-up alone costs
 * about 100 ms: the first page of a list (names in CJK, ↵ for a newline) no
 * longer pays it. Made on first use (its own set-up is about 1 ms).
 */
let joining: RegExp | undefined;
const JOINING = () =>
  (joining ??=
    /[\p{M}\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\p{Script=Hangul}\p{Surrogate}\u0D4E\u0E33\u0EB3\uFF9E\uFF9F\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u{113D1}\u{16D63}\u{16D67}-\u{16D6A}]/u);

/** True when every code point of `text` is a grapheme of its own, as wide as its East Asian width. */
export function oneClusterACodePoint(text: string): boolean {
  return NARROW.test(text) || !JOINING().test(text);
}

/** Cells of one code point of such text: two for wide and fullwidth, else one (ambiguous ones narrow, as string-width). */
const codePointWidth = (ch: string): number => (ch.charCodeAt(0) < 0x1100 ? 1 : eastAsianWidth(ch.codePointAt(0)!));

/** Terminal cells the text takes (ANSI colour codes take none), by grapheme cluster. */
export function cellWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let width = 0;
  if (!JOINING().test(text)) {
    for (const ch of text) width += codePointWidth(ch);
    return width;
  }
  for (const { segment } of graphemes().segment(text.includes('\u001b') ? stripVTControlCharacters(text) : text)) width += clusterWidth(segment);
  return width;
}

let segmenter: Intl.Segmenter | undefined;
/** Made on first use: its set-up (about 20 ms) is part of what a table of simple text never pays. */
const graphemes = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

/** The grapheme clusters of `text`: its code points when each is one (no segmenter), else as the segmenter says. */
function* clustersOf(text: string): Generator<string> {
  if (oneClusterACodePoint(text)) yield* text;
  else for (const { segment } of graphemes().segment(text)) yield segment;
}

// Two letters or more in one cluster: since Unicode 15.1 an Indic conjunct (consonant, virama,
// consonant: "स्ते") is one grapheme, but terminals draw each consonant and spacing vowel sign
// in a cell of its own (wcwidth), while string-width counts the first letter only. Hangul jamo
// (leading + vowel) do make one syllable of two cells: string-width knows them.
const CONJUNCT = /\p{L}[^]*\p{L}/u;
const HANGUL = /\p{Script=Hangul}/u;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/**
 * Widths of the clusters met so far: string-width re-segments and runs its
 * regular expressions on every call (about 20 µs a cluster), and text repeats
 * its clusters. Short clusters only, emptied when full: hostile text cannot grow it.
 */
const known = new Map<string, number>();

/** Cells of one grapheme cluster: emoji sequences and most clusters as string-width says; conjuncts by code point. */
function clusterWidth(cluster: string): number {
  if (cluster.length <= 2 && !JOINING().test(cluster)) return codePointWidth(cluster);
  // A cluster of hundreds of combining marks is measured, not kept.
  if (cluster.length > 16) return measureCluster(cluster);
  let width = known.get(cluster);
  if (width === undefined) {
    if (known.size >= 4096) known.clear();
    known.set(cluster, (width = measureCluster(cluster)));
  }
  return width;
}

function measureCluster(cluster: string): number {
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
  for (const segment of clustersOf(text)) {
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
  // A LosslessNumber is shown as the server sent it (its toString).
  if (isScalar(value)) return String(value);
  checkDepth(value, path);
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map((v) => (isScalar(v) ? String(v) : stringifyExact(v))).join(', ');
  return stringifyExact(value);
}

// Line breaking by display width (tables' wrapped columns, key/value values).
// Between words at spaces; East Asian text (and emoji) between any two wide
// graphemes, as CJK typesetting does, except before closing punctuation and
// small kana or after opening punctuation (kinsoku); never inside a grapheme,
// nor inside a URL (a word with a scheme or www.), which moves whole.
const SGR_CODE = /\u001b\[[0-9;]*m/g;
const URL_WORD = /^(?:\u001b\[[0-9;]*m)*(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i;
const NO_BREAK_BEFORE = /^[\u3001\u3002\uff0c\uff0e\u30fb\uff1a\uff1b\uff1f\uff01\u30fc\u301c\uff09\u3015\uff3d\uff5d\u3009\u300b\u300d\u300f\u3011\u3019\u3017\u301f\u309d\u309e\u3005\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u308e\u3095\u3096\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u30ee\u30f5\u30f6\u31f0-\u31ff,.;:!?)\]}\u2019\u201d%]/u;
const NO_BREAK_AFTER = /[\uff08\u3014\uff3b\uff5b\u3008\u300a\u300c\u300e\u3010\u3018\u3016\u301d(\[{\u2018\u201c]$/u;
/** Where a word too long for its line is best broken: after one of these. */
const SOFT_BREAK = /[-/_.=,;:&?]$/;

interface Piece {
  text: string;
  width: number;
}

/** Graphemes of `text` with their widths; colour codes are zero-width pieces of their own. (A generator: a 16 MiB value is never an array of objects.) */
function* piecesOf(text: string): Generator<Piece> {
  let at = 0;
  function* run(part: string): Generator<Piece> {
    if (NARROW.test(part)) for (const ch of part) yield { text: ch, width: 1 };
    else for (const segment of clustersOf(part)) yield { text: segment, width: clusterWidth(segment) };
  }
  for (const m of text.matchAll(SGR_CODE)) {
    yield* run(text.slice(at, m.index));
    yield { text: m[0], width: 0 };
    at = m.index + m[0].length;
  }
  yield* run(text.slice(at));
}

/** A word split where East Asian text may break: before and after each wide grapheme, kinsoku kept. */
function* breakableParts(word: string): Generator<Piece> {
  if (NARROW.test(word) || URL_WORD.test(word)) {
    yield { text: word, width: cellWidth(word) };
    return;
  }
  let cur: Piece = { text: '', width: 0 };
  let prevWide = false;
  for (const p of piecesOf(word)) {
    const wide = p.width === 2;
    if (cur.width > 0 && (wide || prevWide) && !NO_BREAK_BEFORE.test(p.text) && !NO_BREAK_AFTER.test(cur.text)) {
      yield cur;
      cur = { text: '', width: 0 };
    }
    cur.text += p.text;
    cur.width += p.width;
    if (p.width > 0) prevWide = wide;
  }
  if (cur.text !== '') yield cur;
}

/** A word wider than `width` in lines of at most `width` cells, whole graphemes, preferably after a hyphen or slash. */
function breakWord(word: string, width: number): string[] {
  const lines: string[] = [];
  let cur: Piece[] = [];
  let used = 0;
  for (const p of piecesOf(word)) {
    if (used + p.width > width && used > 0) {
      // Back up to the last soft break past the first third of the line, when there is one.
      let cut = cur.length;
      for (let i = cur.length - 1, w = used; i > 0 && w > width / 3; w -= cur[i]!.width, i--) {
        if (SOFT_BREAK.test(cur[i]!.text)) {
          cut = i + 1;
          break;
        }
      }
      lines.push(cur.slice(0, cut).map((x) => x.text).join(''));
      cur = cur.slice(cut);
      used = cur.reduce((a, x) => a + x.width, 0);
    }
    cur.push(p);
    used += p.width;
  }
  lines.push(cur.map((x) => x.text).join(''));
  return lines;
}

export interface WrapCellsOptions {
  /**
   * A word wider than `width`: broken into pieces that fit (a table column),
   * or on a line of its own, whole (a value people copy: a token, an IBAN).
   */
  breakWords?: boolean;
}

/**
 * `text` in lines of at most `width` terminal cells (one measure with
 * cellWidth). Spaces at a break are dropped; spacing between words on a line
 * is kept as written. Newlines in the text are kept as breaks.
 */
export function wrapCells(text: string, width: number, opts: WrapCellsOptions = {}): string[] {
  const w = Math.max(width, 2);
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    if (cellWidth(para) <= w) {
      lines.push(para.trimEnd());
      continue;
    }
    let line = '';
    let used = 0;
    let sep = '';
    for (const chunk of para.split(/( +)/)) {
      if (chunk === '') continue;
      if (chunk.startsWith(' ')) {
        sep = chunk;
        continue;
      }
      let first = true;
      for (const part of breakableParts(chunk)) {
        const gap = first ? sep : '';
        first = false;
        if (used > 0 && used + gap.length + part.width <= w) {
          line += gap + part.text;
          used += gap.length + part.width;
          continue;
        }
        if (used > 0) lines.push(line);
        if (part.width <= w || !opts.breakWords) {
          line = part.text;
          used = part.width;
          continue;
        }
        const pieces = breakWord(part.text, w);
        lines.push(...pieces.slice(0, -1));
        line = pieces.at(-1)!;
        used = cellWidth(line);
      }
      sep = '';
    }
    lines.push(line);
  }
  return lines;
}
