// How answers and questions are shown: several lines on one line of the
// review and change list, secrets masked, money with its currency, titles
// with their hints, labels by titles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { allFields, type Field } from '../../../src/forms/questions.js';
import { displayValue, labelOf, title } from '../../../src/forms/display.js';

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
