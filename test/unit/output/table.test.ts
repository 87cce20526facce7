import { describe, expect, it } from 'vitest';
import { cellWidth, displayText, truncateCell } from '../../../src/output/cells.js';
import { hiddenNote, layoutTable, renderTable, type Column } from '../../../src/output/table.js';
import { testIO } from '../../../src/io.js';
import { failure, nested } from '../../helpers/nested.js';
import { writeList } from '../../../src/output/writer.js';
import { EMPLOYEE_COLUMNS } from '../../../src/commands/employees/list.run.js';

const employees = Array.from({ length: 12 }, (_, i) => ({
  employeeCode: `ACME-${String(i + 1).padStart(5, '0')}`,
  fullName: i === 3 ? '李小龍 Bruce Lee Jun-fan the Younger' : `Person Number ${i} With A Long Family Name`,
  workEmail: `person.number.${i}@acme-corporation.example`,
  designation: 'Senior Principal Staff Software Engineer',
  department: 'Research and Development',
  status: ['ACTIVE', 'ONBOARDING', 'OFFBOARDING', 'ENDED'][i % 4],
  country: 'IND',
  startDate: '2016-01-04',
}));

async function table(columns: number | undefined, color = false) {
  const io = { ...testIO({ tty: columns !== undefined, columns }), color };
  await writeList(io, io.stdout, employees, { columns: EMPLOYEE_COLUMNS, csvColumns: [] }, { format: 'table' });
  return io.out();
}

