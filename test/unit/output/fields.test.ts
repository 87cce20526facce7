import { describe, expect, it } from 'vitest';
import { flatten, getPath, parseFields, pickFields } from '../../../src/output/fields.js';
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
  it('flattens 64 levels; refuses 65 or 100,000 with NESTED_TOO_DEEP naming the path, never a stack overflow', async () => {
    expect(Object.keys(flatten({ a: nested(63) }))).toEqual([`a${'.0'.repeat(63)}`]);
    expect(flatten({ a: nested(62, []) })).toEqual({ [`a${'.0'.repeat(62)}`]: [] });
    for (const deep of [{ a: nested(64) }, { a: nested(63, {}) }, { a: nested(100_000) }]) {
      const err = await failure(() => flatten(deep));
      expect(err.code).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at a\.0\.0\.0\.0\.… is nested more than 64 levels deep/);
    }
  });
});
