// The parts of bulk onboarding: reading the sheet, a row into answers and
// issues, the journal a re-run trusts, the template's columns.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allRows, sheetOf } from '../../../../src/forms/bulk/read.js';

const parseSheet = async (text: string | Buffer, source: string, encoding?: 'utf-8' | 'latin1' | 'windows-1252') => {
  const sheet = await sheetOf(text, source, encoding);
  return { columns: sheet.columns, rows: await allRows(sheet) };
};
import { rowDoc, unknownColumns } from '../../../../src/forms/bulk/rows.js';
import { Journal, rowHash } from '../../../../src/forms/bulk/journal.js';
import { defaultResultsPath } from '../../../../src/forms/bulk/onboard.js';
import { templateColumns } from '../../../../src/commands/gp/template.run.js';
import { loadSchema, type FormSchema } from '../../../../src/forms/schema.js';
import { UsageError } from '../../../../src/errors.js';
import { getSchema } from '../../../../src/sandbox/forms.js';
import { FIELD_LIST_FORM } from '../../../../src/sandbox/field-list-form.js';

let swe: FormSchema;
let ind: FormSchema;
beforeEach(() => {
  swe = loadSchema(FIELD_LIST_FORM);
  ind = loadSchema(getSchema('Acme India Pvt Ltd'));
});
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('reading the sheet', () => {
  it('takes the first non-comment row as the header, skips "#" and blank rows, keeps spreadsheet row numbers, strips a BOM', async () => {
    const sheet = await parseSheet('\uFEFFa.b,a.c\r\n"# about a.b",about a.c\r\n\r\n1,"x, y"\r\n,\r\n2,"multi\nline"\r\n', 'f.csv');
    expect(sheet.columns).toEqual(['a.b', 'a.c']);
    expect(sheet.rows).toEqual([
      { row: 4, cells: ['1', 'x, y'] },
      { row: 6, cells: ['2', 'multi\nline'] },
    ]);
  });

  it('refuses a file with no header, empty or duplicate column names, or broken quoting', async () => {
    const code = async (text: string) => {
      try {
        await parseSheet(text, 'f.csv');
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(await code('# only a comment\n')).toBe('f.csv has no header row');
    expect(await code('a,,b\n')).toMatch(/empty column name/);
    expect(await code('a,b,a\n')).toBe('f.csv: the column "a" appears twice in the header');
    expect(await code('a,b\n"x,y\n')).toMatch(/^f\.csv is not valid CSV/);
    expect(await code(`a,b\n"${'x'.repeat(300 * 1024)}`)).toBe('f.csv has a row over 256 KiB (a quote left open, or not a CSV file)');
  });
});

describe('a row into answers', () => {
  const columns = ['personal.firstName', 'personal.lastName', 'personal.dateOfBirth', 'personal.gender', 'contact.personalEmail', 'contact.languages', 'employment.workEmail', 'employment.startDate', 'employment.designation', 'employment.department', 'employment.term', 'employment.baseSalary', 'employment.remote', 'employment.remoteDays', 'tax.personnummer', 'tax.taxTable', 'custom.costCenter'];
  const cells = ['Astrid', 'Lindqvist', '1991-04-02', 'Female', 'a@example.org', 'SV, EN', 'a@acme.example', '2025-10-01', 'Engineer', 'Data', 'PERMANENT', '52000.5', 'yes', '2', '19910402-1234', '32', 'CC-4100'];

  it('types cells by the schema (choice titles, lists, numbers, booleans) and leaves empty cells out', () => {
    const r = rowDoc(swe, columns, { row: 3, cells });
    expect(r.issues).toEqual([]);
    expect(r.doc).toEqual({
      personal: { firstName: 'Astrid', lastName: 'Lindqvist', dateOfBirth: '1991-04-02', gender: 'FEMALE' },
      contact: { personalEmail: 'a@example.org', languages: ['SV', 'EN'] },
      employment: { workEmail: 'a@acme.example', startDate: '2025-10-01', designation: 'Engineer', department: 'Data', term: 'PERMANENT', baseSalary: 52000.5, remote: true, remoteDays: 2 },
      tax: { personnummer: '19910402-1234', taxTable: 32 },
      custom: { costCenter: 'CC-4100' },
    });
  });

  it('lists every problem of the row with its column, never the cell value', () => {
    const bad = [...cells];
    bad[1] = '';
    bad[11] = 'lots';
    bad[14] = 'SECRET-1';
    bad[13] = '9';
    const r = rowDoc(swe, columns, { row: 7, cells: bad });
    expect(r.issues.map((i) => `${i.row} ${i.column}: ${i.message}`).sort()).toEqual([
      '7 employment.baseSalary: Monthly gross salary (SEK) must be a number such as 2400000 or 1234.56 (a dot marks decimals; digits may be grouped with commas: 2,400,000 or 24,00,000)',
      '7 employment.remoteDays: Remote days a week must be at most 5',
      '7 personal.lastName: Last name is required',
      '7 tax.personnummer: Personnummer does not have the expected format: YYYYMMDD-NNNN.',
    ]);
    expect(JSON.stringify(r.issues)).not.toContain('SECRET-1');
    expect(JSON.stringify(r.issues)).not.toContain('lots');
  });

  it('without the checks (the send pass, for rows the check pass passed) gives the same answers, and no issues even for a bad row', () => {
    const checked = rowDoc(swe, columns, { row: 3, cells });
    expect(rowDoc(swe, columns, { row: 3, cells }, { check: false })).toEqual(checked);
    const bad = [...cells];
    bad[1] = '';
    expect(rowDoc(swe, columns, { row: 4, cells: bad }).issues.map((i) => i.column)).toEqual(['personal.lastName']);
    expect(rowDoc(swe, columns, { row: 4, cells: bad }, { check: false }).issues).toEqual([]);
    // The columns are worked out once per form: the same header read against another form is typed by that form.
    expect(rowDoc(ind, columns, { row: 3, cells }).doc).not.toEqual(checked.doc);
  });

  it('names header columns that are not fields; list entries by number are fields', () => {
    expect(unknownColumns(ind, ['personal.firstName', 'legal.nominees.0.name', 'legal.nominees.7.sharePercent', 'personal.nope', 'nope', 'a..b'])).toEqual(['personal.nope', 'nope', 'a..b']);
  });
});

describe('the journal', () => {
  it('records each step durably (0600), keeps the latest state per row, and survives a line cut short', async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-journal-'));
    const path = join(dir, 'r.csv.journal');
    const j = Journal.open(path, 'E');
    j.record({ row: 3, key: 'k3', hash: 'h3', state: 'posting' });
    j.record({ row: 3, key: 'k3', hash: 'h3', state: 'created', id: 'id-3', code: 'C-3' });
    j.record({ row: 4, key: 'k4', hash: 'h4', state: 'posting' });
    await j.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"row":4,"hash":"h4","sta`);
    const again = Journal.open(path, 'E');
    expect(again.get('k3')).toMatchObject({ state: 'created', id: 'id-3', code: 'C-3' });
    expect(again.get('k4')).toMatchObject({ state: 'posting' });
    expect(again.get('k5')).toBeUndefined();
    await again.close();
    expect(() => Journal.open(path, 'Other')).toThrow(/belongs to entity "E", not "Other"/);
    writeFileSync(join(dir!, 'x'), 'hello\n');
    expect(() => Journal.open(join(dir!, 'x'), 'E')).toThrow(/is not a partner bulk journal/);
  });

  it('one run at a time: a live holder of the lock is refused, a dead one (killed) is taken over', async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-journal-'));
    const path = join(dir, 'r.csv.journal');
    const first = Journal.open(path, 'E');
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(() => Journal.open(path, 'E')).toThrow(`Another run (process ${process.pid}) is using the journal ${path}`);
    await first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    writeFileSync(`${path}.lock`, '2147483646'); // no such process
    const second = Journal.open(path, 'E');
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
    await second.close();
  });

  it('recognises a row by a hash of its cells, not the cells', () => {
    expect(rowHash(['a', 'b'])).toBe(rowHash(['a', 'b']));
    expect(rowHash(['a', 'b'])).not.toBe(rowHash(['a,b']));
    expect(rowHash(['secret'])).not.toContain('secret');
  });

  it('sits beside the input by default', () => {
    expect(defaultResultsPath('/data/hires.csv')).toBe('/data/hires.results.csv');
    expect(defaultResultsPath('people.CSV')).toBe('people.results.csv');
    expect(defaultResultsPath('list.txt')).toBe('list.txt.results.csv');
  });
});

describe('the template', () => {
  it('has one column per field, group entries numbered and kept together, and every column accepted by --from-csv', () => {
    const cols = templateColumns(ind).map((c) => c.column);
    expect(cols.filter((c) => c.includes('nominees'))).toEqual(['legal.nominees.0.name', 'legal.nominees.0.relationship', 'legal.nominees.0.sharePercent', 'legal.nominees.1.name', 'legal.nominees.1.relationship', 'legal.nominees.1.sharePercent']);
    expect(new Set(cols).size).toBe(cols.length);
    expect(unknownColumns(ind, cols)).toEqual([]);
    const swecols = templateColumns(swe);
    expect(unknownColumns(swe, swecols.map((c) => c.column))).toEqual([]);
    expect(swecols.find((c) => c.column === 'tax.personnummer')!.description).toBe('Personnummer: required; secret; never shown; pattern ^[0-9]{8}-[0-9]{4}$; YYYYMMDD-NNNN.');
  });
});
