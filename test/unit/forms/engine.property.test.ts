// Property-based tests (fast-check) of the form engine against an
// independent ajv: for generated answer documents over fixture schemas, the
// engine's validation accepts exactly what ajv accepts for the whole schema,
// and a document ajv accepts is never refused question by question.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allFields } from '../../../src/forms/questions.js';
import { pruneHidden } from '../../../src/forms/answers.js';
import { getAt } from '../../../src/forms/paths.js';
import { loadSchema, type FormSchema } from '../../../src/forms/schema.js';
import { validateDoc } from '../../../src/forms/validate.js';
import { checkValue } from '../../../src/forms/ask.js';
import { getSchema } from '../../../src/sandbox/forms.js';

type Validator = (doc: unknown) => boolean;
const Ajv07 = (AjvModule as unknown as { default: new (o: object) => { compile(s: unknown): Validator } }).default;
const Ajv2020 = (Ajv2020Module as unknown as { default: new (o: object) => { compile(s: unknown): Validator } }).default;
const addFormats = (addFormatsModule as unknown as { default: (a: unknown) => void }).default;

/** The oracle: a fresh ajv of the schema's draft, with formats, compiling the whole schema. */
function oracle(raw: Record<string, unknown>): Validator {
  const ajv = String(raw.$schema ?? '').includes('draft-07') ? new Ajv07({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(raw);
}

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const readJson = (name: string) => JSON.parse(readFileSync(join(FIX, name), 'utf8')) as Record<string, unknown>;
const SEED = 0xf0e;

/** Junk of every JSON type, for any field. */
const junk = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 100 }), fc.double({ noNaN: true, min: -10, max: 100 }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
/** A value from the candidates (the first ones valid, mostly), junk, or absent. */
const pick = (...candidates: unknown[]) =>
  fc.oneof({ weight: 10, arbitrary: fc.constant(candidates[0]) }, { weight: 6, arbitrary: fc.constantFrom(...candidates) }, { weight: 1, arbitrary: junk }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Builds an object from [key, arbitrary] pairs, leaving out keys whose value is undefined. */
function obj(entries: Record<string, fc.Arbitrary<unknown>>, absent = 0): fc.Arbitrary<unknown> {
  const record = fc.record(entries).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
  return absent > 0 ? fc.oneof({ weight: 10 - absent, arbitrary: record }, { weight: absent, arbitrary: fc.constant(undefined) }) : record;
}

function doc(entries: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return obj(entries) as fc.Arbitrary<Record<string, unknown>>;
}

// Answer documents over the 2020-12 fixture: oneOf options, conditionals in allOf, `false` schemas, arrays of objects with if/then.
const conditionalDocs = doc({
  a: obj(
    {
      mode: pick('x', 'y', 'z'),
      hasPet: pick(true, false),
      petName: pick('Rex', ''),
      detail: pick('abc', 'ab', 'long enough'),
      weekly: pick(10, 40, 41, 60, 61, 39.5),
      pets: fc.oneof(
        fc.array(obj({ kind: pick('cat', 'dog', 'cow'), indoor: pick(true, false) }), { maxLength: 3 }),
        fc.constant(undefined),
      ),
    },
    1,
  ),
  b: obj({ note: pick('hello', '', 'multi\nline') }, 3),
});

// Over the draft-07 fixture: $ref into definitions, anyOf consts, formats, patterns, nested required objects, uniqueItems, const.
const nestedDocs = doc({
  person: obj(
    {
      name: pick('Ada', 'A', 'Ada Lovelace'),
      born: pick('1990-12-10', '1990-13-45', '10.12.1990'),
      pin: pick('1234', '12a4', '12345'),
      home: obj({ country: pick('DEU', 'FRA', 'ITA'), zip: pick('10117', '') }, 1),
    },
    1,
  ),
  job: obj(
    {
      hours: pick(1, 40, 0, 41, 20.5),
      skills: fc.oneof(fc.subarray(['go', 'ts', 'rust']), fc.constant(['go', 'go']), fc.constant(['cobol'])),
      kind: pick('GP', 'EOR'),
      tags: fc.oneof(fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), fc.constant(undefined)),
    },
    1,
  ),
  extra: obj({ secret: pick('s3cret'), remote: pick(true, false) }, 3),
});

// Over the sandbox's real form (Germany): a complete valid document, with a few fields replaced by junk or removed.
const deuValid = readJson('deu-values.json');
const deuPaths: string[][] = Object.entries(deuValid).flatMap(([s, v]) => Object.keys(v as object).map((k) => [s, k]));
const deuDocs = fc
  .array(fc.tuple(fc.constantFrom(...deuPaths), fc.oneof(junk, fc.constant(undefined), fc.constantFrom('2025-02-30', 'x@y', 'DE89370400440532013000', 'FIXED_TERM', 'PERMANENT', 1, 0, 99999999))), { maxLength: 3 })
  .map((edits) => {
    const d = structuredClone(deuValid) as Record<string, Record<string, unknown>>;
    for (const [[s, k], v] of edits) {
      if (v === undefined) delete d[s]![k!];
      else d[s]![k!] = v;
    }
    return d as Record<string, unknown>;
  });

const cases: [string, Record<string, unknown>, fc.Arbitrary<Record<string, unknown>>, number][] = [
  ['2020-12 conditionals (conditional-2020.json)', readJson('conditional-2020.json'), conditionalDocs, 400],
  ['draft-07 nested, $ref, formats (draft07-nested.json)', readJson('draft07-nested.json'), nestedDocs, 400],
  ['the sandbox form for Acme Deutschland GmbH', getSchema('Acme Deutschland GmbH') as Record<string, unknown>, deuDocs, 150],
];

/** Every visible question's answer passes the engine's own check (what the wizard asks and refuses). */
function acceptedQuestionByQuestion(form: FormSchema, d: Record<string, unknown>): string[] {
  const refused: string[] = [];
  for (const f of allFields(form, d)) {
    const section = f.path[0]!;
    // An optional section left out is not asked (the wizard asks whether to fill it first).
    if (d[section] === undefined) continue;
    const r = checkValue({ form }, f, getAt(d, f.path));
    if (r !== true) refused.push(`${f.id}: ${r}`);
  }
  return refused;
}

describe.each(cases)('form engine vs ajv: %s', (_name, raw, docs, numRuns) => {
  const form = loadSchema(raw);
  const ajvAccepts = oracle(raw);

  it('the generator reaches both verdicts (guards the properties)', () => {
    const sample = fc.sample(docs, { numRuns: 300, seed: SEED });
    const verdicts = new Set(sample.map((d) => ajvAccepts(d)));
    expect(verdicts).toEqual(new Set([true, false]));
  });

  it('validateDoc accepts exactly the documents ajv accepts for the whole schema', () => {
    fc.assert(
      fc.property(docs, (d) => {
        const issues = validateDoc(form, d);
        expect(issues.length === 0, `ajv ${ajvAccepts(d)}; engine: ${issues.map((i) => i.text).join('; ')}`).toBe(ajvAccepts(d));
        // Every refusal names a field, with words.
        for (const i of issues) expect(i.path).toMatch(/\S/);
      }),
      { numRuns, seed: SEED },
    );
  });

  it('a document ajv accepts is never refused question by question, and stays valid once hidden answers are pruned', () => {
    fc.assert(
      fc.property(docs, (d) => {
        fc.pre(ajvAccepts(d));
        expect(acceptedQuestionByQuestion(form, d)).toEqual([]);
        // Answers a condition hides (json-schema-form semantics) are dropped; that never makes a valid document invalid.
        const copy = structuredClone(d);
        pruneHidden(form, copy);
        expect(ajvAccepts(copy)).toBe(true);
        expect(validateDoc(form, copy)).toEqual([]);
      }),
      { numRuns, seed: SEED },
    );
  });

  it('pruning hidden answers never turns an accepted document into a refused one', () => {
    fc.assert(
      fc.property(docs, (d) => {
        const copy = structuredClone(d);
        pruneHidden(form, copy);
        if (ajvAccepts(d)) expect(ajvAccepts(copy)).toBe(true);
      }),
      { numRuns: Math.min(numRuns, 200), seed: SEED },
    );
  });

  it('an unknown top-level key is the one deliberate difference: ajv allows it, the engine names it', () => {
    fc.assert(
      fc.property(docs, fc.stringMatching(/^[a-z]{3,8}$/), (d, key) => {
        fc.pre(!(key in (raw.properties as object)) && ajvAccepts(d));
        const withExtra = { ...d, [key]: { x: 1 } };
        expect(ajvAccepts(withExtra)).toBe(true);
        expect(validateDoc(form, withExtra).map((i) => i.path)).toEqual([key]);
      }),
      { numRuns: 50, seed: SEED },
    );
  });
});
