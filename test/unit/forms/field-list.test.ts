// The field-definition-list format: translated once into JSON Schema, then
// the same engine (questions, conditions, ajv validation, bodies, --set).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FormFormatError, loadSchema, type FormSchema } from '../../../src/forms/schema.js';
import { isFieldList, translateFieldList } from '../../../src/forms/field-list.js';
import { allFields, sectionFields } from '../../../src/forms/questions.js';
import { validateDoc } from '../../../src/forms/validate.js';
import { buildBodies, createKeys, dynamicKeys } from '../../../src/forms/bodies.js';
import { applySets, parseSetFlag } from '../../../src/forms/values.js';
import { askAll, type Wizard } from '../../../src/forms/wizard.js';
import { reviewText } from '../../../src/forms/review.js';
import { colors } from '../../../src/output/colors.js';
import { FIELD_LIST_FORM, FIELD_LIST_SCHEMA } from '../../../src/sandbox/field-list-form.js';
import { scripted, type Step } from './scripted.js';

const raw = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/forms/field-list.json'), 'utf8'));
// Loaded in each test (not at import), so mutation testing sees which tests run the translation.
let form: FormSchema;
let all: string[];
beforeEach(() => {
  form = loadSchema(raw);
  all = form.sections.map((s) => s.key);
});
const kinds = (f: FormSchema, doc: Record<string, unknown>) => Object.fromEntries(allFields(f, doc).map((x) => [x.id, `${x.kind}${x.required ? '!' : ''}`]));

