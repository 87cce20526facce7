import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasNumberToKeep, parseJsonExact, parseKeepingNumbers } from '../../../src/json/parse-exact.js';
import { stringifyExact } from '../../../src/json/stringify-exact.js';
import { LosslessNumber, decimalKey, exactNumber, isExact, isScalar } from '../../../src/json/lossless-number.js';

const AS_SENT = ['9007199254740993', '1e400', '-0', '1.0', '12345678901234567890', '0.1000000000000000055511151231257827', '1E5', '1.50', '0.0000001', '-0.0', '2.5e-3', '123456789.123456789'];

describe('parseJsonExact', () => {
  it.each(AS_SENT)('keeps %s as sent, in an object, an array and alone', (token) => {
    const doc = parseJsonExact(`{"a":${token},"b":[${token}, ${token}]}`) as { a: unknown; b: unknown[] };
    expect(doc.a).toBeInstanceOf(LosslessNumber);
    expect(String(doc.a)).toBe(token);
    expect(stringifyExact(doc)).toBe(`{"a":${token},"b":[${token},${token}]}`);
    expect(stringifyExact(doc, 2)).toBe(`{\n  "a": ${token},\n  "b": [\n    ${token},\n    ${token}\n  ]\n}`);
    expect(stringifyExact(parseJsonExact(` ${token} `))).toBe(token);
  });

  it('gives numbers that print back as sent as plain numbers, beside the kept ones', () => {
    const doc = parseJsonExact('{"big":9007199254740993,"n":42,"f":0.5,"neg":-7,"max":9007199254740991,"tiny":0.000001}') as Record<string, unknown>;
    expect(doc).toMatchObject({ n: 42, f: 0.5, neg: -7, max: 9007199254740991, tiny: 0.000001 });
    expect(doc.big).toBeInstanceOf(LosslessNumber);
  });

  it('takes the JSON.parse path for an answer with no such number (the same values, no LosslessNumber)', () => {
    const text = '{"data":[{"id":"3e5a0c1e-1d2f-4e00-9e10-000000000000","at":"10:30:00.000Z","n":[1,2.5,-3],"s":"1.0, 1e400"}],"pagination":{"currentPage":1}}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it.each([
    ['{"s":"1.0","t":"9007199254740993"}', false],
    ['{"s":"x\\"1.0","n":1}', false],
    ['{"s":"x\\\\","n":1.0}', true],
    ['["\\u0022", 1e5]', true],
    ['{"n":-5,"m":123456789012345,"f":0.25}', false],
    ['{"n":1234567890123456}', false],
    ['{"n":12345678901234567}', true],
    ['{"s":"never closed, 1.0', false],
  ])('hasNumberToKeep(%s) is %s: strings (escapes too) are passed over', (text, want) => {
    expect(hasNumberToKeep(text)).toBe(want);
  });

  it('reads a string that looks like a kept number as the string it is', () => {
    expect(parseJsonExact('{"s":", 1.0 ","t":"[1e400]"}')).toEqual({ s: ', 1.0 ', t: '[1e400]' });
  });

  it('makes "__proto__" an own key, as JSON.parse, never the prototype', () => {
    const doc = parseJsonExact('{"__proto__":{"polluted":1.0},"x":1e400}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(stringifyExact(doc)).toBe('{"__proto__":{"polluted":1.0},"x":1e400}');
  });

  it('keeps the last of two equal keys in the first one\'s place, as JSON.parse', () => {
    expect(stringifyExact(parseJsonExact('{"a":1.0,"b":2,"a":3.0}'))).toBe('{"a":3.0,"b":2}');
  });

  it('parses nesting far deeper than any stack, as JSON.parse does', () => {
    const depth = 100_000;
    const doc = parseKeepingNumbers(`${'['.repeat(depth)}1.0${']'.repeat(depth)}`);
    let v = doc;
    for (let k = 0; k < depth; k++) v = (v as unknown[])[0];
    expect(String(v)).toBe('1.0');
  });

  it.each(['[1,]', '{"a":1,}', '01', '[1 2]', '{"a" 1}', '"abc', '', '[', 'tru', '1.', '-', '{"a":1}x', '[1.0,]', '{"a":1.0 "b":2}', '["\u0001"]', '{1:2}', '[.5]', '[1e]', '[+1]', '[1.0}'])('refuses %j like JSON.parse', (bad) => {
    expect(() => JSON.parse(bad)).toThrow(SyntaxError);
    expect(() => parseKeepingNumbers(bad)).toThrow(SyntaxError);
    expect(() => parseJsonExact(bad)).toThrow(SyntaxError);
  });

  it('gives what JSON.parse gives for any JSON whose numbers print back as sent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(parseKeepingNumbers(text)).toEqual(JSON.parse(text));
        expect(parseJsonExact(JSON.stringify(v, null, 2))).toEqual(JSON.parse(text));
      }),
    );
  });

  it('keeps every number token that JavaScript would print otherwise (the fast path never lets one through)', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const token = fc
      .tuple(fc.boolean(), fc.oneof(fc.constant('0'), fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 25)).map(([a, b]) => `${a}${b}`)), fc.option(digits(1, 25)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4))))
      .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`);
    fc.assert(
      fc.property(token, fc.constantFrom('[%]', '{"k":%}', '{"a":"x", "k" :\n%\n}', '[1,%,2]'), (tok, shape) => {
        const text = stringifyExact(parseJsonExact(shape.replace('%', tok)));
        expect(text.includes(tok)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('prints back any JSON text with its numbers as sent (compact input, compact output)', () => {
    const token = fc.oneof(fc.constantFrom(...AS_SENT), fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), fc.bigInt().map(String));
    const doc = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, token, fc.string().map((s) => JSON.stringify(s)), fc.array(tie('v')).map((a) => `[${a.join(',')}]`), fc.array(fc.tuple(fc.string(), tie('v'))).map((es) => `{${es.map(([k, x]) => `${JSON.stringify(`k${k}`)}:${x}`).join(',')}}`)),
    })).v as fc.Arbitrary<string>;
    fc.assert(
      fc.property(doc, (text) => {
        // Unique keys only: JSON.stringify of a parsed document writes each key once.
        fc.pre(JSON.stringify(JSON.parse(text)).length === text.length || !text.includes('{'));
        expect(stringifyExact(parseJsonExact(text))).toBe(text);
      }),
    );
  });
});

describe('stringifyExact', () => {
  it('is JSON.stringify for data without LosslessNumbers', () => {
    const v = { a: [1, 'x', null, { b: true }], c: undefined, d: new Date(0) };
    expect(stringifyExact(v)).toBe(JSON.stringify(v));
    expect(stringifyExact(v, 2)).toBe(JSON.stringify(v, null, 2));
    expect(stringifyExact(undefined)).toBeUndefined();
  });

  it('writes a string that imitates the marker as the string it is', () => {
    const v = { n: new LosslessNumber('1.0'), s: '\u0000#abc#0' };
    expect(stringifyExact(v)).toBe('{"n":1.0,"s":"\\u0000#abc#0"}');
  });

  it('leaves JSON.stringify as it was, after it returned and after it threw', () => {
    const n = new LosslessNumber('1.50');
    expect(stringifyExact({ n })).toBe('{"n":1.50}');
    expect(JSON.stringify({ n })).toBe('{"n":{"source":"1.50"}}');
    const circular: Record<string, unknown> = { n };
    circular.self = circular;
    expect(() => stringifyExact(circular)).toThrow(TypeError);
    expect(JSON.stringify({ n })).toBe('{"n":{"source":"1.50"}}');
    expect(stringifyExact([n, { m: new LosslessNumber('9007199254740993') }])).toBe('[1.50,{"m":9007199254740993}]');
  });
});

describe('LosslessNumber and exactNumber', () => {
  it('shows its text and compares by its nearest double', () => {
    const n = new LosslessNumber('1.50');
    expect(`${n}`).toBe('1.50');
    expect(+n).toBe(1.5);
    expect(isScalar(n)).toBe(true);
    expect(isScalar({})).toBe(false);
    expect(isScalar([])).toBe(false);
    expect(isScalar(null)).toBe(true);
    expect(isScalar(3)).toBe(true);
  });

  it.each([
    ['1.0', 1],
    ['1E5', 100000],
    ['1.50', 1.5],
    ['-0', -0],
    ['-0.0', -0],
    ['2.5e-3', 0.0025],
    ['0.0000001', 1e-7],
  ])('computes with %s, which a double holds exactly (%d)', (source, value) => {
    expect(isExact(source)).toBe(true);
    expect(exactNumber(new LosslessNumber(source), 'x')).toBe(value);
  });

  it.each(['9007199254740993', '1e400', '-1e400', '12345678901234567890', '0.1000000000000000055511151231257827', '1e-400'])('refuses to compute with %s: NUMBER_NOT_EXACT naming where', (source) => {
    expect(isExact(source)).toBe(false);
    expect(() => exactNumber(new LosslessNumber(source), 'the minimum of salary')).toThrow(expect.objectContaining({ code: 'NUMBER_NOT_EXACT', message: expect.stringContaining(`${source} for the minimum of salary`) }));
  });

  it('passes anything else through', () => {
    expect(exactNumber(5, 'x')).toBe(5);
    expect(exactNumber('5', 'x')).toBe('5');
    expect(exactNumber(undefined, 'x')).toBeUndefined();
  });

  it('spells one decimal value one way', () => {
    expect(decimalKey('1.50')).toBe(decimalKey('15e-1'));
    expect(decimalKey('100')).toBe(decimalKey('1E2'));
    expect(decimalKey('0.000')).toBe('0');
    expect(decimalKey('-0')).toBe('-0');
    expect(decimalKey('12')).not.toBe(decimalKey('1.2'));
    expect(decimalKey('1e99999999999999999999')).toBe('1e99999999999999999999');
  });
});
