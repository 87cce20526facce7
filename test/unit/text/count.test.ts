import { describe, expect, it } from 'vitest';
import { countOf, formatCount } from '../../../src/text/count.js';

describe('formatCount', () => {
  it('writes what toLocaleString("en-US") writes, for every digit count and sign', () => {
    const values = [0, 1, -1, 7, 12, 999, 1000, -1000, 1001, 20000, 99999, 100000, 999999, 1000000, -1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (let digits = 1, x = 7; digits <= 16; digits++, x = x * 10 + (digits % 9)) values.push(x, -x);
    for (const n of values) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('falls back to toLocaleString for what is not a safe integer', () => {
    for (const n of [1.5, 1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });

  it('groups by three from the right', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-20000)).toBe('-20,000');
  });
});

describe('countOf', () => {
  it('puts the noun after the grouped count, plural unless the count is 1', () => {
    expect(countOf(1, 'employee')).toBe('1 employee');
    expect(countOf(0, 'row')).toBe('0 rows');
    expect(countOf(20000, 'employee')).toBe('20,000 employees');
    expect(countOf(2, 'undelivered event')).toBe('2 undelivered events');
  });
});
