import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../../src/output/cells.js';
import { formatPairs, humanLabel, renderKeyValue } from '../../../src/output/key-value.js';
import { failure, nested } from '../../helpers/nested.js';

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

describe('renderKeyValue, a value nested too deeply', () => {
  it('shows 64 levels; refuses 65 or 100,000 with NESTED_TOO_DEEP naming the path, never a stack overflow', async () => {
    const out = renderKeyValue({ a: nested(62, ['x', 'y']) });
    expect(out.trimEnd().split('\n')).toHaveLength(63);
    expect(out).toMatch(/^ {124}\[1\] {2}x, y$/m);
    for (const deep of [{ a: nested(63, ['x']) }, { a: nested(63, { k: 1 }) }, { a: nested(100_000) }]) {
      const err = await failure(() => renderKeyValue(deep, 0, { labels: 'human' }));
      expect(err.code).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at a\.0\.0\.0\.0\.… is nested more than 64 levels deep/);
    }
    // The caller's path leads the name.
    expect((await failure(() => renderKeyValue(nested(100_000), 1, {}, 'payload'))).message).toMatch(/^The value at payload\.0\.0\.0\.0\.… /);
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

describe('labels and blocks, case by case', () => {
  it('known keys and acronyms', () => {
    const cases: [string, string][] = [
      ['baseUrl', 'Base URL'],
      ['baseUrlSource', 'Base URL from'],
      ['profileSource', 'Profile from'],
      ['dateOfBirth', 'Date of birth'],
      ['panNumber', 'PAN'],
      ['ctc', 'CTC'],
      ['customerIds', 'Customer IDs'],
      ['swiftCode', 'SWIFT code'],
      ['redirectUri', 'Redirect URI'],
      ['correlationId', 'Correlation ID'],
      ['IBANNumber', 'IBAN number'],
      ['gpEntity', 'GP entity'],
      ['uanNumber', 'UAN number'],
      ['pfAccount', 'PF account'],
      ['jwksUrl', 'JWKS URL'],
    ];
    for (const [key, label] of cases) expect(humanLabel(key), key).toBe(label);
  });

  it('formatPairs: empty, and aligned by the widest label', () => {
    expect(formatPairs([])).toBe('');
    expect(formatPairs([['a', '1'], ['bbb', '2']])).toBe('a    1\nbbb  2\n');
  });

  it('wraps at no less than 20 cells beside the labels, however narrow the terminal', () => {
    const out = formatPairs([['Label', 'aaaa bbbb cccc dddd eeee ffff']], { width: 10 });
    expect(out).toBe('Label  aaaa bbbb cccc dddd\n       eeee ffff\n');
  });

  it('scalars, empty records, arrays of values inline, arrays of records as blocks', () => {
    expect(renderKeyValue('x')).toBe('x\n');
    expect(renderKeyValue(null, 1)).toBe('  -\n');
    expect(renderKeyValue(undefined)).toBe('-\n');
    expect(renderKeyValue({})).toBe('-\n');
    expect(renderKeyValue({ tags: ['a', 'b'], none: [] })).toBe('tags  a, b\nnone  -\n');
    expect(renderKeyValue({ items: [{ a: 1 }, { a: 2 }] })).toBe('items:\n  [1]:\n    a  1\n  [2]:\n    a  2\n');
  });
});
