import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellText, csvRecord } from '../../../src/output/csv.js';
import { failure, nested } from '../../helpers/nested.js';

describe('csvRecord', () => {
  it('quotes per RFC 4180', () => {
    expect(csvRecord(['a', 'b,c', 'say "hi"', 'line\nbreak', 'cr\rhere'], true)).toBe('a,"b,c","say ""hi""","line\nbreak","cr\rhere"\r\n');
    expect(csvRecord([])).toBe('\r\n');
    expect(csvRecord(['only'])).toBe('only\r\n');
  });

  it('neutralises formula-like strings unless raw', () => {
    // A lone CR is a control character, shown as ␍ in a file; with raw, a leading CR is neutralised as before.
    expect(csvRecord(['=HYPERLINK("x")', '+1', '-2', '@sum', '\tx', '\rx', 'ok'])).toBe(`"'=HYPERLINK(""x"")",'+1,'-2,'@sum,'\tx,\u240dx,ok\r\n`);
    expect(csvRecord(['=1+1'], true)).toBe('=1+1\r\n');
    expect(csvRecord(['=1+1'], { raw: true })).toBe('=1+1\r\n');
    expect(csvRecord(['=1+1'], {})).toBe("'=1+1\r\n");
    expect(csvRecord(['=1+1'])).toBe("'=1+1\r\n");
  });

  it('in a file or pipe shows terminal control characters as Control Pictures (a grep of the export must not drive the terminal), unless raw', () => {
    // Clear screen, retitle the terminal, bell, backspace, DEL, a C1 CSI: each made visible, the text around kept.
    expect(csvRecord(['a\u001b[2Jb', '\u001b]0;pwned\u0007t', 'x\by\u007fz', 'c\u009b2Jd'])).toBe('a\u241b[2Jb,\u241b]0;pwned\u2407t,x\u2408y\u2421z,c\ufffd2Jd\r\n');
    // Line breaks (CRLF or LF) and tabs inside a cell are data, kept (quoted).
    expect(csvRecord(['one\r\ntwo', 'x\ny', 'p\tq'])).toBe('"one\r\ntwo","x\ny",p\tq\r\n');
    // A control character hiding a formula: the cell no longer starts with one.
    expect(csvRecord(['\u0007=1+1'])).toBe('\u2407=1+1\r\n');
    expect(csvRecord(['a\u001b[2Jb', '=1'], { raw: true })).toBe('a\u001b[2Jb,=1\r\n');
    // No escape character survives, whatever the text.
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 5 }), (cells) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(csvRecord(cells).replace(/\r\n/g, ''))));
  });

  it('neutralises the final cell text whatever the value type: numbers, arrays, objects', () => {
    expect(csvRecord([-5])).toBe("'-5\r\n");
    expect(csvRecord([5, 0, true])).toBe('5,0,true\r\n');
    expect(csvRecord([['=cmd|calc', 'x']])).toBe("'=cmd|calc; x\r\n");
    expect(csvRecord([['+1', 2]])).toBe("'+1; 2\r\n");
    expect(csvRecord([['@a']], { raw: true })).toBe('@a\r\n');
    expect(csvRecord([[-1]])).toBe("'-1\r\n");
  });

  it('on a terminal removes escape sequences and controls from every cell, header included, then neutralises', () => {
    const hostile = 'Senior \u001b[31mRED\u001b[0m Engineer';
    expect(csvRecord([hostile], { terminal: true })).toBe('Senior RED Engineer\n');
    expect(csvRecord(['a\u001b]52;c;ZXZpbA==\u0007b', 'x\u001b]8;;http://e\u001b\\link\u001b]8;;\u001b\\y', '\u001b[2Jz'], { terminal: true })).toBe('ab,xlinky,z\n');
    expect(csvRecord(['a\u0085b', 'c\u202ed', 'e\bf', 'g\u009b2Jh'], { terminal: true })).toBe('a\ufffdb,c\ufffdd,e\ufffdf,gh\n');
    // A CR would move the cursor: shown as U+FFFD (not quoted then), newlines stay (quoted).
    expect(csvRecord(['one\rtwo', 'x\ny'], { terminal: true })).toBe('one\ufffdtwo,"x\ny"\n');
    // An escape sequence hiding a formula: sanitised first, then neutralised.
    expect(csvRecord(['\u001b[0m=1+1'], { terminal: true })).toBe("'=1+1\n");
    expect(csvRecord(['\u001b[0m=1+1'], { terminal: true, raw: true })).toBe('=1+1\n');
    // Files and pipes keep the text, its escape characters made visible; --csv-raw keeps them as they are.
    expect(csvRecord([hostile])).toBe('Senior \u241b[31mRED\u241b[0m Engineer\r\n');
    expect(csvRecord([hostile], { terminal: false, raw: true })).toBe(`${hostile}\r\n`);
  });

  it('neutralises a formula behind leading whitespace, line breaks, a BOM or invisible characters (importers trim them)', () => {
    expect(csvRecord([' =1+1', '\n=1+1', '\ufeff=1', '\u200b@x', ' \t-1'])).toBe(`' =1+1,"'\n=1+1",'\ufeff=1,'\u200b@x,' \t-1\r\n`);
    expect(csvRecord([' =1+1', '\ufeff=1'], { raw: true })).toBe(' =1+1,\ufeff=1\r\n');
    // On a terminal the cell's final text decides: the invisible character is shown as U+FFFD, a visible start.
    expect(csvRecord(['\u200b=1', ' +1', '\u0085-1'], { terminal: true })).toBe(`\ufffd=1,' +1,\ufffd-1\n`);
    expect(csvRecord([' 12', ' x=1', '\ufeffName'])).toBe(' 12, x=1,\ufeffName\r\n');
  });

  it('neutralises each element of a list, so no join of elements and separators starts a formula', () => {
    expect(csvRecord([[null, '=1']])).toBe("; '=1\r\n");
    expect(csvRecord([['', ' +1', 'x']])).toBe("; ' +1; x\r\n");
    expect(csvRecord([[-1, -2, 3]])).toBe("'-1; '-2; 3\r\n");
    expect(csvRecord([[null, '=1']], { raw: true })).toBe('; =1\r\n');
    expect(csvRecord([['ok', '\u001b[0m=1']], { terminal: true })).toBe("ok; '=1\n");
    // Split at its "; " (a spreadsheet set to semicolon-separated values), every piece is still plain text.
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(null), fc.string({ unit: fc.constantFrom(' ', '=', '+', '-', '@', '\n', '\ufeff', '\u200b', 'x') }), fc.integer())), (list) => {
        const cell = (parse(csvRecord([list]), { record_delimiter: '\r\n' }) as string[][])[0]?.[0] ?? '';
        for (const piece of cell.split(';')) expect(piece).not.toMatch(LIVE_FORMULA);
      }),
    );
  });

  it('round-trips any strings through a CSV parser (raw mode)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), (cells) => {
        const parsed = parse(csvRecord(cells, true), { relax_column_count: true, record_delimiter: '\r\n' }) as string[][];
        expect(parsed[0]).toEqual(cells);
      }),
    );
  });

  it('never leaves a live formula in any cell, whatever the value', () => {
    // Text that an importer trims to a formula: blanks of every kind, then a formula start.
    const blank = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\ufeff', '\u200b', '\u200f', '\u2028', '\u0000', '\u0085', '\u{e0020}');
    const trimmed = fc.tuple(fc.string({ unit: blank }), fc.constantFrom('=', '+', '-', '@'), fc.string()).map(([b, f, rest]) => b + f + rest);
    const text = fc.oneof(fc.string({ unit: 'binary' }), trimmed);
    const value = fc.oneof(text, fc.integer(), fc.double(), fc.array(fc.oneof(text, fc.integer(), fc.constant(null))), fc.constant(null));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), fc.boolean(), (cells, terminal) => {
        const parsed = parse(csvRecord(cells, { terminal }), { relax_column_count: true, record_delimiter: terminal ? '\n' : '\r\n' }) as string[][];
        for (const cell of parsed[0]!) expect(cell).not.toMatch(LIVE_FORMULA);
      }),
    );
  });
});

