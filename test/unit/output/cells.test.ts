// The fast path of cellWidth (src/output/cells.ts): text in which no character
// joins another is measured code point by code point, without the grapheme
// segmenter and string-width. Checked here against both, for every assigned
// code point, so that the shortcut can never measure differently.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, oneClusterACodePoint, truncateCell, wrapCells } from '../../../src/output/cells.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const clusters = (text: string) => [...graphemes.segment(text)].map((s) => s.segment);
const UNASSIGNED = /^\p{Cn}$/u;

describe('text measured code point by code point', () => {
  it('holds only code points that never join a neighbour, each as wide as string-width says', () => {
    const simple: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!UNASSIGNED.test(c) && oneClusterACodePoint(c)) simple.push(c);
    }
    // Most of Unicode's letters and symbols: CJK ideographs, kana, Greek, Cyrillic, arrows …
    expect(simple.length).toBeGreaterThan(250_000);
    const joined: string[] = [];
    const widths: string[] = [];
    const hex = (c: string) => c.codePointAt(0)!.toString(16);
    // In batches (one segmenter and string-width call for 16 code points: the segmenter slows down on long text); a batch that differs is looked at one by one.
    for (let i = 0; i < simple.length; i += 16) {
      const batch = simple.slice(i, i + 16);
      // Each between a letter and itself: a Prepend, Extend, SpacingMark or joiner would make fewer clusters.
      if (clusters(batch.map((c) => `a${c}${c}`).join('')).length !== batch.length * 3) joined.push(...batch.filter((c) => clusters(`a${c}${c}a`).length !== 4).map(hex));
      if (cellWidth(batch.join('')) !== stringWidth(batch.join(''))) widths.push(...batch.filter((c) => cellWidth(c) !== stringWidth(c)).map((c) => `${hex(c)}: ${cellWidth(c)} vs ${stringWidth(c)}`));
    }
    expect(joined).toEqual([]);
    expect(widths).toEqual([]);
  });

  it.each([
    ['e\u0301', 'a combining mark'],
    ['👍', 'an emoji'],
    ['\u1100\u1161', 'Hangul jamo'],
    ['a\u200db', 'a joiner'],
    ['\u0e01\u0e33', 'Thai SARA AM (a spacing mark that is a letter)'],
    ['\u0d4e\u0d15', 'Malayalam dot reph (a prepended letter)'],
    ['\uff76\uff9e', 'a halfwidth katakana sound mark'],
    ['\u{1f1e9}\u{1f1ea}', 'a flag'],
    ['a\u001b[31mb', 'a colour code'],
  ])('not %j (%s)', (text) => {
    expect(oneClusterACodePoint(text)).toBe(false);
  });

  it('measures, cuts and wraps such text as the segmenter would', () => {
    expect(oneClusterACodePoint('小龙 李 ↵ Ωμέγα')).toBe(true);
    expect(cellWidth('小龙 李 ↵ Ωμέγα')).toBe(2 + 2 + 1 + 2 + 1 + 1 + 1 + 5);
    expect(truncateCell('小龙李张', 6)).toBe('小龙…');
    expect(truncateCell('小龙李张', 5)).toBe('小龙…');
    expect(truncateCell('Ωμέγα↵', 4)).toBe('Ωμέ…');
    expect(wrapCells('小龙李张王', 4, { breakWords: true })).toEqual(['小龙', '李张', '王']);
  });
});
