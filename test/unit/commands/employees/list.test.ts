import { describe, expect, it } from 'vitest';
import { list } from '../../../../src/commands/employees/list.js';
import { parserFor } from '../../../helpers/parse.js';

const parse = parserFor(list);
import { UsageError } from '../../../../src/errors.js';

// Parse contract of `employees list`: argv-level values to typed options, or a usage error.
describe('employees list options', () => {
  it('applies the spec defaults for --all', () => {
    const o = parse([], { all: true });
    expect(o.query.pageSize).toBe(100);
    expect(o.concurrency).toBe(8);
    expect(o.progress).toBe(true);
  });

  it('parses valid values', () => {
    const o = parse([], { page: '2', pageSize: '50', status: 'ACTIVE', employeeId: '3F2B8C1E-9D4A-4C6E-8B7F-2A1D5E9C0B3A', employeeCode: ' ACME-1 ', sortBy: 'startOn', sortOrder: 'DESC' });
    expect(o.query).toEqual({ page: 2, pageSize: 50, status: 'ACTIVE', employeeId: '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a', employeeCode: 'ACME-1', sortBy: 'startOn', sortOrder: 'DESC' });
  });

  it.each([
    [{ pageSize: '500' }, /--page-size must be a whole number from 1 to 100/],
    [{ pageSize: '0' }, /--page-size/],
    [{ pageSize: '1.5' }, /--page-size/],
    [{ page: '0' }, /--page must be a whole number of 1 or more/],
    [{ page: '-1' }, /--page/],
    [{ page: 'abc' }, /--page/],
    [{ page: '99999999999999999999' }, /--page/],
    [{ employeeId: 'not-a-uuid' }, /--employee-id must be a UUID/],
    [{ employeeCode: '' }, /--employee-code must not be empty/],
    [{ employeeCode: 'a\u001b[31m' }, /control characters/],
    [{ limit: '0' }, /--limit/],
    [{ all: true, concurrency: '33' }, /--concurrency must be a whole number from 1 to 32/],
    [{ concurrency: '4' }, /only applies with --all/],
    [{ fields: 'a,,b' }, /Invalid --fields/],
    [{ quiet: true, fields: 'id' }, /cannot be used together/],
  ])('rejects %o', (raw, message) => {
    expect(() => parse([], raw as Record<string, unknown>)).toThrow(UsageError);
    expect(() => parse([], raw as Record<string, unknown>)).toThrow(message);
  });
});
