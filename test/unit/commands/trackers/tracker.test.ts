import { describe, expect, it } from 'vitest';
import { onboarding } from '../../../../src/commands/trackers/onboarding.js';
import { parserFor } from '../../../helpers/parse.js';
import { pendingDocumentsText, trackerSpec } from '../../../../src/commands/trackers/tracker.run.js';

const parseOnboarding = parserFor(onboarding);
import { UsageError } from '../../../../src/errors.js';

describe('trackers', () => {
  it('pending documents read as count and names, and never fail on odd values', () => {
    expect(pendingDocumentsText({ pendingDocuments: ['Contract', 'ID copy'] })).toBe('2: Contract, ID copy');
    expect(pendingDocumentsText({ pendingDocuments: [] })).toBe('0');
    expect(pendingDocumentsText({})).toBeUndefined();
    expect(pendingDocumentsText({ pendingDocuments: null })).toBeUndefined();
    expect(pendingDocumentsText({ pendingDocuments: 'x' })).toBe('x');
    expect(pendingDocumentsText(null)).toBeUndefined();
  });

  it('CSV columns are the spec fields of each tracker', () => {
    expect(trackerSpec('onboarding').csvColumns.map((c) => c.key)).toEqual(['id', 'employeeCode', 'stage']);
    expect(trackerSpec('offboarding').csvColumns.map((c) => c.key)).toEqual(['id', 'employeeCode', 'stage', 'pendingDocuments']);
  });

  it('parses both filters and rejects a malformed id', () => {
    const id = '3F2B8C1E-9D4A-4C6E-8B7F-2A1D5E9C0B3A';
    expect(parseOnboarding([], { employeeId: id, employeeCode: ' ACME-1 ' }).query).toEqual({ employeeId: id.toLowerCase(), employeeCode: 'ACME-1' });
    expect(() => parseOnboarding([], { employeeId: 'nope' })).toThrow(UsageError);
  });
});
