import { describe, expect, it } from 'vitest';
import { flatten, getPath, keptDotPaths, parseFields, pickFields } from '../../../src/output/fields.js';
import { UsageError } from '../../../src/errors.js';
import { failure, nested } from '../../helpers/nested.js';

describe('fields', () => {
  const v = { a: 1, b: { c: 'x', d: null }, list: [{ degree: 'BSc' }] };
  it('reads dot paths including array indexes', () => {
    expect(getPath(v, 'b.c')).toBe('x');
    expect(getPath(v, 'list.0.degree')).toBe('BSc');
    expect(getPath(v, 'nope.deeper')).toBeUndefined();
  });
  it('parses and rejects --fields lists', () => {
    expect(parseFields('a, b.c')).toEqual(['a', 'b.c']);
    expect(() => parseFields('a,,b')).toThrow(UsageError);
    expect(() => parseFields('a..b')).toThrow(UsageError);
  });
  it('picks nested fields, missing ones as null', () => {
    expect(pickFields(v, ['b.c', 'a', 'zz'])).toEqual({ b: { c: 'x' }, a: 1, zz: null });
  });
  it('flattens to dot paths', () => {
    expect(flatten(v)).toEqual({ a: 1, 'b.c': 'x', 'b.d': null, 'list.0.degree': 'BSc' });
    expect(flatten({ e: [], o: {} })).toEqual({ e: [], o: {} });
  });
  it('makes each dot path once for every record alike, and keeps at most 50,000 of them, flattening exactly past that', () => {
    const record = { id: 1, zq: { a: 'x', b: [{ c: 2 }] } };
    flatten(record);
    const kept = keptDotPaths();
    // Ten more records of the same shape: their paths are the ones made for the first.
    for (let i = 0; i < 10; i++) expect(flatten({ ...record, id: i })).toEqual({ id: i, 'zq.a': 'x', 'zq.b.0.c': 2 });
    expect(keptDotPaths()).toBe(kept);
    // An answer with any number of keys (they are the API's): the table starts again rather than grow.
    const wide: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) wide[`k${i}`] = i;
    const flat = flatten({ w: wide });
    expect(Object.keys(flat)).toHaveLength(60_000);
    expect([flat['w.k0'], flat['w.k49999'], flat['w.k50000'], flat['w.k59999']]).toEqual([0, 49_999, 50_000, 59_999]);
    expect(keptDotPaths()).toBeLessThanOrEqual(50_000);
    expect(flatten(record)).toEqual({ id: 1, 'zq.a': 'x', 'zq.b.0.c': 2 });
  });
  it('flattens 64 levels; refuses 65 or 100,000 with NESTED_TOO_DEEP naming the path, never a stack overflow', async () => {
    expect(Object.keys(flatten({ a: nested(63) }))).toEqual([`a${'.0'.repeat(63)}`]);
    expect(flatten({ a: nested(62, []) })).toEqual({ [`a${'.0'.repeat(62)}`]: [] });
    for (const deep of [{ a: nested(64) }, { a: nested(63, {}) }, { a: nested(100_000) }]) {
      const err = await failure(() => flatten(deep));
      expect(err.code).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at a\.0\.0\.0\.0\.… is nested more than 64 levels deep/);
    }
  });
  it('accepts names in any script, NFC-normalised; refuses empty segments, controls, spaces and invisible characters', () => {
    expect(parseFields('compensation.allowances.通勤手当,이름,名前')).toEqual(['compensation.allowances.通勤手当', '이름', '名前']);
    expect(parseFields('Zoe\u0301.ﾃｽﾄ,علی\u200cرضا,x_1$-y')).toEqual(['Zo\u00e9.ﾃｽﾄ', 'علی\u200cرضا', 'x_1$-y']);
    for (const bad of ['a,,b', 'a..b', '.a', 'a.', '通勤 手当', 'a\u0007b', 'a\u200bb', 'ad\u200dmin', 'a\u202eb', '\u200cعلی', 'a/b', 'a"b', 'a\nb']) {
      expect(() => parseFields(bad), JSON.stringify(bad)).toThrow(UsageError);
    }
    // The message never carries the control character it refuses.
    expect(() => parseFields('a\u001b[2Jb')).toThrow(/^Invalid --fields "ab"$/);
  });
  it('reads a key spelt in another normalisation form, both ways', () => {
    const nfd = { ['Zoe\u0301']: { ['通勤手当']: 1 } };
    const nfc = { ['Zo\u00e9']: 2 };
    expect(getPath(nfd, 'Zo\u00e9.通勤手当')).toBe(1);
    expect(getPath(nfc, parseFields('Zoe\u0301')![0]!)).toBe(2);
    expect(getPath(nfc, 'Zoe\u0301')).toBe(2);
    expect(getPath({ a: 1 }, 'Zo\u00e9')).toBeUndefined();
    expect(pickFields(nfd, ['Zo\u00e9.通勤手当'])).toEqual({ ['Zo\u00e9']: { ['通勤手当']: 1 } });
  });
});
