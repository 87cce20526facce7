// optional objects
// containing booleans can be left empty, optional answers are not sent,
// decimals and grouped numbers, going back, removing an entry, the filtered
// change list and labels by titles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema, type FormSchema } from '../../../src/forms/schema.js';
import { allFields, sectionFields } from '../../../src/forms/questions.js';
import { isMultipleOf, validateDoc } from '../../../src/forms/validate.js';
import { buildBodies } from '../../../src/forms/bodies.js';
import { applySets, coerce, parseNumberText, parseSetFlag, toValue } from '../../../src/forms/values.js';
import { askAll, type Wizard } from '../../../src/forms/wizard.js';
import { labelOf } from '../../../src/forms/display.js';
import { review, reviewText } from '../../../src/forms/review.js';
import { filterChoices } from '../../../src/forms/prompter.js';
import { colors } from '../../../src/output/colors.js';
import { BACK, scripted, type Step } from './scripted.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const form: FormSchema = loadSchema(JSON.parse(readFileSync(join(FIX, 'optional-objects-2020.json'), 'utf8')));

function wizard(steps: Step[], init: Partial<Wizard> = {}) {
  const p = scripted(steps);
  const w: Wizard = { form, doc: {}, asked: new Set(), sections: form.sections.map((s) => s.key), prompter: p, colors: colors(false), save: () => undefined, ...init };
  return { w, p };
}

const EMPTY_CONTACT: Step[] = [
  [/^E-mail$/, 'ada@example.org'],
  [/^Remote work \(optional\)$/, undefined], // Enter: (leave empty) is preselected
  [/^Fill in Emergency contact\? \(optional\)$/, false],
  [/^Fill in Home address\? \(optional\)$/, false],
];

describe('optional nested objects and optional booleans', () => {
  it('an optional object is one question; its fields exist (required ones required) only once it is filled in', () => {
    expect(sectionFields(form, 'contact', {}).map((f) => [f.id, f.kind, f.required])).toEqual([
      ['contact.email', 'email', true],
      ['contact.remoteWork', 'boolean', false],
      ['contact.emergency', 'object', false],
      ['contact.home', 'object', false],
    ]);
    const filled = sectionFields(form, 'contact', { contact: { emergency: {} } });
    expect(filled.map((f) => [f.id, f.kind, f.required, f.trail])).toEqual([
      ['contact.email', 'email', true, []],
      ['contact.remoteWork', 'boolean', false, []],
      ['contact.emergency', 'object', false, []],
      ['contact.emergency.name', 'text', true, ['Emergency contact']],
      ['contact.emergency.phone', 'text', true, ['Emergency contact']],
      ['contact.emergency.isPrimary', 'boolean', false, ['Emergency contact']],
      ['contact.home', 'object', false, []],
    ]);
    expect(filled[3].parent).toEqual({ id: 'contact.emergency', title: 'Emergency contact', description: 'Who to call when something happens at work.' });
  });

  it('left empty: nothing of the object and no unanswered boolean is sent, and the review submits at once (no fix loop)', async () => {
    const { w, p } = wizard([...EMPTY_CONTACT, [/^Salary/, '4321.99'], [/^Hours/, ''], [/^Add a dependent\?/, false], [/^What next/, 'Submit']]);
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(p.asked).toContain('Salary [EUR]');
    expect(p.asked).toContain('Hours (optional)'); // default 40 only suggested, not prefilled
    expect(buildBodies(form, 'E', w.doc).create).toEqual({ entity: 'E', contact: { email: 'ada@example.org' }, pay: { salary: 4321.99 } });
  });

  it('filled in: its required fields are demanded, its optional yes/no can be answered No (sent as false) or skipped', async () => {
    const { w, p } = wizard([
      [/^E-mail$/, 'ada@example.org'],
      [/^Remote work/, false],
      [/^Fill in Emergency contact\?/, true],
      [/^Name$/, ''],
      [/^Name$/, 'Grace'],
      [/^Phone$/, '+49 151 1234'],
      [/^Primary contact \(optional\)$/, undefined],
      [/^Fill in Home address\?/, true],
      [/^Street$/, 'Main St 1'],
      [/^Directions \(optional\)$/, ['Second door', 'on the left']],
    ], { sections: ['contact'] });
    await askAll(w);
    expect(p.refused.map((r) => r.error)).toEqual(['Name is required']);
    expect(p.notes.join('\n')).toContain('Emergency contact\nWho to call when something happens at work.');
    expect(w.doc.contact).toEqual({ email: 'ada@example.org', remoteWork: false, emergency: { name: 'Grace', phone: '+49 151 1234' }, home: { street: 'Main St 1', note: 'Second door\non the left' } });
    expect(validateDoc(form, { contact: w.doc.contact as object, pay: { salary: 1 } })).toEqual([]);
  });

  it('an object filled in can be emptied again from the review, and then is not sent', async () => {
    const doc = { contact: { email: 'a@b.example', emergency: { name: 'G', phone: '+49 151 1234' } }, pay: { salary: 10 } };
    const asked = new Set(['contact.email', 'contact.remoteWork', 'contact.emergency', 'contact.emergency.name', 'contact.emergency.phone', 'contact.emergency.isPrimary', 'contact.home', 'pay.salary', 'pay.hours', 'pay.dependents']);
    const { w, p } = wizard([[/^What next/, 'Change an answer'], [/^Which answer/, 'Contact details › Emergency contact: filled in'], [/^Fill in Emergency contact\?/, false], [/^What next/, 'Submit']], { doc, asked });
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(buildBodies(form, 'E', w.doc).create).toEqual({ entity: 'E', contact: { email: 'a@b.example' }, pay: { salary: 10 } });
    expect([...w.asked].filter((a) => a.startsWith('contact.emergency.'))).toEqual([]);
  });
});

