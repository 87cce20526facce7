// `--set` keeps a number's digits as written: the answers hold a JavaScript
// number (the checks compute with it), the request bodies the text typed
// (100000000000000000000000 is not sent as 1e+23, nor 1.0 as 1), and a
// value changed since is sent as it now is.
import { describe, expect, it } from 'vitest';
import { buildBodies } from '../../../src/forms/bodies.js';
import { loadSchema } from '../../../src/forms/schema.js';
import { maskSecrets } from '../../../src/forms/secrets.js';
import { applySets } from '../../../src/forms/values.js';
import { parseSetFlag } from '../../../src/forms/set-flag.js';
import { stringifyExact } from '../../../src/json/stringify-exact.js';

const form = loadSchema({
  type: 'object',
  properties: {
    pay: { type: 'object', properties: { amount: { type: 'number' }, hours: { type: 'number' }, count: { type: 'integer' }, pin: { type: 'number', writeOnly: true } } },
  },
});

describe('--set numbers', () => {
  it('are sent with their digits as written; the answers hold numbers', () => {
    const doc: Record<string, unknown> = {};
    const sets = ['pay.amount=100000000000000000000000', 'pay.hours=1.0', 'pay.count=7'].map(parseSetFlag);
    expect(applySets(form, doc, sets)).toEqual([]);
    expect(doc).toEqual({ pay: { amount: 1e23, hours: 1, count: 7 } });
    const { create } = buildBodies(form, 'E', doc);
    expect(stringifyExact(create)).toBe('{"entity":"E","pay":{"amount":100000000000000000000000,"hours":1.0,"count":7}}');
    // The dry run's view (secrets masked) keeps them too.
    expect(stringifyExact(maskSecrets(form, create))).toContain('"hours":1.0');
    // The answers themselves are untouched by building the bodies.
    expect(doc).toEqual({ pay: { amount: 1e23, hours: 1, count: 7 } });
  });

  it('a value changed after --set (the wizard, another --set) is sent as it now is', () => {
    const doc: Record<string, unknown> = {};
    applySets(form, doc, [parseSetFlag('pay.hours=1.0')]);
    (doc.pay as Record<string, unknown>).hours = 2;
    expect(stringifyExact(buildBodies(form, 'E', doc).create)).toBe('{"entity":"E","pay":{"hours":2}}');
    applySets(form, doc, [parseSetFlag('pay.hours=3.50'), parseSetFlag('pay.hours=4')]);
    expect(stringifyExact(buildBodies(form, 'E', doc).create)).toBe('{"entity":"E","pay":{"hours":4}}');
  });
});
