import { describe, expect, it } from 'vitest';
import { flatten, getPath, parseFields, pickFields } from '../../../src/output/fields.js';
import { UsageError } from '../../../src/errors.js';

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
  });
});
