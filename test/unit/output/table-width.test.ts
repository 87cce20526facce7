// Tables are written from the layout with one width measure (cells.ts): every
// cell checked here against an independent measure of what a terminal draws,
// wcwidth-like (per code point: marks and format characters none, East Asian
// wide two, others one; an emoji cluster two), not string-width.
import { eastAsianWidth } from 'get-east-asian-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, truncateCell } from '../../../src/output/cells.js';
import { renderTable, type Column } from '../../../src/output/table.js';
import { sanitizeCell } from '../../../src/text/sanitize.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
function terminalWidth(text: string): number {
  let w = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (/\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(segment)) {
      w += 2;
      continue;
    }
    for (const ch of segment) {
      if (/[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]/u.test(ch)) continue;
      w += eastAsianWidth(ch.codePointAt(0)!) === 2 ? 2 : 1;
    }
  }
  return w;
}

const SAMPLES = {
  cjk: '山田太郎 김민준 やまだ',
  emoji: '🎉 party 👍🏽',
  unicode14: '🫠🫶🪿 melting',
  zwj: '👨‍👩‍👧 family',
  thai: 'สมชาย กี่ครั้ง',
  devanagari: 'नमस्ते हिन्दी क्षत्रिय',
  arabic: 'مُحَمَّد',
  hebrew: 'שָׁלוֹם',
  latin: 'José Müller Łódź',
  flags: '🇮🇳🇩🇪',
};

describe('one width measure, by grapheme cluster', () => {
  it.each(Object.entries(SAMPLES))('%s: the measure agrees with the terminal', (_, raw) => {
    const text = sanitizeCell(raw);
    expect(cellWidth(text)).toBe(terminalWidth(text));
  });

  it('cuts whole graphemes only, never wider than asked, with …', () => {
    for (const raw of Object.values(SAMPLES)) {
      const text = sanitizeCell(raw);
      for (let width = 1; width < cellWidth(text); width++) {
        const cut = truncateCell(text, width);
        expect(cut.endsWith('…')).toBe(true);
        expect(terminalWidth(cut)).toBeLessThanOrEqual(width);
        // A prefix of whole graphemes: the segments of the cut are segments of the text.
        const kept = [...segmenter.segment(cut.slice(0, -1))].map((s) => s.segment);
        expect([...segmenter.segment(text)].map((s) => s.segment).slice(0, kept.length)).toEqual(kept);
      }
    }
  });

  it('ANSI colour codes take no cells', () => {
    expect(cellWidth('\u001b[32m山田\u001b[39m')).toBe(4);
  });
});

describe('tables of international text', () => {
  const columns: Column[] = [
    { key: 'code', header: 'CODE', kind: 'key' },
    { key: 'name', header: 'NAME' },
    { key: 'title', header: 'TITLE' },
    { key: 'tag', header: 'TAG', kind: 'short' },
  ];
  const rows = Object.entries(SAMPLES).map(([k, v], i) => [`ACME-LONG-CODE-${String(i).padStart(5, '0')}`, `${v} ${v}`, `${v} — ${k}`, `T${i}`]);

  it.each([120, 80, 60])('at %i columns: every line fits, columns line up, key and short cells whole', (columns80) => {
    const lines = renderTable(columns, rows, { columns: columns80 }).trimEnd().split('\n');
    const header = lines[0]!;
    const tagAt = terminalWidth(header.slice(0, header.indexOf('TAG')));
    lines.slice(1).forEach((line, i) => {
      expect(terminalWidth(line), line).toBeLessThanOrEqual(columns80);
      expect(line.startsWith(`${rows[i]![0]}  `)).toBe(true);
      expect(line.endsWith(`  T${i}`)).toBe(true);
      expect(terminalWidth(line.slice(0, line.lastIndexOf(`  T${i}`) + 2)), line).toBe(tagAt);
    });
  });

  it('without a terminal: complete values, aligned by the same measure', () => {
    const lines = renderTable(columns, rows, {}).trimEnd().split('\n');
    const tagAt = terminalWidth(lines[0]!.slice(0, lines[0]!.indexOf('TAG')));
    lines.slice(1).forEach((line, i) => {
      expect(line).toContain(sanitizeCell(rows[i]![1]!));
      expect(terminalWidth(line.slice(0, line.lastIndexOf(`  T${i}`) + 2))).toBe(tagAt);
    });
  });
});
