import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellText, csvRecord } from '../../../src/output/csv.js';

describe('csvRecord', () => {
  it('quotes per RFC 4180', () => {
    expect(csvRecord(['a', 'b,c', 'say "hi"', 'line\nbreak'])).toBe('a,"b,c","say ""hi""","line\nbreak"\r\n');
  });
  it('neutralises formula-like strings unless raw', () => {
    expect(csvRecord(['=HYPERLINK("x")', '+1', '-2', '@sum', '\tx', 'ok'])).toBe(`"'=HYPERLINK(""x"")",'+1,'-2,'@sum,'\tx,ok\r\n`);
    expect(csvRecord(['=1+1'], true)).toBe('=1+1\r\n');
    expect(csvRecord([-5])).toBe('-5\r\n');
  });
  it('renders null as empty, scalar arrays joined, objects as JSON', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(['A', 'B'])).toBe('A; B');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });
  it('round-trips any strings through a CSV parser (raw mode)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), (cells) => {
        const parsed = parse(csvRecord(cells, true), { relax_column_count: true, record_delimiter: '\r\n' }) as string[][];
        expect(parsed[0]).toEqual(cells);
      }),
    );
  });
});
