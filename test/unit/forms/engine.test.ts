import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema, draftOf, FormFormatError, type FormSchema } from '../../../src/forms/schema.js';
import { allFields, sectionFields, itemFields } from '../../../src/forms/questions.js';
import { compact, pruneHidden } from '../../../src/forms/answers.js';
import { validateDoc, validateValue, titleAt } from '../../../src/forms/validate.js';
import { buildBodies, dynamicKeys } from '../../../src/forms/bodies.js';
import { applySets, coerce, parseSetFlag } from '../../../src/forms/values.js';
import { collectValues, issuesOf } from '../../../src/forms/inputs.js';
import type { Context } from '../../../src/context.js';
import { getSchema, listEntities } from '../../../src/sandbox/forms.js';
import { UsageError } from '../../../src/errors.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const fixture = (name: string): FormSchema => loadSchema(JSON.parse(readFileSync(join(FIX, name), 'utf8')));
const ids = (form: FormSchema, section: string, doc: Record<string, unknown>) => sectionFields(form, section, doc).map((f) => f.id);

describe('loadSchema', () => {
  it('reads sections in x-jsf-order, marks dynamic ones from x-dynamic-sections and x-submit', () => {
    const form = fixture('conditional-2020.json');
    expect(form.draft).toBe('2020-12');
    expect(form.sections.map((s) => [s.key, s.dynamic, s.required])).toEqual([
      ['b', true, false],
      ['a', false, true],
    ]);
    const f07 = fixture('draft07-nested.json');
    expect(f07.draft).toBe('07');
    expect(f07.sections.map((s) => [s.key, s.dynamic])).toEqual([
      ['person', false],
      ['job', false],
      ['extra', true],
    ]);
  });

  it('refuses a body that has no sections', () => {
    expect(() => loadSchema({ type: 'object' })).toThrow(FormFormatError);
    expect(() => loadSchema('nope')).toThrow(FormFormatError);
  });

  it('detects the draft from $schema', () => {
    expect(draftOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('07');
    expect(draftOf({})).toBe('2020-12');
  });
});

describe('questions', () => {
  it('flattens nested objects, follows $ref, honours x-jsf-order, ignores unknown keywords', () => {
    const form = fixture('draft07-nested.json');
    const fields = sectionFields(form, 'person', {});
    expect(fields.map((f) => [f.id, f.kind, f.required])).toEqual([
      ['person.name', 'text', true],
      ['person.born', 'date', true],
      ['person.pin', 'secret', false],
      ['person.home.zip', 'text', true],
      ['person.home.country', 'select', true],
    ]);
    expect(fields[1].title).toBe('Born on');
    expect(fields[4].choices).toEqual([
      { value: 'DEU', title: 'Germany', description: undefined },
      { value: 'FRA', title: 'France', description: undefined },
    ]);
  });

  it('knows multi-selects, free lists, hidden constants, integers, yes/no and writeOnly secrets', () => {
    const form = fixture('draft07-nested.json');
    const job = sectionFields(form, 'job', {});
    expect(job.map((f) => [f.id, f.kind])).toEqual([
      ['job.hours', 'integer'],
      ['job.skills', 'multiselect'],
      ['job.kind', 'text'],
      ['job.tags', 'list'],
    ]);
    expect(job[2].fixed).toEqual({ value: 'GP' });
    expect(sectionFields(form, 'extra', {}).map((f) => f.kind)).toEqual(['secret', 'boolean']);
  });

  it('maskSecret in the presentation makes a masked question (sandbox IBAN)', () => {
    const form = loadSchema(getSchema('Acme Deutschland GmbH'));
    const iban = sectionFields(form, 'bank', {}).find((f) => f.key === 'iban');
    expect(iban?.kind).toBe('secret');
  });
});

describe('conditionals', () => {
  const form = fixture('conditional-2020.json');

  it('a then-only field appears while its condition holds, inside allOf', () => {
    expect(ids(form, 'a', {})).toEqual(['a.mode', 'a.hasPet', 'a.weekly', 'a.pets']);
    const y = ids(form, 'a', { a: { mode: 'y' } });
    expect(y).toEqual(['a.mode', 'a.hasPet', 'a.detail', 'a.weekly', 'a.pets']);
    const detail = sectionFields(form, 'a', { a: { mode: 'y' } }).find((f) => f.key === 'detail');
    expect(detail?.required).toBe(true);
    expect(detail?.when).toBe('when mode = "y"');
  });

  it('a branch that only tightens a field keeps it visible and merges the bound', () => {
    const weekly = (doc: Record<string, unknown>) => sectionFields(form, 'a', doc).find((f) => f.key === 'weekly')!;
    expect(weekly({}).schema.maximum).toBe(60);
    expect(weekly({ a: { mode: 'y' } }).schema.maximum).toBe(40);
  });

  it('a field required by then and forbidden by else comes and goes; its value is dropped', () => {
    expect(ids(form, 'a', { a: { hasPet: false } })).not.toContain('a.petName');
    expect(ids(form, 'a', { a: { hasPet: true } })).toContain('a.petName');
    const doc: Record<string, unknown> = { a: { mode: 'y', detail: 'abc', hasPet: true, petName: 'Rex' } };
    expect(pruneHidden(form, doc)).toEqual([]);
    (doc.a as Record<string, unknown>).hasPet = false;
    (doc.a as Record<string, unknown>).mode = 'x';
    expect(pruneHidden(form, doc).sort()).toEqual(['a.detail', 'a.petName']);
    expect(doc).toEqual({ a: { mode: 'x', hasPet: false } });
  });

  it('conditions inside array items are evaluated per item', () => {
    const doc = { a: { mode: 'x', pets: [{ kind: 'cat' }, { kind: 'dog' }] } };
    const group = sectionFields(form, 'a', doc).find((f) => f.kind === 'group')!;
    expect(group.addText).toBe('Add a pet');
    expect(group.maxItems).toBe(2);
    expect(itemFields(form, group, 0, doc).map((f) => [f.id, f.required])).toEqual([
      ['a.pets.0.kind', true],
      ['a.pets.0.indoor', true],
    ]);
    expect(itemFields(form, group, 1, doc).map((f) => f.id)).toEqual(['a.pets.1.kind']);
  });

  it('sandbox forms: endDate only for fixed term, signing bonus amount only with a bonus, denomination with church tax', () => {
    const deu = loadSchema(getSchema('Acme Deutschland GmbH'));
    expect(ids(deu, 'employment', { employment: { term: 'PERMANENT' } })).not.toContain('employment.endDate');
    expect(ids(deu, 'employment', { employment: { term: 'FIXED_TERM' } })).toContain('employment.endDate');
    expect(ids(deu, 'compensation', { compensation: { hasSigningBonus: false } })).not.toContain('compensation.signingBonusAmount');
    expect(ids(deu, 'legal', { legal: { churchTaxLiable: true } })).toContain('legal.denomination');
    const ind = loadSchema(getSchema('Acme India Pvt Ltd'));
    expect(ids(ind, 'legal', { legal: { pfOptIn: false } })).not.toContain('legal.uan');
    expect(ids(ind, 'legal', { legal: { pfOptIn: true } })).toContain('legal.uan');
  });
});

describe('validation', () => {
  it('lists every error with field paths and the field titles (draft 07)', () => {
    const form = fixture('draft07-nested.json');
    const issues = validateDoc(form, { person: { name: 'A', born: '2020-02-30', home: { zip: '1' } }, job: { hours: 41, skills: [] } });
    expect(issues.map((i) => i.path).sort()).toEqual(['person.born', 'person.home.country', 'person.name', 'job.hours', 'job.skills'].sort());
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.text]));
    // The right form, a day February 2020 lacks: named as such, not as a format error.
    expect(byPath['person.born']).toBe('Born on has no day 30: February 2020 has 29 days');
    expect(byPath['person.name']).toBe('Full name must have at least 2 characters');
    expect(byPath['job.hours']).toBe('Hours must be at most 40');
    expect(byPath['person.home.country']).toBe('Country is required');
    expect(byPath['job.skills']).toBe('Skills needs at least 1 entry');
  });

  it('conditional requirements and forbidden values (2020-12)', () => {
    const form = fixture('conditional-2020.json');
    const issues = validateDoc(form, { a: { mode: 'y', hasPet: false, petName: 'Rex', weekly: 50 } });
    expect(issues.map((i) => `${i.path}: ${i.message}`).sort()).toEqual([
      'a.detail: is required',
      'a.petName: is not allowed here (its condition does not hold)',
      'a.weekly: must be at most 40',
    ]);
    expect(validateDoc(form, { a: { mode: 'x' } })).toEqual([]);
    expect(validateDoc(form, { a: { mode: 'x' }, zzz: {} }).map((i) => i.path)).toEqual(['zzz']);
  });

  it('option errors name consts and titles; one value is checked against its own schema', () => {
    const form = fixture('conditional-2020.json');
    expect(validateDoc(form, { a: { mode: 'z' } })[0].text).toBe('Mode must be one of: x (Mode X), y (Mode Y)');
    const email = validateValue(loadSchema(getSchema('Acme India Pvt Ltd')), 'contact.personalEmail', { type: 'string', format: 'email' }, 'nope');
    expect(email[0].message).toBe('must be an e-mail address');
    expect(titleAt(form, 'a.pets.0.kind')).toBe('Kind');
  });

  it('every sandbox entity form compiles and rejects an empty body', () => {
    expect(listEntities().length).toBeGreaterThanOrEqual(2);
    for (const e of listEntities()) {
      const form = loadSchema(getSchema(e.name));
      expect(validateDoc(form, {}).length).toBeGreaterThan(0);
    }
  });
});

