import { describe, expect, it } from 'vitest';
import { lineColumns, ScreenRows, screenRows } from '../../../src/output/screen-rows.js';

describe('rows on the screen', () => {
  it('are one a line while lines fit, the last line counted without its newline', () => {
    expect(screenRows('a\nb\nc\n', 80)).toBe(3);
    expect(screenRows('a\nb\nc', 80)).toBe(3);
    expect(screenRows('', 80)).toBe(0);
    expect(screenRows('\n\n', 80)).toBe(2);
  });

  it('wrap a line wider than the terminal onto more rows (an exact fit is one row)', () => {
    expect(screenRows(`${'x'.repeat(80)}\n`, 80)).toBe(1);
    expect(screenRows(`${'x'.repeat(81)}\n`, 80)).toBe(2);
    expect(screenRows(`${'x'.repeat(200)}\nshort\n`, 80)).toBe(4);
    // Unknown width: a line is a row.
    expect(screenRows(`${'x'.repeat(200)}\n`, undefined)).toBe(1);
  });

  it('measure wide characters as two columns, colour codes and marks as none', () => {
    expect(lineColumns('日本語')).toBe(6);
    expect(lineColumns('\x1b[1mCODE\x1b[22m')).toBe(4);
    expect(lineColumns('e\u0301')).toBe(1);
    expect(screenRows(`${'日'.repeat(41)}\n`, 80)).toBe(2);
    expect(screenRows(`\x1b[2m${'x'.repeat(78)}\x1b[22m\n`, 80)).toBe(1);
  });

  it('count text that arrives in chunks split inside a line and inside a character', () => {
    const rows = new ScreenRows(10);
    const bytes = Buffer.from(`abcde日本\nxyz`);
    // 'abcde' then the first byte of 日, then the rest.
    expect(rows.add(bytes.subarray(0, 6))).toBe(1);
    expect(rows.add(bytes.subarray(6))).toBe(2);
    expect(rows.add('0123456789abc\n')).toBe(3);
    expect(rows.rows).toBe(3);
  });

  it('measure a line of megabytes without keeping it', () => {
    const rows = new ScreenRows(100);
    for (let i = 0; i < 40; i++) rows.add('y'.repeat(100_000));
    expect(rows.add('\n')).toBe(40_000);
  });
});
