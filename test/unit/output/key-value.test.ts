import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../../src/output/cells.js';
import { formatPairs, humanLabel, renderKeyValue } from '../../../src/output/key-value.js';

describe('humanLabel', () => {
  it('turns camelCase keys into labels', () => {
    expect(humanLabel('workEmail')).toBe('Work email');
    expect(humanLabel('employeeId')).toBe('Employee ID');
    expect(humanLabel('fullLegalName')).toBe('Full legal name');
    expect(humanLabel('addressLine1')).toBe('Address line 1');
    expect(humanLabel('postal_code')).toBe('Postal code');
    expect(humanLabel('IBAN')).toBe('IBAN');
  });
  it('uses the override map for known keys', () => {
    expect(humanLabel('baseUrl')).toBe('Base URL');
    expect(humanLabel('tokenSource')).toBe('Token from');
    expect(humanLabel('ifscCode')).toBe('IFSC code');
  });
  it('leaves keys that are not identifiers alone', () => {
    expect(humanLabel('[1]')).toBe('[1]');
    expect(humanLabel('a.b')).toBe('a.b');
  });
});

describe('renderKeyValue', () => {
  it('keeps raw keys by default and aligns values', () => {
    expect(renderKeyValue({ id: 'x', workEmail: 'a@b' })).toBe('id         x\nworkEmail  a@b\n');
  });

  it('human labels, nested blocks, masking', () => {
    const out = renderKeyValue({ workEmail: 'a@b', bank: { accountNumber: '123456789' } }, 0, { labels: 'human', mask: (p, v) => (p === 'bank.accountNumber' ? '****6789' : v) });
    expect(out).toBe('Work email  a@b\nBank:\n  Account number  ****6789\n');
  });

  it('wraps long values at the width, between words, under the value column', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
    const out = renderKeyValue({ description: text, id: 'x' }, 1, { width: 40, labels: 'human' });
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(cellWidth(l), l).toBeLessThanOrEqual(40);
    // No word split: the words read back in order.
    expect(lines.slice(0, -1).map((l) => l.replace(/^ +Description +/, '').trim()).join(' ')).toBe(text);
    const valueColumn = lines[0]!.indexOf('one');
    expect(lines[1]!.search(/\S/)).toBe(valueColumn);
  });

  it('never splits a word longer than the room: it overflows instead', () => {
    const word = 'x'.repeat(60);
    expect(formatPairs([['Key', `a ${word}`]], { width: 40 })).toBe(`Key  a\n     ${word}\n`);
  });

  it('without a width, one line per value', () => {
    expect(formatPairs([['K', 'a b c d e f g h i j k l m n o p q r s t u v w x y z']])).toBe('K  a b c d e f g h i j k l m n o p q r s t u v w x y z\n');
  });
});
