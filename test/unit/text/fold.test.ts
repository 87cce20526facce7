import { describe, expect, it } from 'vitest';
import { foldText } from '../../../src/text/fold.js';
import { employeeMatcher, searchBatches } from '../../../src/api/employee-search.js';

describe('foldText', () => {
  it.each([
    ['José GARCÍA', 'jose garcia'],
    ['Straße', 'strasse'],
    ['İstanbul', 'istanbul'],
    ['ÅNGSTRÖM', 'angstrom'],
    ['plain ASCII', 'plain ascii'],
  ])('%s -> %s', (a, b) => expect(foldText(a)).toBe(b));
});

describe('employeeMatcher', () => {
  const m = employeeMatcher('Jose');
  it('matches in fullName, displayName, workEmail, employeeCode only', () => {
    expect(m({ fullName: 'José García' })).toBe(true);
    expect(m({ displayName: 'JOSÉ' })).toBe(true);
    expect(m({ workEmail: 'jose.g@x.example' })).toBe(true);
    expect(employeeMatcher('acme-007')({ employeeCode: 'ACME-00071' })).toBe(false);
    expect(employeeMatcher('acme-0007')({ employeeCode: 'ACME-00071' })).toBe(true);
    expect(m({ department: 'Jose' })).toBe(false);
    expect(m(null)).toBe(false);
    expect(m({ fullName: 42 })).toBe(false);
  });
});

describe('searchBatches', () => {
  async function* pages() {
    yield [1, 2, 3];
    yield [4, 5, 6];
    yield [7, 8, 9];
  }
  it('cuts each page to its matches, counts what was searched, stops at the limit', async () => {
    const count = { searched: 0, matched: 0 };
    const out: number[][] = [];
    for await (const b of searchBatches(pages(), (n) => n % 2 === 0, count, 2)) out.push(b);
    expect(out).toEqual([[2], [4]]);
    expect(count).toEqual({ searched: 6, matched: 2 });
  });
});