/**
 * A cell a spreadsheet may run: tab or CR first, or = + - @ as the first
 * character once whitespace, controls and invisible characters are trimmed.
 */
const LIVE_FORMULA = /^[\t\r]|^[\s\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029\ufff9-\ufffb]*[=+\-@]/u;

describe('a value nested too deeply', () => {
  it('64 levels are written as JSON; 65 or 100,000 are NESTED_TOO_DEEP naming the column, never a stack overflow', async () => {
    expect(csvRecord(['a', nested(64)], { columns: ['x', 'department'] })).toBe(`a,"${'['.repeat(64)}""x""${']'.repeat(64)}"\r\n`);
    for (const deep of [nested(65), nested(100_000), { a: nested(100_000) }, [{ a: 1 }, nested(100_000)]]) {
      const err = await failure(() => csvRecord(['a', deep], { columns: ['x', 'department'] }));
      expect(err.code).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at department\.\S+ is nested more than 64 levels deep/);
    }
    expect((await failure(() => cellText({ a: nested(100_000) }, 'boss'))).message).toMatch(/^The value at boss\.a\.0\.0\.0\.… /);
    // Without a column name, the path within the value.
    expect((await failure(() => cellText({ a: nested(100_000) }))).message).toMatch(/^The value at a\.0\.0\.0\.0\.… /);
    expect((await failure(() => csvRecord([nested(65)]))).message).toMatch(/^The value at 0\.0\.0\.0\.0\.… /);
  });
});

describe('cellText', () => {
  it('renders null as empty, scalar arrays joined, objects as JSON', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(['A', 'B'])).toBe('A; B');
    expect(cellText(['A', null, 3, false])).toBe('A; ; 3; false');
    expect(cellText([])).toBe('');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(cellText(12)).toBe('12');
    expect(cellText('x')).toBe('x');
  });

  it('renders an array holding objects as JSON, never [object Object]', () => {
    expect(cellText([{ type: 'PASSPORT' }, { type: 'VISA' }])).toBe('[{"type":"PASSPORT"},{"type":"VISA"}]');
    expect(cellText(['a', { b: 1 }])).toBe('["a",{"b":1}]');
    expect(cellText([['nested']])).toBe('[["nested"]]');
    expect(csvRecord([[{ a: 1 }]])).toBe('"[{""a"":1}]"\r\n');
  });
});
