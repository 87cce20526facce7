// Asking one question: text converted and checked by the field's schema; a
// required list with no minimum accepts Enter as the empty list (no dead end).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { allFields, type Field } from '../../../src/forms/questions.js';
import { askField, checkValue, parseText } from '../../../src/forms/ask.js';
import type { Wizard } from '../../../src/forms/wizard.js';
import { colors } from '../../../src/output/colors.js';
import { scripted, type Step } from './scripted.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const form = loadSchema(JSON.parse(readFileSync(join(FIX, 'required-empty-2020.json'), 'utf8')));
const field = (id: string): Field => allFields(form, { profile: { children: [{}] } }).find((f) => f.id === id)!;

function wizard(steps: Step[]) {
  const p = scripted(steps);
  const w: Wizard = { form, doc: {}, asked: new Set(), sections: ['profile'], prompter: p, colors: colors(false), save: () => undefined };
  return { w, p };
}

describe('parseText and checkValue', () => {
  it('Enter on a required list with no minimum is the empty list; with a minimum it stays required', () => {
    expect(parseText({ form }, field('profile.skills'), '  ')).toEqual({ ok: true, value: [] });
    const atLeastOne = { ...field('profile.skills'), schema: { ...field('profile.skills').schema, minItems: 1 } };
    expect(parseText({ form }, atLeastOne, '')).toEqual({ ok: true, value: undefined });
    expect(checkValue({ form }, atLeastOne, undefined)).toBe('Skills is required');
    expect(parseText({ form }, field('profile.skills'), 'go, rust')).toEqual({ ok: true, value: ['go', 'rust'] });
  });

  it('an optional question left empty is no value; a secret is checked by its pattern without echoing it', () => {
    expect(parseText({ form }, field('profile.notes'), '')).toEqual({ ok: true, value: undefined });
    expect(checkValue({ form }, field('profile.notes'), undefined)).toBe(true);
    expect(checkValue({ form }, field('profile.pin'), '12')).toBe('Badge PIN does not have the expected format (^[0-9]{4}$)');
    expect(checkValue({ form }, field('profile.pin'), '12')).not.toContain('12 ');
  });
});

describe('askField', () => {
  it('a textarea keeps its lines; a required list answered with Enter is stored as []', async () => {
    const { w, p } = wizard([[/^Notes/, ['Line one', '  line two']], [/^Skills/, '']]);
    await askField(w, field('profile.notes'));
    await askField(w, field('profile.skills'));
    expect(p.refused).toEqual([]);
    expect(w.doc).toEqual({ profile: { notes: 'Line one\n  line two', skills: [] } });
    expect([...w.asked]).toEqual(['profile.notes', 'profile.skills']);
  });
});
