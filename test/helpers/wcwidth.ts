// An independent measure of what a terminal draws, for tests of the output
// layer (never the production cells.ts, nor string-width or its tables):
// wcwidth by code point (Markus Kuhn's ranges of East Asian Wide and
// Fullwidth: two cells; combining and enclosing marks, format characters and
// Hangul medial and final jamo: none; others one), except that an emoji
// grapheme (emoji presentation, a VS16 sequence, a ZWJ sequence, a flag)
// takes two cells as modern terminals draw it.

const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];
const ZERO = /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Emoji}\ufe0f|\p{Regional_Indicator}{2}|\u200d\p{Extended_Pictographic}/u;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Cells one code point takes. */
export function wcwidth(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (ZERO.test(ch)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

/** Cells a line of text takes on a terminal (no escape sequences expected). */
export function wcswidth(text: string): number {
  let w = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment)) w += 2;
    else for (const ch of segment) w += wcwidth(ch.codePointAt(0)!);
  }
  return w;
}

/** The grapheme clusters of `text`. */
export function graphemesOf(text: string): string[] {
  return [...segmenter.segment(text)].map((s) => s.segment);
}

/** Graphemes starting at each cell boundary: the text of each column of `line`, or throws when a grapheme straddles one. */
export function sliceCells(line: string, starts: number[]): string[] {
  const cells = starts.map(() => '');
  let at = 0;
  for (const g of graphemesOf(line)) {
    const col = starts.findLastIndex((s) => s <= at);
    const next = starts[col + 1];
    if (next !== undefined && at < next && at + wcswidth(g) > next) throw new Error(`grapheme ${JSON.stringify(g)} straddles cell ${next} in ${JSON.stringify(line)}`);
    cells[col] += g;
    at += wcswidth(g);
  }
  return cells;
}
