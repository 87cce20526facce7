import { describe, expect, it } from 'vitest';
import { dateProblem } from '../../../src/text/calendar-date.js';

describe('dateProblem', () => {
  it('accepts real dates, leap days of leap years included', () => {
    for (const d of ['1990-01-01', '1990-12-31', '2024-02-29', '2000-02-29', '1990-04-30']) expect(dateProblem(d), d).toBeUndefined();
  });

  it('names the form only when the form is wrong', () => {
    for (const d of ['31.01.1990', '1990-1-01', '1990-01-01T00:00', '', '19900101']) expect(dateProblem(d), d).toBe('must be a date (YYYY-MM-DD)');
  });

  it('names a month or day the calendar does not have', () => {
    expect(dateProblem('1990-13-01')).toBe('has no month 13 (months run from 01 to 12)');
    expect(dateProblem('1990-00-10')).toBe('has no month 00 (months run from 01 to 12)');
    expect(dateProblem('1990-04-31')).toBe('has no day 31: April 1990 has 30 days');
    expect(dateProblem('1900-02-29')).toBe('has no day 29: February 1900 has 28 days');
    expect(dateProblem('1990-01-00')).toBe('has no day 00: January 1990 has 31 days');
    expect(dateProblem('1990-01-32')).toBe('has no day 32: January 1990 has 31 days');
  });
});
