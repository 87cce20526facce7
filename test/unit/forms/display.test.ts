// How answers and questions are shown: several lines on one line of the
// review and change list, secrets masked, money with its currency, titles
// with their hints, labels by titles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { allFields, type Field } from '../../../src/forms/questions.js';
import { cutLine, displayValue, labelOf, matchText, title } from '../../../src/forms/display.js';
import { cellWidth } from '../../../src/output/cells.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const form = loadSchema(JSON.parse(readFileSync(join(FIX, 'required-empty-2020.json'), 'utf8')));
const field = (id: string, doc: Record<string, unknown> = {}): Field => allFields(form, doc).find((f) => f.id === id)!;

describe('displayValue', () => {
  it('several lines become one: lines joined by ↵, the count given, cut at 60 characters', () => {
    const notes = field('profile.notes');
    expect(notes.kind).toBe('textarea');
    expect(displayValue(notes, 'Alpha\nBeta')).toBe('Alpha ↵ Beta (2 lines)');
    expect(displayValue(notes, 'a\r\nb\rc')).toBe('a ↵ b ↵ c (3 lines)');
    const long = displayValue(notes, `${'x'.repeat(80)}\ny`);
    expect(long).toBe(`${'x'.repeat(59)}… (2 lines)`);
    expect(displayValue(notes, 'one line')).toBe('one line');
    // Whatever the field, text with line breaks never breaks the layout.
    expect(displayValue(field('profile.name'), 'Ada\n\x1b[31mLovelace')).not.toMatch(/[\n\x1b]/);
  });

  it('secrets are masked whatever their value; empty answers are a dash; yes/no and lists read as words', () => {
    expect(displayValue(field('profile.pin'), '4711')).toBe('********');
    expect(displayValue(field('profile.pin'), undefined)).toBe('-');
    expect(displayValue(field('profile.address.poBox'), false)).toBe('No');
    expect(displayValue(field('profile.children'), [{}, {}])).toBe('2 entries');
    expect(displayValue(field('profile.skills'), [])).toBe('(none)');
    expect(displayValue(field('profile.skills'), ['go', 'rust'])).toBe('go, rust');
  });
});

describe('several lines of international text on one line', () => {
  const notes = () => field('profile.notes');
  it('is cut by grapheme cluster, never inside an emoji sequence, a flag or a letter and its marks', () => {
    const thumb = '👍🏽'; // 4 UTF-16 units, one grapheme, two cells
    const text = `${'x'.repeat(57)}${thumb}${thumb}\nmore`;
    // 57 + 2 cells, then '…': the second emoji does not fit; nothing of it is left half (the old cut by
    // UTF-16 unit kept 59 units: 'x' * 57 and half of the first emoji).
    expect(displayValue(notes(), text)).toBe(`${'x'.repeat(57)}${thumb}… (2 lines)`);
    const family = `${'y'.repeat(55)}👩🏽\u200d💻👩🏽\u200d💻\nmore`;
    expect(cellWidth(displayValue(notes(), family).replace(/ \(2 lines\)$/, ''))).toBeLessThanOrEqual(60);
    for (const cut of [`${'e\u0301'.repeat(70)}\nb`, `${'🇩🇪'.repeat(40)}\nb`, `${'ไทย'.repeat(30)}\nb`]) {
      const line = displayValue(notes(), cut).replace(/ \(2 lines\)$/, '');
      expect(line.endsWith('…')).toBe(true);
      expect(cellWidth(line)).toBeLessThanOrEqual(60);
      // What is left before the … is whole clusters of the text.
      expect(cut.normalize('NFC').startsWith(line.slice(0, -1).normalize('NFC'))).toBe(true);
      expect(line.slice(0, -1).endsWith('\u{1f1e9}')).toBe(false); // never half a flag
    }
  });

  it('is cut by display width: wide characters count two cells', () => {
    const cjk = `${'東京'.repeat(40)}\n次`;
    const line = displayValue(notes(), cjk).replace(/ \(2 lines\)$/, '');
    expect(line).toBe(`${'東京'.repeat(14)}東…`);
    expect(cellWidth(line)).toBe(59);
    expect(cutLine('한국어 텍스트', 60)).toBe('한국어 텍스트');
  });

  it('the change list filters on the real answer, not the made-safe text; secrets stay masked', () => {
    const name = field('profile.name');
    const real = 'علی\u200cرضا 👩🏽\u200d💻';
    expect(matchText({ form }, name, real)).toBe(`${labelOf({ form }, name)}: ${real}`);
    expect(matchText({ form }, field('profile.pin'), '4711')).not.toContain('4711');
  });
});

describe('titles and labels', () => {
  it('a required list with no minimum says Enter leaves it empty; optional questions say so', () => {
    expect(title(field('profile.skills'))).toBe('Skills [comma-separated; Enter for none]');
    expect(title(field('profile.notes'))).toBe('Notes (optional)');
  });

  it('labels are section, object and entry titles, never raw keys', () => {
    const doc = { profile: { children: [{}] } };
    expect(labelOf({ form }, field('profile.address.line2', doc))).toBe('Profile › Postal address › Address line 2');
    expect(labelOf({ form }, field('profile.children.0.nickname', doc))).toBe('Profile › Children #1 › Nickname');
  });
});
