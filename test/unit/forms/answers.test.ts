// , the dead end left: a required object whose fields are all
// optional, left empty. It stays `{}` (so validation is satisfied and "Fix
// these answers" is never needed), while an optional object left empty is not
// sent. The same for a required section of optional fields, a required list
// with no minimum (Enter is the empty list), and list entries left empty.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema, type FormSchema } from '../../../src/forms/schema.js';
import { buildBodies } from '../../../src/forms/bodies.js';
import { compact, pruneAnswers, pruneHidden, requestDoc } from '../../../src/forms/answers.js';
import { validateDoc } from '../../../src/forms/validate.js';
import { validateSections } from '../../../src/forms/inputs.js';
import { type Wizard } from '../../../src/forms/wizard.js';
import { issuesOf, review } from '../../../src/forms/review.js';
import { colors } from '../../../src/output/colors.js';
import { scripted, type Step } from './scripted.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const form: FormSchema = loadSchema(JSON.parse(readFileSync(join(FIX, 'required-empty-2020.json'), 'utf8')));

function wizard(steps: Step[]) {
  const p = scripted(steps);
  const w: Wizard = { form, doc: {}, asked: new Set(), sections: form.sections.map((s) => s.key), prompter: p, colors: colors(false), save: () => undefined };
  return { w, p };
}

/** Everything optional left empty; one child entry (the list needs one) with no answers. */
const ALL_EMPTY: Step[] = [
  [/^Name$/, 'Ada'],
  [/^Badge PIN \(optional\)$/, ''],
  [/^Notes \(optional\)$/, ''],
  [/^Address line 2 \(optional\)$/, ''],
  [/^PO box \(optional\)$/, undefined],
  [/^Skills \[comma-separated; Enter for none\]$/, ''],
  [/^Nickname \(optional\)$/, ''],
  [/^Add another entry to Children\? \(1 so far\)$/, 'No, continue'],
  [/^Hobby \(optional\)$/, ''],
];

describe('required objects whose fields are all optional', () => {
  it('left empty through the wizard: the review offers Submit at once and the body keeps {} and [] where the form requires them', async () => {
    const { w, p } = wizard([...ALL_EMPTY, [/^Fill in Perks\? \(optional\)$/, false], [/^What next/, 'Submit']]);
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(p.notes.join('\n')).not.toContain('need attention');
    expect(issuesOf(w)).toEqual([]);
    expect(buildBodies(form, 'E', w.doc).create).toEqual({ entity: 'E', profile: { name: 'Ada', address: {}, skills: [], children: [{}] }, extras: {} });
  });

  it('an optional object of optional yes/no questions, filled in but left empty, is not sent; answered, it is', async () => {
    const empty = wizard([...ALL_EMPTY, [/^Fill in Perks\?/, true], [/^Fill in Travel\?/, true], [/^Gym \(optional\)$/, undefined], [/^Lunch \(optional\)$/, undefined], [/^What next/, 'Submit']]);
    expect(await review(empty.w)).toBe('submit');
    expect(empty.p.left()).toEqual([]);
    expect(buildBodies(form, 'E', empty.w.doc).create).not.toHaveProperty('perks');
    const answered = wizard([...ALL_EMPTY, [/^Fill in Perks\?/, true], [/^Fill in Travel\?/, true], [/^Gym/, 'No'], [/^Lunch/, undefined], [/^What next/, 'Submit']]);
    expect(await review(answered.w)).toBe('submit');
    expect(buildBodies(form, 'E', answered.w.doc).create.perks).toEqual({ travel: { gym: false } });
  });

  it('requestDoc: {} for required objects under present parents only, entries of lists kept, nothing added under an absent optional section', () => {
    expect(requestDoc(form, {})).toEqual({ profile: { address: {} }, extras: {} });
    expect(requestDoc(form, { profile: { name: 'A', address: { line2: '' }, children: [{ nickname: '' }, {}] }, perks: { travel: {} } })).toEqual({ profile: { name: 'A', address: {}, children: [{}, {}] }, extras: {} });
    expect(requestDoc(form, {}, ['extras'])).toEqual({ extras: {} });
    // compact alone still drops empty objects (an optional object left empty is not sent).
    expect(compact({ s: { o: { x: undefined }, y: [] } })).toEqual({ s: { y: [] } });
  });

  it('from a values file: a required object of optional fields may be left out; what is still missing is reported at its field', () => {
    expect(validateSections(form, { profile: { name: 'Ada', skills: [], children: [{}] } }, ['profile', 'extras', 'perks'])).toEqual([]);
    expect(validateSections(form, { profile: { name: 'Ada' } }, ['profile', 'extras', 'perks']).map((i) => i.path).sort()).toEqual(['profile.children', 'profile.skills']);
  });
});

describe('an issue about a whole object asked field by field', () => {
  it('"Fix these answers" asks its first question (a required object with minProperties), so the review can be left', async () => {
    const strict = loadSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['p'],
      properties: { p: { type: 'object', title: 'P', required: ['a'], properties: { a: { type: 'object', title: 'A', minProperties: 1, properties: { x: { type: 'string', title: 'X' }, y: { type: 'string', title: 'Y' } } } } } },
    });
    const p = scripted([[/^X/, ''], [/^Y/, ''], [/^What next/, 'Fix these answers'], [/^X/, 'filled'], [/^What next/, 'Submit']]);
    const w: Wizard = { form: strict, doc: {}, asked: new Set(), sections: ['p'], prompter: p, colors: colors(false), save: () => undefined };
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(buildBodies(strict, 'E', w.doc).create).toEqual({ entity: 'E', p: { a: { x: 'filled' } } });
  });
});

