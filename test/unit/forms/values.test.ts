// The one text -> value converter (typed answers, --set) and --set parsing, case by case.
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { applySets, coerce, parseNumberText, parseSetFlag, parseValuesText, schemasAt, toValue } from '../../../src/forms/values.js';
import { UsageError } from '../../../src/errors.js';

const form = loadSchema({
  type: 'object',
  properties: {
    s: {
      type: 'object',
      properties: {
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        nb: { type: ['boolean', 'null'] },
        pick: { type: 'string', oneOf: [{ const: 'FT', title: 'Full time' }, { const: 'pt', title: 'Part time' }] },
        level: { type: 'integer', enum: [1, 2, 3] },
        tags: { type: 'array', items: { type: 'string' } },
        nums: { type: 'array', items: { type: 'integer' } },
        flags: { type: 'array', items: { type: 'boolean' } },
        obj: { type: 'object' },
        rows: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        day: { type: 'string', format: 'date' },
        nothing: { type: 'null' },
        text: { type: 'string' },
      },
    },
  },
});
const at = (key: string) => schemasAt(form, ['s', key])[0];
const conv = (key: string, text: string) => toValue(form, at(key), text);

describe('toValue', () => {
  it('numbers and whole numbers, with the expected form in refusals', () => {
    expect(conv('n', ' 42 ')).toEqual({ ok: true, value: 42 });
    expect(conv('n', '+5')).toEqual({ ok: true, value: 5 });
    expect(conv('n', '1.')).toEqual({ ok: true, value: 1 });
    expect(conv('n', '1e-2')).toEqual({ ok: true, value: 0.01 });
    expect(conv('n', '-2,400,000.75')).toEqual({ ok: true, value: -2400000.75 });
    expect(conv('n', '2\u00a0400\u00a0000')).toEqual({ ok: true, value: 2400000 });
    expect(conv('n', '2\u202f400')).toEqual({ ok: true, value: 2400 });
    expect(conv('n', '1e999')).toEqual({ ok: false, message: expect.stringMatching(/^must be a number such as/) });
    expect(conv('i', '12,34,567')).toEqual({ ok: true, value: 1234567 });
    expect(conv('i', '1.5')).toEqual({ ok: false, message: 'must be a whole number' });
    expect(conv('i', 'ten')).toEqual({ ok: false, message: 'must be a whole number such as 2400000 (digits may be grouped with commas: 2,400,000 or 24,00,000)' });
    expect(conv('n', '')).toEqual({ ok: true, value: undefined });
    expect(conv('n', '   ')).toEqual({ ok: true, value: undefined });
  });

  it('a number is sent as typed or refused, never rounded (typed, --set and CSV cells alike), the value never quoted', () => {
    const refused = { ok: false, message: 'has more digits than can be sent exactly: a number has at most 15 to 17 significant digits, and partner never sends one rounded' };
    expect(conv('n', '12345678901234567890')).toEqual(refused);
    expect(conv('i', '9,007,199,254,740,993')).toEqual(refused);
    expect(conv('n', '0.1000000000000000055511151231257827')).toEqual(refused);
    expect(conv('n', '1234567890'.repeat(5))).toEqual(refused);
    // What a double writes back as typed goes through, in every spelling the form takes.
    expect(conv('n', '0.1')).toEqual({ ok: true, value: 0.1 });
    expect(conv('n', '-.5')).toEqual({ ok: true, value: -0.5 });
    expect(conv('n', '+.5')).toEqual({ ok: true, value: 0.5 });
    expect(conv('n', '1.50')).toEqual({ ok: true, value: 1.5 });
    expect(conv('n', '1E5')).toEqual({ ok: true, value: 100000 });
    expect(conv('i', '9,007,199,254,740,991')).toEqual({ ok: true, value: 9007199254740991 });
    expect(parseNumberText(' 2,400,000 ')).toBe(2400000);
  });

  it('a values file: its numbers as written, or refused naming the field (never rounded, never quoted)', () => {
    expect(parseValuesText('{"s":{"n":1.50,"nums":[1.0,2]}}', 'v.json')).toEqual({ s: { n: 1.5, nums: [1, 2] } });
    expect(() => parseValuesText('{"s":{"n":12345678901234567890}}', 'v.json')).toThrow(UsageError);
    expect(() => parseValuesText('{"s":{"n":12345678901234567890}}', 'v.json')).toThrow('s.n in v.json has more digits than can be sent exactly: a number has at most 15 to 17 significant digits');
    expect(() => parseValuesText('{"s":{"rows":[{"a":1e400}]}}', 'v.json')).toThrow('s.rows.0.a in v.json is past the largest number that can be sent');
  });

  it('separators: one kind throughout, every group in place', () => {
    expect(parseNumberText('1,000,000')).toBe(1000000);
    expect(parseNumberText('10,00,00,000')).toBe(100000000);
    expect(parseNumberText('1_000')).toBe(1000);
    expect(parseNumberText('1,000_000')).toBeUndefined();
    expect(parseNumberText('1000,000')).toBeUndefined();
    expect(parseNumberText('1,00')).toBeUndefined();
    expect(parseNumberText('1,000.')).toBeUndefined();
    expect(parseNumberText('--1')).toBeUndefined();
    expect(parseNumberText('1,000e3')).toBeUndefined();
  });

  it('a separator that can be read two ways is refused, naming both readings and what to type', () => {
    for (const [text, decimal, thousands] of [['85.000', 85, 85000], ['85,000', 85, 85000], ['1.234', 1.234, 1234], ['-12,500', -12.5, -12500], ['999.999', 999.999, 999999]] as const) {
      expect(parseNumberText(text), text).toBeUndefined();
      const c = conv('n', text);
      expect(c.ok, text).toBe(false);
      expect((c as { message: string }).message, text).toMatch(new RegExp(`^is ambiguous: "${text.replace(/[.+-]/g, '\\$&')}" could be ${decimal} or ${thousands}\\. Type ${thousands} for ${thousands}, or `));
    }
    expect(conv('n', '85.000')).toEqual({ ok: false, message: 'is ambiguous: "85.000" could be 85 or 85000. Type 85000 for 85000, or 85 for 85 (digits only; a dot marks decimals)' });
    // The decimal reading typed so it reads one way only, and accepted as such.
    expect(conv('n', '1.234')).toMatchObject({ message: expect.stringContaining('or 1.2340 for 1.234') });
    expect(conv('n', '1.2340')).toEqual({ ok: true, value: 1.234 });
    expect(conv('i', '85.000')).toMatchObject({ ok: false, message: expect.stringMatching(/^is ambiguous/) });
    // One way only: a leading 0, other group sizes, several groups, a separator that is never a decimal mark.
    for (const [text, n] of [['0.500', 0.5], ['85.00', 85], ['85.0000', 85], ['1234.567', 1234.567], ['85,000,000', 85000000], ['85 000', 85000], ["85'000", 85000], ['85_000', 85000], ['1,234.5', 1234.5], ['85000', 85000]] as const) expect(conv('n', text), text).toEqual({ ok: true, value: n });
    expect(parseNumberText('2.400.000')).toBeUndefined();
    // --set and spreadsheet cells go through coerce: the same rule.
    expect(coerce(form, ['s', 'n'], '85.000')).toEqual({ error: expect.stringMatching(/^is ambiguous: "85\.000" could be 85 or 85000/) });
    expect(applySets(form, {}, [parseSetFlag('s.n=85,000')]).map((i) => i.message)).toEqual([expect.stringMatching(/^is ambiguous/)]);
  });

  it('yes/no in every usual spelling, for booleans and nullable booleans alike', () => {
    for (const t of ['true', 'YES', 'y', '1', 'On']) expect(conv('b', t), t).toEqual({ ok: true, value: true });
    for (const t of ['false', 'No', 'N', '0', 'off']) expect(conv('nb', t), t).toEqual({ ok: true, value: false });
    expect(conv('b', 'maybe')).toEqual({ ok: false, message: 'must be yes or no (also y/n, true/false, 1/0)' });
  });

  it('choices by value, value in any case, or title; other text is kept for validation to name the options', () => {
    expect(conv('pick', 'FT')).toEqual({ ok: true, value: 'FT' });
    expect(conv('pick', 'ft')).toEqual({ ok: true, value: 'FT' });
    expect(conv('pick', 'PT')).toEqual({ ok: true, value: 'pt' });
    expect(conv('pick', 'part TIME')).toEqual({ ok: true, value: 'pt' });
    expect(conv('pick', ' other ')).toEqual({ ok: true, value: ' other ' });
    expect(conv('level', '2')).toEqual({ ok: true, value: 2 });
    expect(conv('level', '7')).toEqual({ ok: true, value: 7 });
    expect(conv('level', 'x')).toEqual({ ok: true, value: 'x' });
  });

  it('lists: comma-separated items converted one by one, or JSON', () => {
    expect(conv('tags', 'a, b,,c ')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(conv('nums', '1, 2')).toEqual({ ok: true, value: [1, 2] });
    expect(conv('flags', 'yes,no')).toEqual({ ok: true, value: [true, false] });
    expect(conv('nums', '1, two')).toEqual({ ok: false, message: 'has "two", which must be a whole number such as 2400000 (digits may be grouped with commas: 2,400,000 or 24,00,000)' });
    expect(conv('tags', '["x", "y"]')).toEqual({ ok: true, value: ['x', 'y'] });
    expect(conv('tags', '[oops')).toEqual({ ok: false, message: 'must be a JSON list or comma-separated values' });
  });

  it('objects and lists of objects as JSON; dates as YYYY-MM-DD; null for a null type; text as typed', () => {
    expect(conv('obj', '{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(conv('obj', '{a:1}')).toEqual({ ok: false, message: 'must be JSON (a list or an object)' });
    expect(conv('rows', '[{"a":"x"}]')).toEqual({ ok: true, value: [{ a: 'x' }] });
    expect(conv('day', '2025-01-31')).toEqual({ ok: true, value: '2025-01-31' });
    expect(conv('day', '31.01.2025')).toEqual({ ok: false, message: 'must be a date (YYYY-MM-DD)' });
    // The right form, a date the calendar lacks: named for its month or day, not its form.
    expect(conv('day', '1990-13-01')).toEqual({ ok: false, message: 'has no month 13 (months run from 01 to 12)' });
    expect(conv('day', '2023-02-29')).toEqual({ ok: false, message: 'has no day 29: February 2023 has 28 days' });
    expect(conv('day', '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(conv('nothing', 'null')).toEqual({ ok: true, value: null });
    expect(conv('text', 'null')).toEqual({ ok: true, value: 'null' });
    expect(conv('text', ' Ada ')).toEqual({ ok: true, value: ' Ada ' });
  });
});

describe('international text', () => {
  const nfdForm = loadSchema({
    type: 'object',
    properties: {
      s: {
        type: 'object',
        properties: {
          city: { type: 'string', enum: ['Z\u00fcrich', 'M\u00fcnchen'] },
          site: { type: 'string', oneOf: [{ const: 'ZRH', title: 'Z\u00fcrich office' }, { const: 'BOM', title: 'Mumbai office' }] },
          decomposed: { type: 'string', enum: ['Jose\u0301'] },
          cities: { type: 'array', items: { type: 'string', enum: ['Z\u00fcrich', 'M\u00fcnchen'] } },
        },
      },
    },
  });
  const c2 = (key: string, text: string) => toValue(nfdForm, schemasAt(nfdForm, ['s', key])[0], text);

  it('a choice typed in NFD matches its NFC spelling and the reverse; the choice as the schema spells it is sent', () => {
    expect(c2('city', 'Zu\u0308rich')).toEqual({ ok: true, value: 'Z\u00fcrich' });
    expect(c2('city', 'zu\u0308RICH')).toEqual({ ok: true, value: 'Z\u00fcrich' });
    expect(c2('site', 'ZU\u0308RICH OFFICE')).toEqual({ ok: true, value: 'ZRH' });
    expect(c2('decomposed', 'Jos\u00e9')).toEqual({ ok: true, value: 'Jose\u0301' });
    expect(c2('cities', 'Mu\u0308nchen, Z\u00fcrich')).toEqual({ ok: true, value: ['M\u00fcnchen', 'Z\u00fcrich'] });
    // Not a choice under any spelling: kept as typed, for validation to name the options.
    expect(c2('city', 'Zurich')).toEqual({ ok: true, value: 'Zurich' });
    // --set and CSV cells read through coerce: the same matching.
    expect(coerce(nfdForm, ['s', 'city'], 'Mu\u0308nchen')).toEqual({ value: 'M\u00fcnchen' });
  });

  it('digits typed with an IME are read as their ASCII values in numbers, whole numbers and dates', () => {
    expect(conv('n', '٦٠٠٠٠')).toEqual({ ok: true, value: 60000 });
    expect(conv('n', '۶۰۰۰۰')).toEqual({ ok: true, value: 60000 });
    expect(conv('i', '६०')).toEqual({ ok: true, value: 60 });
    expect(conv('n', '１２．５')).toEqual({ ok: true, value: 12.5 });
    expect(conv('n', '٣٫٥')).toEqual({ ok: true, value: 3.5 });
    expect(conv('n', '２,４００,０００')).toEqual({ ok: true, value: 2400000 });
    expect(conv('day', '１９９０-０１-０１')).toEqual({ ok: true, value: '1990-01-01' });
    expect(conv('day', '۱۳۶۹-۱۰-۱۱')).toEqual({ ok: true, value: '1369-10-11' });
    expect(conv('level', '٢')).toEqual({ ok: true, value: 2 });
    expect(conv('nums', '١, ٢')).toEqual({ ok: true, value: [1, 2] });
    expect(coerce(form, ['s', 'i'], '１２３')).toEqual({ value: 123 });
  });

  it('the ambiguity rules still hold for digits of other scripts', () => {
    expect(conv('n', '٨٥.٠٠٠')).toEqual({ ok: false, message: 'is ambiguous: "85.000" could be 85 or 85000. Type 85000 for 85000, or 85 for 85 (digits only; a dot marks decimals)' });
    expect(conv('n', '８５，０００')).toMatchObject({ ok: false, message: expect.stringMatching(/^is ambiguous/) });
    expect(conv('i', '٣٫٥')).toEqual({ ok: false, message: 'must be a whole number' });
    expect(conv('day', '٣١.٠١.٢٠٢٥')).toEqual({ ok: false, message: 'must be a date (YYYY-MM-DD)' });
  });

  it('text fields keep exactly what was typed, digits and joiners included', () => {
    for (const t of ['١٢٣', 'علی\u200cرضا 👩🏽\u200d💻', 'Jose\u0301', '１９９０']) expect(conv('text', t)).toEqual({ ok: true, value: t });
  });
});

describe('--set', () => {
  it('parses section.field=value, with [n] for list items, and refuses anything else', () => {
    expect(parseSetFlag(' s.n =1=2')).toEqual({ path: ['s', 'n'], text: '1=2', raw: ' s.n =1=2' });
    expect(parseSetFlag('s.rows[1].a=x').path).toEqual(['s', 'rows', '1', 'a']);
    for (const bad of ['s.n', '=1', 's..n=1', '.s=1', 's.=1', 'a b=1']) {
      expect(() => parseSetFlag(bad), bad).toThrow(UsageError);
    }
    expect(() => parseSetFlag('x'.repeat(100))).toThrow(`--set must look like section.field=value, not "${'x'.repeat(60)}"`);
  });

  it('unknown paths keep JSON literals typed and other text as is; an empty value removes the field', () => {
    expect(schemasAt(form, ['s', 'nope'])).toEqual([]);
    expect(schemasAt(form, ['zz', 'nope'])).toEqual([]);
    expect(coerce(form, ['s', 'nope'], '-1.5')).toEqual({ value: -1.5 });
    expect(coerce(form, ['s', 'nope'], 'true')).toEqual({ value: true });
    expect(coerce(form, ['s', 'nope'], '{"a":1}')).toEqual({ value: { a: 1 } });
    expect(coerce(form, ['s', 'nope'], '{a:1}')).toEqual({ value: '{a:1}' });
    expect(coerce(form, ['s', 'nope'], 'x1')).toEqual({ value: 'x1' });
    const doc: Record<string, unknown> = { s: { n: 1, text: 'a' } };
    expect(applySets(form, doc, ['s.n=', 's.b=nah', 's.text=b'].map(parseSetFlag)).map((i) => [i.path, i.message])).toEqual([['s.b', 'must be yes or no (also y/n, true/false, 1/0)']]);
    expect(doc).toEqual({ s: { text: 'b' } });
  });
});