describe('no fix loop', () => {
  it('an answer the form does not have (an old draft) is dropped by "Fix these answers", not asked forever', async () => {
    const doc = { contact: { email: 'a@b.example', nickname: 'Ada' }, pay: { salary: 10 } };
    const asked = new Set(['contact.email', 'contact.remoteWork', 'contact.emergency', 'contact.home', 'pay.salary', 'pay.hours', 'pay.dependents']);
    const { w, p } = wizard([[/^What next/, 'Fix these answers'], [/^What next/, 'Submit']], { doc, asked });
    expect(await review(w)).toBe('submit');
    expect(p.notes.join('\n')).toContain('nickname is not a field of this form');
    expect(p.notes.join('\n')).toContain('Removed contact.nickname: it is not a field of this form.');
    expect(w.doc).toEqual({ contact: { email: 'a@b.example' }, pay: { salary: 10 } });
  });
});

describe('numbers: exact decimals and grouping separators', () => {
  it('multipleOf 0.01 accepts 4321.99, 19.99 and 1234.56 (exact decimals), refuses a third decimal', () => {
    for (const salary of [4321.99, 19.99, 1234.56, 0.07, 100, 2400000.5]) expect(validateDoc(form, { contact: { email: 'a@b.example' }, pay: { salary } }), String(salary)).toEqual([]);
    expect(validateDoc(form, { contact: { email: 'a@b.example' }, pay: { salary: 1234.567 } }).map((i) => i.text)).toEqual(['Salary must have at most 2 decimal places (a multiple of 0.01)']);
    expect([isMultipleOf(0.3, 0.1), isMultipleOf(1e21, 0.01), isMultipleOf(1e-7, 1e-8), isMultipleOf(1.5e-7, 1e-7), isMultipleOf(-4.5, 1.5), isMultipleOf(7, 0)]).toEqual([true, true, true, false, true, false]);
  });

  it('grouped numbers are accepted where the grouping is unambiguous, refused with the expected form otherwise', () => {
    const ok: [string, number][] = [['2,400,000', 2400000], ['24,00,000', 2400000], ['1,23,45,678.5', 12345678.5], ['2 400 000', 2400000], ["1'000", 1000], ['1_000_000', 1000000], ['-1,000.25', -1000.25], ['1e3', 1000], ['.5', 0.5], ['42', 42]];
    for (const [text, n] of ok) expect(parseNumberText(text), text).toBe(n);
    for (const text of ['1,5', '2.400.000', '1,2345', '1,000,00', '1,000 000', '0x10', 'Infinity', '12abc', '1.234,56', ',100']) expect(parseNumberText(text), text).toBeUndefined();
    const salary = allFields(form, {}).find((f) => f.id === 'pay.salary')!;
    expect(toValue(form, salary.schema, '1,5')).toEqual({ ok: false, message: 'must be a number such as 2400000 or 1234.56 (a dot marks decimals; digits may be grouped with commas: 2,400,000 or 24,00,000)' });
  });

  it('the wizard and --set share one converter: grouped numbers, yes/no booleans, refusals with the same words', async () => {
    const doc: Record<string, unknown> = {};
    // `1,000` alone reads two ways: grouped with spaces it reads one way.
    const issues = applySets(form, doc, ['pay.salary=24,00,000', 'pay.hours=1 000', 'contact.remoteWork=no', 'contact.emergency.isPrimary=YES', 'pay.hours=4.5', 'pay.hours=1,000'].map(parseSetFlag));
    expect(issues.map((i) => i.text)).toEqual(['Hours must be a whole number', 'Hours is ambiguous: "1,000" could be 1 or 1000. Type 1000 for 1000, or 1 for 1 (digits only; a dot marks decimals)']);
    expect(doc).toEqual({ pay: { salary: 2400000, hours: 1000 }, contact: { remoteWork: false, emergency: { isPrimary: true } } });
    expect(coerce(form, ['contact', 'remoteWork'], 'maybe')).toEqual({ error: 'must be yes or no (also y/n, true/false, 1/0)' });
    const { w, p } = wizard([...EMPTY_CONTACT, [/^Salary/, '1,5'], [/^Salary/, '2,400,000.10'], [/^Hours/, '4.5'], [/^Hours/, '1,000'], [/^Hours/, '1000'], [/^Add a dependent\?/, false]]);
    await askAll(w);
    expect(p.refused.map((r) => r.error)).toEqual([
      'Salary must be a number such as 2400000 or 1234.56 (a dot marks decimals; digits may be grouped with commas: 2,400,000 or 24,00,000)',
      'Hours must be a whole number',
      'Hours is ambiguous: "1,000" could be 1 or 1000. Type 1000 for 1000, or 1 for 1 (digits only; a dot marks decimals)',
    ]);
    expect(w.doc.pay).toEqual({ salary: 2400000.1, hours: 1000 });
  });
});

