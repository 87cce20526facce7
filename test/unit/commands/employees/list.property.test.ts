import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { list } from '../../../../src/commands/employees/list.js';
import { parserFor } from '../../../helpers/parse.js';

const parse = parserFor(list);
import { UsageError } from '../../../../src/errors.js';
import { parseInteger, parseUuid } from '../../../../src/options.js';

// Option parsing never throws anything but a UsageError, and what it accepts obeys the spec's rules.
describe('option parsing properties', () => {
  const anyValue = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer().map(String), fc.double().map(String));

  it('parseInteger accepts exactly the whole numbers in range', () => {
    fc.assert(
      fc.property(anyValue, (raw) => {
        try {
          const n = parseInteger('--page-size', raw, { min: 1, max: 100 })!;
          expect(Number.isInteger(n) && n >= 1 && n <= 100).toBe(true);
          expect(String(raw).trim().replace(/^\+/, '').replace(/^0+(?=\d)/, '')).toBe(String(n));
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
    );
  });

  it('parseUuid accepts only canonical UUIDs, lower-cased', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })), (raw) => {
        try {
          const id = parseUuid('--employee-id', raw)!;
          expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
    );
  });

  it('employees list parse only ever yields spec-valid queries or a UsageError', () => {
    const raw = fc.record(
      { page: anyValue, pageSize: anyValue, employeeId: fc.oneof(fc.uuid(), anyValue), employeeCode: anyValue, limit: anyValue, all: fc.boolean(), fields: anyValue },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(raw, (r) => {
        try {
          const o = parse([], r as Record<string, unknown>);
          if (o.query.page !== undefined) expect(o.query.page).toBeGreaterThanOrEqual(1);
          if (o.query.pageSize !== undefined) expect(o.query.pageSize >= 1 && o.query.pageSize <= 100).toBe(true);
          if (o.query.employeeCode !== undefined) expect(o.query.employeeCode).not.toMatch(/[\u0000-\u001f]/);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});