describe('requestDoc and compact, deeper', () => {
  const deep = loadSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['s'],
    properties: {
      s: {
        type: 'object',
        required: ['list', 'deep'],
        properties: {
          list: { type: 'array', items: { type: 'object', required: ['inner'], properties: { inner: { type: 'object', properties: { v: { type: 'string' } } } } } },
          deep: { type: 'object', required: ['mid'], properties: { mid: { type: 'object', required: ['leaf'], properties: { leaf: { type: 'object', properties: { z: { type: 'string' } } } } } } },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
      opt: { type: 'object', properties: { o: { type: 'object', required: ['q'], properties: { q: { type: 'object', properties: { r: { type: 'string' } } } } } } },
    },
  });

  it('required objects inside list entries and at any depth are kept as {}; under an optional object left out, nothing is added', () => {
    expect(requestDoc(deep, { s: { list: [{}, { inner: { v: '' } }, { inner: { v: 'x' } }] } })).toEqual({ s: { list: [{ inner: {} }, { inner: {} }, { inner: { v: 'x' } }], deep: { mid: { leaf: {} } } } });
    expect(requestDoc(deep, { s: {}, opt: { o: { q: { r: 'here' } } } })).toEqual({ s: { deep: { mid: { leaf: {} } } }, opt: { o: { q: { r: 'here' } } } });
    expect(requestDoc(deep, { opt: { o: {} } })).toEqual({ s: { deep: { mid: { leaf: {} } } } });
    expect(validateDoc(deep, requestDoc(deep, { s: { list: [{}] } }))).toEqual([]);
  });

  it('compact drops empty strings at every depth below the top (in lists too) and keeps list entries', () => {
    expect(compact({ tags: ['a', '', 'b'] })).toEqual({ tags: ['a', 'b'] });
    expect(compact({ s: { tags: ['', 'x'], list: [{ v: '' }, {}] } })).toEqual({ s: { tags: ['x'], list: [{}, {}] } });
  });
});

describe('pruneHidden', () => {
  const conditional = loadSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      a: {
        type: 'object',
        properties: {
          kind: { enum: ['x', 'y'] },
          nest: {
            type: 'object',
            properties: { flag: { type: 'boolean' }, extra: { type: 'string' } },
            if: { properties: { flag: { const: true } }, required: ['flag'] },
            else: { properties: { extra: false } },
          },
          items: {
            type: 'array',
            items: { type: 'object', properties: { t: { enum: ['k', 'm'] }, note: { type: 'string' } }, if: { properties: { t: { const: 'k' } }, required: ['t'] }, then: { properties: { note: false } } },
          },
        },
      },
      b: { type: 'object', properties: { only: { type: 'string' } } },
    },
    if: { properties: { a: { properties: { kind: { const: 'x' } }, required: ['kind'] } }, required: ['a'] },
    then: { properties: { b: false } },
  });
  const doc = () => ({ a: { kind: 'x', nest: { flag: false, extra: 'E' }, items: [{ t: 'k', note: 'N' }, { t: 'm', note: 'M' }] }, b: { only: 'O' } });

  it('drops what a condition hides: a whole section, a field of a nested object, a field of one list entry', () => {
    const d = doc();
    expect(pruneHidden(conditional, d).sort()).toEqual(['a.items.0.note', 'a.nest.extra', 'b']);
    expect(d).toEqual({ a: { kind: 'x', nest: { flag: false }, items: [{ t: 'k' }, { t: 'm', note: 'M' }] } });
  });

  it('pruneAnswers also forgets that the hidden questions were asked (in list entries too), so they are asked again if they come back', () => {
    const w = {
      form: conditional,
      doc: doc() as Record<string, unknown>,
      sections: ['a', 'b'],
      asked: new Set(['a.kind', 'a.nest', 'a.nest.flag', 'a.nest.extra', 'a.items', 'a.items.0.t', 'a.items.0.note', 'a.items.1.t', 'a.items.1.note', 'b.only', 'section:b', 'skip:b']),
    };
    pruneAnswers(w);
    expect([...w.asked]).toEqual(['a.kind', 'a.nest', 'a.nest.flag', 'a.items', 'a.items.0.t', 'a.items.1.t', 'a.items.1.note', 'section:b', 'skip:b']);
  });

  it('only in the sections asked for', () => {
    const d = doc();
    expect(pruneHidden(conditional, d, ['b'])).toEqual(['b']);
    expect(d.a.nest).toEqual({ flag: false, extra: 'E' });
  });
});

describe('required lists with no minimum', () => {
  it('a required list of objects, a required multi-select and a required free list left empty are sent as []; an optional list left empty is not sent', async () => {
    const lists = loadSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['l'],
      properties: {
        l: {
          type: 'object',
          title: 'Lists',
          required: ['kids', 'langs', 'tags'],
          properties: {
            kids: { type: 'array', title: 'Kids', minItems: 0, items: { type: 'object', properties: { n: { type: 'string', title: 'N' } } } },
            langs: { type: 'array', title: 'Languages', items: { enum: ['EN', 'DE'] } },
            tags: { type: 'array', title: 'Tags', items: { type: 'string' } },
            pets: { type: 'array', title: 'Pets', items: { type: 'object', properties: { n: { type: 'string', title: 'N' } } } },
          },
        },
      },
    });
    const p = scripted([[/^Add an entry to Kids\?/, false], [/^Languages$/, []], [/^Tags \[comma-separated; Enter for none\]$/, ''], [/^Add an entry to Pets\?/, false], [/^What next/, 'Submit']]);
    const w: Wizard = { form: lists, doc: {}, asked: new Set(), sections: ['l'], prompter: p, colors: colors(false), save: () => undefined };
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(p.refused).toEqual([]);
    expect(buildBodies(lists, 'E', w.doc).create).toEqual({ entity: 'E', l: { kids: [], langs: [], tags: [] } });
  });
});