const valid = () => ({
  personal: { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10', gender: 'F', nationalId: '123456789' },
  employment: { startDate: '2025-09-01', salary: 4200.5, contract: 'PERMANENT' },
  payroll: { taxId: 'T-1', taxClass: 2 },
});

describe('field-definition lists', () => {
  it('are recognised by sections or a top-level fields array, never when JSON Schema properties are present', () => {
    expect(isFieldList({ sections: [] })).toBe(true);
    expect(isFieldList({ fields: [] })).toBe(true);
    expect(isFieldList({ properties: {}, sections: [] })).toBe(false);
    expect(isFieldList({ form: {} })).toBe(false);
    expect(isFieldList([])).toBe(false);
    expect(form.format).toBe('field-list');
  });

  it('translate every type into a question kind, required marks included, unknown types as text with a warning', () => {
    expect(kinds(form, { employment: { contract: 'FIXED' } })).toEqual({
      'personal.firstName': 'text!',
      'personal.lastName': 'text!',
      'personal.birthDate': 'date!',
      'personal.email': 'email',
      'personal.phone': 'text',
      'personal.gender': 'select!',
      'personal.languages': 'multiselect',
      'personal.bio': 'textarea',
      'personal.nationalId': 'secret!',
      'personal.shoe': 'text',
      'employment.startDate': 'date!',
      'employment.hours': 'integer',
      'employment.salary': 'number!',
      'employment.contract': 'select!',
      'employment.endDate': 'date!',
      'employment.remote': 'boolean',
      'payroll.taxId': 'secret!',
      'payroll.taxClass': 'select!',
    });
    expect(form.warnings).toEqual(['personal.shoe: unknown field type "SHOE_SIZE"; asked as text']);
    const props = (form.root.properties as Record<string, { properties: Record<string, Record<string, unknown>> }>);
    expect(props.personal.properties.phone).toMatchObject({ type: 'string', pattern: '^\\+[0-9 ]{7,20}$', 'x-jsf-presentation': { inputType: 'tel' } });
    expect(props.personal.properties.birthDate).toMatchObject({ type: 'string', format: 'date' });
    expect(props.personal.properties.email).toMatchObject({ type: 'string', format: 'email' });
    expect(props.personal.properties.nationalId).toMatchObject({ 'x-jsf-presentation': { inputType: 'password', maskSecret: true } });
    expect(props.employment.properties.hours).toMatchObject({ type: 'integer', default: 40, minimum: 1, maximum: 48 });
  });

  it('options keep their labels and value types; allowedValues are their own labels', () => {
    const fields = allFields(form, {});
    expect(fields.find((f) => f.id === 'personal.gender')!.choices).toEqual([{ value: 'F', title: 'Female' }, { value: 'M', title: 'Male' }, { value: 'X', title: 'Diverse' }]);
    expect(fields.find((f) => f.id === 'personal.languages')!.choices!.map((c) => c.value)).toEqual(['EN', 'DE', 'FR']);
    expect(fields.find((f) => f.id === 'payroll.taxClass')!.choices).toEqual([{ value: 1, title: 'Class 1' }, { value: 2, title: 'Class 2' }]);
    expect(fields.find((f) => f.id === 'employment.contract')!.choices!.map((c) => c.title)).toEqual(['PERMANENT', 'FIXED']);
  });

  it('dependsOn (equals) and visibleWhen (in) show a field only while their condition holds', () => {
    const ids = (doc: Record<string, unknown>) => sectionFields(form, 'employment', doc).map((f) => f.key);
    expect(ids({ employment: { contract: 'PERMANENT' } })).toEqual(['startDate', 'hours', 'salary', 'contract', 'remote', 'remoteCountry']);
    expect(ids({ employment: { contract: 'FIXED' } })).toEqual(['startDate', 'hours', 'salary', 'contract', 'endDate', 'remote']);
    expect(ids({ employment: {} })).toEqual(['startDate', 'hours', 'salary', 'contract', 'remote']);
  });

  it('validation: required, pattern, min/max, lengths, options, conditional requirement, unknown fields', () => {
    expect(validateDoc(form, valid(), all)).toEqual([]);
    const bad = valid() as Record<string, Record<string, unknown>>;
    bad.personal.firstName = '';
    bad.personal.nationalId = '12';
    bad.personal.bio = 'x'.repeat(501);
    bad.personal.languages = ['EN', 'XX'];
    bad.employment.hours = 49;
    bad.employment.salary = -1;
    bad.employment.contract = 'FIXED';
    bad.employment.typo = 1;
    bad.payroll.taxClass = 3;
    delete bad.personal.gender;
    const paths = validateDoc(form, bad, all).map((i) => i.path).sort();
    expect(paths).toEqual(['employment.endDate', 'employment.hours', 'employment.salary', 'employment.typo', 'payroll.taxClass', 'personal.bio', 'personal.firstName', 'personal.gender', 'personal.languages.1', 'personal.nationalId'].sort());
  });

  it('the per-section marker decides the PATCH; without any marker every section is PATCHed', () => {
    expect(createKeys(form)).toEqual(['personal', 'employment']);
    expect(dynamicKeys(form)).toEqual(['payroll']);
    expect(buildBodies(form, 'E', valid())).toEqual({ create: { entity: 'E', personal: valid().personal, employment: valid().employment }, dynamic: { payroll: { taxId: 'T-1', taxClass: 2 } } });
    const unmarked = loadSchema({ sections: [{ key: 'a', fields: [{ key: 'x', type: 'TEXT' }] }, { key: 'b', fields: [{ key: 'y', type: 'TEXT' }] }] });
    expect(dynamicKeys(unmarked)).toEqual(['a', 'b']);
    const dyn = loadSchema({ sections: [{ key: 'a', fields: [] }, { key: 'b', dynamic: true, fields: [] }] });
    expect(dynamicKeys(dyn)).toEqual(['b']);
  });

  it('a flat fields list makes each field a top-level member, all PATCHed; its conditions become optional questions with a warning', () => {
    const flat = loadSchema({ fields: [{ name: 'iban', title: 'IBAN', type: 'SECRET', required: true }, { key: 'hasKids', type: 'BOOLEAN' }, { key: 'kids', type: 'INTEGER', required: true, dependsOn: { field: 'hasKids', equals: true } }] });
    expect(flat.sections.map((s) => [s.key, s.dynamic, s.required])).toEqual([['iban', true, true], ['hasKids', true, false], ['kids', true, false]]);
    expect(kinds(flat, {})).toEqual({ iban: 'secret!', hasKids: 'boolean', kids: 'integer' });
    expect(flat.warnings).toEqual(['kids: conditions are honoured only inside sections; in a flat field list this field is always asked, as optional']);
    expect(buildBodies(flat, 'E', { iban: 'DE1', kids: 2 })).toEqual({ create: { entity: 'E' }, dynamic: { iban: 'DE1', kids: 2 } });
  });

  it('--set values are typed by the translated schema', () => {
    const doc: Record<string, unknown> = {};
    const issues = applySets(form, doc, ['employment.hours=38', 'employment.salary=4200.50', 'employment.remote=yes', 'payroll.taxClass=2', 'personal.languages=EN,DE'].map(parseSetFlag));
    expect(issues).toEqual([]);
    expect(doc).toEqual({ employment: { hours: 38, salary: 4200.5, remote: true }, payroll: { taxClass: 2 }, personal: { languages: ['EN', 'DE'] } });
  });

  it('the wizard asks a field list like any form, follows dependsOn, masks secrets on the review', async () => {
    const steps: Step[] = [
      [/^First name$/, 'Ada'],
      [/^Last name$/, 'Lovelace'],
      [/^Date of birth/, '1990-12-10'],
      [/^Personal e-mail/, ''],
      [/^Phone/, '12'],
      [/^Phone/, '+49 151 2345'],
      [/^Gender$/, 'Diverse'],
      [/^Languages/, ['DE']],
      [/^About/, ''],
      [/^National id$/, '123456789'],
      [/^Shoe size/, '42'],
      [/^Start date/, '2025-09-01'],
      [/^Weekly hours/, '50'],
      [/^Weekly hours/, '38'],
      [/^Salary/, '4200.5'],
      [/^Contract$/, 'FIXED'],
      [/^End date/, '2026-08-31'],
      [/^Remote/, true],
      [/^Tax id$/, 'T-9'],
      [/^Tax class$/, 'Class 1'],
    ];
    const p = scripted(steps);
    const w: Wizard = { form, doc: {}, asked: new Set(), sections: all, prompter: p, colors: colors(false), save: () => undefined };
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.refused.map((r) => r.message)).toEqual(['Phone (optional)', 'Weekly hours (optional)']);
    expect(w.doc).toEqual({
      personal: { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10', phone: '+49 151 2345', gender: 'X', languages: ['DE'], nationalId: '123456789', shoe: '42' },
      employment: { startDate: '2025-09-01', hours: 38, salary: 4200.5, contract: 'FIXED', endDate: '2026-08-31', remote: true },
      payroll: { taxId: 'T-9', taxClass: 1 },
    });
    const review = reviewText(w);
    expect(review).toContain('National id: ********');
    expect(review).not.toContain('123456789');
    expect(review).not.toContain('T-9');
  });

  it('the sandbox field list translates into rules its own JSON Schema agrees with', () => {
    const t = translateFieldList(FIELD_LIST_FORM);
    // SHORT_TEXT is a name of TEXT: our own sandbox's form draws no warning from partner.
    expect(t.warnings).toEqual([]);
    expect(t.schema['x-dynamic-sections']).toEqual(FIELD_LIST_SCHEMA['x-dynamic-sections']);
    expect(t.schema.required).toEqual(FIELD_LIST_SCHEMA.required);
  });

  it('common other type names are the same types; conditions may name section.field; what cannot be honoured is a warning', () => {
    const f = loadSchema({
      sections: [
        {
          key: 's',
          fields: [
            { key: 'a', type: 'checkbox' },
            { key: 'b', type: 'multiSelect', options: [{ value: 1, label: 'One' }, { value: 2, label: 'Two' }] },
            { key: 'c', type: 'Radio', allowedValues: ['X', 'Y'] },
            { key: 'd', type: 'tel' },
            { key: 'e', type: 'decimal' },
            { key: 'f', type: 'string', dependsOn: { field: 's.a', equals: true } },
            { key: 'g', type: 'DATE', validation: { min: '2020-01-01' } },
            { key: 'h', type: 'TEXT', dependsOn: { field: 'nope', equals: 1 } },
            { key: 'i', type: 'TEXT', visibleWhen: { field: 'a' } },
            { key: 'j', type: 'TEXT', dependsOn: 'a' },
          ],
        },
      ],
    });
    expect(kinds(f, {})).toEqual({ 's.a': 'boolean', 's.b': 'multiselect', 's.c': 'select', 's.d': 'text', 's.e': 'number', 's.g': 'date', 's.h': 'text', 's.i': 'text', 's.j': 'text' });
    expect(kinds(f, { s: { a: true } })['s.f']).toBe('text');
    expect(f.warnings).toEqual([
      's.g: date bounds (validation.min/max) are not checked here; the server checks them',
      's.h: its condition names "nope", which is not a field of the same section; the field is always asked',
      's.i: its condition has neither "equals" nor "in"; the field is always asked',
      's.j: its condition is not {field, equals|in}; the field is always asked',
    ]);
    expect(validateDoc(f, { s: { b: [1, 2], e: 2.5 } }, ['s'])).toEqual([]);
    expect(validateDoc(f, { s: { b: [3] } }, ['s']).map((i) => i.path)).toEqual(['s.b.0']);
  });

  it('broken lists and unknown structures are clear errors naming what was expected', () => {
    const err = (doc: unknown) => {
      try {
        loadSchema(doc);
      } catch (e) {
        expect(e).toBeInstanceOf(FormFormatError);
        return (e as FormFormatError).message;
      }
      throw new Error('no error');
    };
    expect(err({ sections: [{ label: 'x', fields: [] }] })).toBe('The form from the server looks like a field-definition list, but section 1 has no "key" (or "name")');
    expect(err({ sections: [{ key: 'a' }] })).toBe('The form from the server looks like a field-definition list, but section "a" has no "fields" array');
    expect(err({ sections: [{ key: 'a', fields: [{ type: 'TEXT' }] }] })).toBe('The form from the server looks like a field-definition list, but field 1 of section "a" has no "key" (or "name")');
    expect(err({ sections: [{ key: 'a', fields: [{ key: 'x' }, { name: 'x' }] }] })).toBe('The form from the server looks like a field-definition list, but two fields are called "a.x"');
    expect(err({ form: { questions: [] }, version: 2 })).toBe(
      'The form from the server is neither JSON Schema (an object with top-level "properties", one per section) nor a field-definition list ("sections": [{key, fields: […]}] or "fields": […]); it is an object with "form", "version"',
    );
    expect(err([1, 2])).toMatch(/it is a JSON array of 2$/);
    const e = new FormFormatError('x');
    expect(e.hint).toContain('--body-file');
    expect(e.exitCode).toBe(1);
  });
});
