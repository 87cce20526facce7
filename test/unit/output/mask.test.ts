import { describe, expect, it } from 'vitest';
import { ACCOUNT_KEY, maskAccount, maskBankSection } from '../../../src/output/mask.js';

describe('account numbers on screen', () => {
  it('keep their last 4 characters', () => {
    expect(maskAccount('DE85500105170777783659')).toBe('****3659');
    expect(maskAccount('123')).toBe('****');
    expect(maskAccount(12345678)).toBe('****5678');
    expect(maskAccount(null)).toBeNull();
    expect(maskAccount({ nested: true })).toEqual({ nested: true });
  });

  it('are masked at any depth of a bank section, other values kept', () => {
    const section = { accountNumber: '12345678', holder: 'Ada', accounts: [{ IBAN: 'DE85500105170777783659', bic: 'BANKDEFF' }] };
    expect(maskBankSection(section)).toEqual({ accountNumber: '****5678', holder: 'Ada', accounts: [{ IBAN: '****3659', bic: 'BANKDEFF' }] });
    expect(ACCOUNT_KEY.test('iban') && !ACCOUNT_KEY.test('ibanCountry')).toBe(true);
  });
});