describe('a review you can edit', () => {
  it('Esc goes back one question, across sections and object questions; at the first question it says so', async () => {
    const { w, p } = wizard([
      [/^E-mail$/, BACK],
      [/^E-mail$/, 'first@example.org'],
      [/^Remote work/, true],
      [/^Fill in Emergency contact\?/, BACK], // back to Remote work, which keeps its answer as the default
      [/^Remote work/, undefined],
      [/^Fill in Emergency contact\?/, false],
      [/^Fill in Home address\?/, false],
      [/^Salary/, BACK], // back across the section
      [/^Fill in Home address\?/, true],
      [/^Street$/, 'Main St 1'],
      [/^Directions/, ''],
      [/^Salary/, '10'],
      [/^Hours/, '20'],
      [/^Add a dependent\?/, BACK],
      [/^Hours/, '30'],
      [/^Add a dependent\?/, false],
    ]);
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.notes.join('\n')).toContain('This is the first question: there is nothing to go back to.');
    expect(w.doc).toEqual({ contact: { email: 'first@example.org', remoteWork: true, home: { street: 'Main St 1' } }, pay: { salary: 10, hours: 30 } });
  });

  it('lists: entries can be removed (the ones after move up), Esc at a new entry drops it; entries are numbered', async () => {
    const { w, p } = wizard([
      ...EMPTY_CONTACT,
      [/^Salary/, '10'],
      [/^Hours/, ''],
      [/^Add a dependent\?/, true],
      [/^Full name$/, 'Ann'],
      [/^Student/, undefined],
      [/^Add another entry to Dependents\? \(1 so far\)/, 'Yes, add another'],
      [/^Full name$/, 'Bob'],
      [/^Student/, true],
      [/^Add another entry to Dependents\? \(2 so far\)/, 'Yes, add another'],
      [/^Full name$/, BACK], // drops the new third entry
      [/^Add another entry to Dependents\? \(2 so far\)/, 'Yes, add another'],
      [/^Full name$/, 'Cem'],
      [/^Student/, false],
      [/^Add another entry to Dependents\? \(3 so far\)/, 'Remove an entry…'],
      [/^Remove which entry of Dependents\?/, '#2 Bob, Yes'],
      [/^Add another entry to Dependents\? \(2 so far\)/, 'No, continue'],
    ]);
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.notes.join('\n')).toContain('Removed Dependents #2; the entries after it moved up.');
    expect((w.doc.pay as { dependents: unknown }).dependents).toEqual([{ fullName: 'Ann' }, { fullName: 'Cem', student: false }]);
    expect([...w.asked].filter((a) => a.startsWith('pay.dependents.')).sort()).toEqual(['pay.dependents.0.fullName', 'pay.dependents.0.student', 'pay.dependents.1.fullName', 'pay.dependents.1.student']);
    const text = reviewText(w);
    expect(text).toContain('  Dependents: 2 entries\n  Dependents #1\n    Full name: Ann\n    Student: -\n  Dependents #2\n    Full name: Cem\n    Student: No');
    expect(text).toContain('Salary: 10 EUR');
  });

  it('the change list is labelled by section, object and entry titles and filtered by what is typed', async () => {
    const doc = { contact: { email: 'a@b.example', emergency: { name: 'G', phone: '+49 151 1234' } }, pay: { salary: 10, dependents: [{ fullName: 'Ann' }] } };
    const asked = new Set(['contact.email', 'contact.remoteWork', 'contact.emergency', 'contact.emergency.name', 'contact.emergency.phone', 'contact.emergency.isPrimary', 'contact.home', 'pay.salary', 'pay.hours', 'pay.dependents', 'pay.dependents.0.fullName', 'pay.dependents.0.student']);
    const { w, p } = wizard(
      [
        [/^What next/, 'Change an answer'],
        [/^Which answer/, { filter: 'emergency PHONE', pick: 'Contact details › Emergency contact › Phone: +49 151 1234' }],
        [/^Phone$/, '+49 170 999'],
        [/^What next/, 'Change an answer'],
        [/^Which answer/, BACK], // Esc: back to the review
        [/^What next/, 'Submit'],
      ],
      { doc, asked },
    );
    expect(await review(w)).toBe('submit');
    expect(p.filtered).toEqual([['Contact details › Emergency contact › Phone: +49 151 1234']]);
    const labels = allFields(form, w.doc).filter((f) => !f.fixed).map((f) => labelOf(w, f));
    expect(labels).toContain('Pay › Dependents #1 › Full name');
    expect(labels).toContain('Contact details › Emergency contact');
    expect((w.doc.contact as { emergency: object }).emergency).toEqual({ name: 'G', phone: '+49 170 999' });
    expect(reviewText(w)).toContain('  Emergency contact\n    Name: G\n    Phone: +49 170 999');
  });

  it('the title of a required nested object is shown when its questions start, once', async () => {
    const nested = loadSchema(JSON.parse(readFileSync(join(FIX, 'draft07-nested.json'), 'utf8')));
    const { w, p } = wizard([[/^ZIP/, '10115'], [/^Country/, 'France']], { form: nested, sections: ['person'], doc: { person: { name: 'Ada', born: '1990-01-01' } }, asked: new Set(['person.name', 'person.born', 'person.pin']) });
    await askAll(w);
    expect(p.notes.filter((n) => n.trim() === 'Home')).toHaveLength(1);
    expect(p.notes.findIndex((n) => n.trim() === 'Home')).toBeGreaterThan(p.notes.findIndex((n) => n.includes('Person')));
    expect(p.asked).toEqual(['ZIP', 'Country']);
  });

  it('filterChoices keeps the choices that contain every typed word', () => {
    const c = [{ name: 'Pay › Salary: 10 EUR', value: 1 }, { name: 'Contact details › E-mail: a@b', value: 2 }];
    expect(filterChoices(c, 'sal EUR').map((x) => x.value)).toEqual([1]);
    expect(filterChoices(c, '').map((x) => x.value)).toEqual([1, 2]);
    expect(filterChoices(c, undefined).length).toBe(2);
    expect(filterChoices(c, 'nothing')).toEqual([]);
  });
});