const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('tables on a terminal', () => {
  for (const width of [80, 120]) {
    it(`at ${width} columns: no line wider than the terminal, key and short columns whole, no borders`, async () => {
      const out = await table(width);
      const lines = out.trimEnd().split('\n');
      for (const l of lines) expect(cellWidth(l), l).toBeLessThanOrEqual(width);
      expect(out).not.toMatch(/[│┌└─]/);
      for (const e of employees) {
        const line = lines.find((l) => l.startsWith(e.employeeCode))!;
        expect(line).toBeDefined();
        // Key and short columns shown appear whole.
        const shown = [['CODE', e.employeeCode], ['STATUS', e.status], ['COUNTRY', e.country], ['START', e.startDate]].filter(([h]) => lines[0]!.includes(h!));
        expect(shown.length).toBeGreaterThanOrEqual(4);
        for (const [, v] of shown) expect(line.split(/ {2,}/)).toContain(v);
      }
      // Free text is cut with an ellipsis.
      expect(out).toContain('…');
    });
  }

  it('at 80 columns hides the lowest-priority columns and says so in the footer', async () => {
    const out = await table(80);
    const header = out.split('\n')[0]!;
    expect(header).toMatch(/^CODE +NAME +EMAIL +STATUS +COUNTRY +START$/);
    expect(out).toContain('2 columns hidden; widen the terminal or use -o csv\n');
    for (const e of employees) expect(out).toMatch(new RegExp(`${e.employeeCode} .* ${e.status} +${e.country} +${e.startDate}\\n`));
  });

  it('at 120 columns keeps every column, cutting only free text', async () => {
    const out = await table(120);
    expect(out.split('\n')[0]).toMatch(/^CODE +NAME +EMAIL +DESIGNATION +DEPARTMENT +STATUS +COUNTRY +START$/);
    expect(out).not.toContain('hidden');
  });

  it('--fields keeps the kind and style of a default column of the same key (codes whole, statuses coloured)', async () => {
    const io = { ...testIO({ tty: true, columns: 40 }), color: true };
    await writeList(io, io.stdout, employees, { columns: EMPLOYEE_COLUMNS, csvColumns: [] }, { format: 'table', fields: ['employeeCode', 'workEmail', 'status'] });
    const out = io.out();
    expect(out).toContain('\u001b[1memployeeCode');
    for (const e of employees) expect(out).toContain(`${e.employeeCode}  `);
    expect(out).toContain('\u001b[32mACTIVE\u001b[39m');
  });

  it('piped: complete values, nothing hidden, nothing cut', async () => {
    const out = await table(undefined);
    for (const e of employees) for (const v of Object.values(e)) expect(out).toContain(v);
    expect(out).not.toContain('…');
    expect(out).not.toContain('hidden');
  });

  it('colour: bold headers and coloured statuses, same layout', async () => {
    const out = await table(120, true);
    expect(out.split('\n')[0]).toMatch(/^\u001b\[1mCODE/);
    expect(out).toContain('\u001b[32mACTIVE\u001b[39m');
    expect(out).toContain('\u001b[36mONBOARDING\u001b[39m');
    expect(out).toContain('\u001b[33mOFFBOARDING\u001b[39m');
    expect(out).toContain('\u001b[2mENDED\u001b[22m');
    expect(strip(out)).toBe(await table(120));
  });
});

describe('layoutTable', () => {
  const cols: Column[] = [
    { key: 'id', kind: 'key' },
    { key: 'a', kind: 'free', priority: 2 },
    { key: 'b', kind: 'free', priority: 1 },
    { key: 'c', kind: 'short' },
  ];
  const rows = [['0123456789', 'x'.repeat(40), 'y'.repeat(40), 'short']];

  it('shrinks the widest free column first, down to the minimum', () => {
    const l = layoutTable(cols, rows, { columns: 70 });
    expect(l.shown).toEqual([0, 1, 2, 3]);
    expect(l.widths[0]).toBe(10);
    expect(l.widths[3]).toBe(5);
    expect(l.widths[0]! + l.widths[1]! + l.widths[2]! + l.widths[3]! + 6).toBe(70);
    expect(Math.abs(l.widths[1]! - l.widths[2]!)).toBeLessThanOrEqual(1);
  });

  it('drops columns in priority order (lowest first) when the minimum does not fit', () => {
    expect(layoutTable(cols, rows, { columns: 40 }).hidden).toEqual(['b']);
    expect(layoutTable(cols, rows, { columns: 25 }).hidden).toEqual(['a', 'b']);
    // The note names the hidden columns when that fits the width.
    const narrow = layoutTable(cols, rows, { columns: 40 });
    // Too narrow for one line: the names on a line of their own (changed on purpose: they were left out).
    expect(hiddenNote(narrow)).toBe('1 column hidden; widen the terminal or use -o csv\nhidden: b');
    expect(hiddenNote({ ...narrow, width: 100 })).toBe('1 column hidden; widen the terminal or use -o csv (hidden: b)');
    expect(hiddenNote(layoutTable(cols, rows, { columns: 200 }))).toBeUndefined();
    // Then unprioritised columns from the right, never the first.
    expect(layoutTable(cols, rows, { columns: 5 }).shown).toEqual([0]);
  });

  it('keeps natural widths when the table fits', () => {
    const l = layoutTable(cols, rows, { columns: 200 });
    expect(l.widths).toEqual([10, 40, 40, 5]);
  });
});

describe('cells', () => {
  it('measures wide and combining characters in terminal cells', () => {
    expect(cellWidth('李小龍')).toBe(6);
    expect(cellWidth('e\u0301')).toBe(1);
    expect(cellWidth('abc')).toBe(3);
  });

  it('truncates to a width without splitting a wide character', () => {
    expect(truncateCell('李小龍李小龍', 5)).toBe('李小…');
    expect(cellWidth(truncateCell('李小龍李小龍', 5))).toBeLessThanOrEqual(5);
    expect(truncateCell('abcdef', 4)).toBe('abc…');
    expect(truncateCell('abc', 3)).toBe('abc');
  });

  it('renderTable lines up wide characters', () => {
    const out = renderTable([{ key: 'n', header: 'N', kind: 'free' }, { key: 'c', header: 'C', kind: 'key' }], [['李', 'x'], ['ab', 'y']], {});
    expect(out).toBe('N   C\n李  x\nab  y\n');
  });
});

describe('layout rules', () => {
  it('a column without a kind is free text: cut on a terminal', () => {
    const out = renderTable([{ key: 'a', header: 'A', kind: 'key' }, { key: 'b', header: 'B' }], [['k'.repeat(10), 'x'.repeat(50)]], { columns: 30 });
    expect(out).toBe(`A           B\n${'k'.repeat(10)}  ${'x'.repeat(17)}…\n`);
  });

  it('shrinks the widest free column first, until it is as narrow as the next', () => {
    const cols: Column[] = [{ key: 'a' }, { key: 'b' }, { key: 'c', kind: 'key' }];
    expect(layoutTable(cols, [['a'.repeat(40), 'b'.repeat(20), 'c']], { columns: 55 }).widths).toEqual([30, 20, 1]);
    expect(layoutTable(cols, [['a'.repeat(40), 'b'.repeat(20), 'c']], { columns: 35 }).widths).toEqual([15, 15, 1]);
  });

  it('without priorities, drops from the right, never the first column', () => {
    const cols: Column[] = ['a', 'b', 'c', 'd'].map((key) => ({ key, kind: 'key' as const }));
    const row = [['a'.repeat(10), 'b'.repeat(10), 'c'.repeat(10), 'd'.repeat(10)]];
    expect(layoutTable(cols, row, { columns: 34 }).hidden).toEqual(['d']);
    expect(layoutTable(cols, row, { columns: 22 }).hidden).toEqual(['c', 'd']);
    expect(layoutTable(cols, row, { columns: 3 }).shown).toEqual([0]);
  });

  it('fits exactly at the budget; one cell more drops a column', () => {
    const cols: Column[] = [{ key: 'a', kind: 'key' }, { key: 'b', kind: 'key' }];
    expect(layoutTable(cols, [['aaaa', 'bbbb']], { columns: 10 }).hidden).toEqual([]);
    expect(layoutTable(cols, [['aaaa', 'bbbb']], { columns: 9 }).hidden).toEqual(['b']);
  });

  it('the named note is one line when it fits exactly, two lines (names kept) when one cell wider', () => {
    const narrow = layoutTable([{ key: 'a', kind: 'key' }, { key: 'b', kind: 'key' }], [['aaaa', 'bbbb']], { columns: 9 });
    const named = '1 column hidden; widen the terminal or use -o csv (hidden: b)';
    expect(hiddenNote({ ...narrow, width: named.length })).toBe(named);
    expect(hiddenNote({ ...narrow, width: named.length - 1 })).toBe('1 column hidden; widen the terminal or use -o csv\nhidden: b');
    expect(hiddenNote({ ...narrow, width: 200, fullOutput: '-o json' })).toBe('1 column hidden; widen the terminal or use -o json (hidden: b)');
  });

  it('no trailing spaces, even after an empty or coloured last cell', () => {
    const out = renderTable([{ key: 'a', header: 'A', kind: 'key' }, { key: 's', header: 'S', style: 'status' }], [['x', 'ACTIVE'], ['yyyy', '']], { columns: 80, color: true });
    for (const l of out.split('\n')) expect(l).not.toMatch(/ $/);
    expect(out).toContain('x     \u001b[32mACTIVE\u001b[39m\n');
  });
});

describe('displayText', () => {
  it('null, undefined and empty as a dash; arrays joined; objects as JSON', () => {
    expect(displayText(null)).toBe('-');
    expect(displayText(undefined)).toBe('-');
    expect(displayText('')).toBe('-');
    expect(displayText([])).toBe('-');
    expect(displayText(['a', 1, { b: 2 }, null])).toBe('a, 1, {"b":2}, null');
    expect(displayText({ a: [1] })).toBe('{"a":[1]}');
    expect(displayText(0)).toBe('0');
    expect(displayText(false)).toBe('false');
  });

  it('a value nested 64 levels is shown as JSON; 65 or 100,000 are NESTED_TOO_DEEP naming the path', async () => {
    // A list is shown as its elements joined.
    expect(displayText(nested(64), 'dept')).toBe(`${'['.repeat(63)}"x"${']'.repeat(63)}`);
    expect(displayText([1, nested(63)], 'dept')).toBe(`1, ${'['.repeat(63)}"x"${']'.repeat(63)}`);
    for (const deep of [nested(65), [1, nested(64)], { a: nested(100_000) }]) {
      const err = await failure(() => displayText(deep, 'dept'));
      expect(err.code).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at dept\.\S+ is nested more than 64 levels deep/);
    }
    expect((await failure(() => displayText({ a: nested(64) }))).message).toMatch(/^The value at a\.0\.0\.0\.0\.… /);
  });

  it('truncateCell keeps combining marks with their letter, and gives nothing for no room', () => {
    const e = 'e\u0301';
    expect(truncateCell(e.repeat(5), 3)).toBe(`${e}${e}…`);
    expect(truncateCell('abc', 0)).toBe('');
  });
});
