import { describe, expect, it } from 'vitest';
import { csvColumns, profileDocument, type ProfileResult } from '../../../../src/commands/profile/get.run.js';
import { get } from '../../../../src/commands/profile/get.js';
import { parserFor } from '../../../helpers/parse.js';

const parse = parserFor(get);
import { PROFILE_SECTIONS } from '../../../../src/api/types.js';
import { UsageError } from '../../../../src/errors.js';
import { flatten } from '../../../../src/output/fields.js';

const ID = '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a';

describe('profile get: parse', () => {
  it.each([
    [['ACME-1'], ['ACME-1'], [...PROFILE_SECTIONS]],
    [['ACME-1', 'bank', 'Personal'], ['ACME-1'], ['bank', 'personal']],
    [['ACME-1', ID, 'ACME-2', 'employment', 'employment'], ['ACME-1', ID, 'ACME-2'], ['employment']],
  ])('%j → employees %j, sections %j', (args, employees, sections) => {
    const o = parse(args, {});
    expect(o.employees).toEqual(employees);
    expect(o.sections).toEqual(sections);
    expect(o.concurrency).toBe(4);
  });

  it('with --from-file every argument is a section', () => {
    const o = parse(['bank'], { fromFile: '-' });
    expect(o.employees).toEqual([]);
    expect(o.sections).toEqual(['bank']);
    expect(o.single).toBe(false);
    expect(() => parse(['ACME-1'], { fromFile: '-' })).toThrow(/Unknown section "ACME-1"/);
  });

  it.each([
    [[], {}, /at least one employee/],
    [['personal'], {}, /Name an employee before the sections/],
    [['ACME-1', 'bnk'], {}, /did you mean bank/],
    [['ACME-1', 'bank', 'ACME-2'], {}, /Unknown section "ACME-2"/],
    [['ACME-1'], { concurrency: '17' }, /--concurrency/],
    [['ACME-1'], { jq: '.', quiet: true }, /--jq and --quiet/],
    [['ACME-1'], { jq: '.', output: 'table' }, /-o table/],
    [['ACME\u001b[31m'], {}, /control characters/],
  ])('%j %j is a usage error', (args, raw, message) => {
    let err: unknown;
    try {
      parse(args as string[], raw as Record<string, unknown>);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(message);
  });
});

describe('profile get: output helpers', () => {
  it('builds the document keyed by section, skipping failed sections', () => {
    const r: ProfileResult = { ref: 'A', id: ID, values: new Map<never, unknown>([['bank', { accountNumber: 'X' }]] as never), failures: [] };
    expect(profileDocument(r, ['personal', 'bank'])).toEqual({ id: ID, bank: { accountNumber: 'X' } });
  });

  it('CSV columns: spec fields first in spec order, then whatever else the data carries; null parents do not add a column', () => {
    const doc = { id: ID, employment: { employeeCode: 'A', reportsTo: null, extra: 1 }, compensation: { baseSalary: { amount: 1 } }, education: [{ degree: 'x' }, { degree: 'y' }] };
    const cols = csvColumns(['employment', 'education', 'compensation'], [flatten(doc)]);
    expect(cols[0]).toBe('id');
    expect(cols.slice(1, 4)).toEqual(['employment.employeeCode', 'employment.workEmail', 'employment.entity']);
    expect(cols).toContain('employment.reportsTo.id');
    expect(cols).not.toContain('employment.reportsTo');
    expect(cols).toContain('employment.extra');
    expect(cols).toContain('education.1.degree');
    expect(cols).toContain('compensation.baseSalary.amount');
    expect(cols.indexOf('employment.extra')).toBeLessThan(cols.indexOf('education.0.lastSchoolAttended'));
  });
});