describe('bodies and --set', () => {
  it('splits the answers into the POST and PATCH bodies, dropping empty values', () => {
    const form = fixture('conditional-2020.json');
    const doc = { a: { mode: 'x', petName: '' }, b: { note: 'hi' } };
    expect(buildBodies(form, 'E', doc)).toEqual({ create: { entity: 'E', a: { mode: 'x' } }, dynamic: { b: { note: 'hi' } } });
    expect(buildBodies(form, 'E', { a: { mode: 'x' }, b: {} }).dynamic).toBeUndefined();
    expect(dynamicKeys(form)).toEqual(['b']);
    expect(compact({ s: { o: { x: undefined }, y: [] } })).toEqual({ s: { y: [] } });
  });

  it('coerces --set values by the field type', () => {
    const form = fixture('draft07-nested.json');
    const doc: Record<string, unknown> = {};
    const issues = applySets(form, doc, ['job.hours=12', 'job.skills=go, ts', 'person.home.country=france', 'extra.remote=yes', 'job.tags=["a"]', 'person.name=Ada=Lovelace'].map(parseSetFlag));
    expect(issues).toEqual([]);
    expect(doc).toEqual({ job: { hours: 12, skills: ['go', 'ts'], tags: ['a'] }, person: { home: { country: 'FRA' }, name: 'Ada=Lovelace' }, extra: { remote: true } });
    expect(coerce(form, ['nowhere', 'x'], '12')).toEqual({ value: 12 });
    const deu = loadSchema(getSchema('Acme Deutschland GmbH'));
    expect(coerce(deu, ['legal', 'taxClass'], '3')).toEqual({ value: 3 });
    expect(coerce(deu, ['legal', 'children'], 'oops')).toEqual({ error: 'must be JSON (a list or an object)' });
  });

  it('a --set value that cannot be used is its field\'s one problem; the form\'s checks name the others', () => {
    const form = loadSchema(getSchema('Acme Deutschland GmbH'));
    const doc: Record<string, unknown> = {};
    const issues = applySets(form, doc, ['compensation.baseSalary=12345678901234567890', 'personal.firstName=Ada'].map(parseSetFlag));
    const all = issuesOf(form, { doc, issues }, form.sections.map((x) => x.key));
    expect(all.filter((i) => i.path === 'compensation.baseSalary').map((i) => i.text)).toEqual([issues[0]!.text]);
    expect(issues[0]!.text).toContain('has more digits than can be sent exactly');
    // The other fields are still checked: one left out is required, one given is not named.
    expect(all.map((i) => i.path)).toContain('personal.lastName');
    expect(all.map((i) => i.path)).not.toContain('personal.firstName');
  });

  it('a section the form does not have, named by the values file or --set, is a problem, not dropped without a word', async () => {
    const form = loadSchema(getSchema('Acme Sverige AB'));
    // The values are given, so nothing is read through the context.
    const ctx = {} as Context;
    const file = { compensation: { baseSalary: 5 }, personal: { firstName: 'Ada' } };
    const fromFile = await collectValues(form, {}, { fromFile: 'values.json', fileValues: file, sets: ['nosuch.field=1', 'personal.lastName=Lovelace', 'gone.x='].map(parseSetFlag) }, ctx);
    expect(fromFile.issues.map((i) => [i.path, i.message])).toEqual([
      ['nosuch', 'is not a field of this form'],
      ['compensation', 'is not a field of this form'],
    ]);
    // A draft's own sections (the base) are not the operator's typing now: not named.
    const fromDraft = await collectValues(form, { oldSection: { a: 1 } }, { sets: [] }, ctx);
    expect(fromDraft.issues).toEqual([]);
  });

  it('refuses malformed --set flags', () => {
    expect(() => parseSetFlag('novalue')).toThrow(UsageError);
    expect(() => parseSetFlag('=x')).toThrow(UsageError);
    expect(parseSetFlag('a.b[0].c=1').path).toEqual(['a', 'b', '0', 'c']);
  });

});
