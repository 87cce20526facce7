// Key-set documents on their own: Cache-Control, usable keys, what is not a JWKS.
import { describe, expect, it } from 'vitest';
import { cacheControlMaxAge, parseJwks } from '../../../src/webhooks/jwks-doc.js';

describe('JWKS parsing', () => {
  it('cacheControlMaxAge', () => {
    expect(cacheControlMaxAge(undefined)).toBeUndefined();
    expect(cacheControlMaxAge('public, max-age=3600')).toBe(3_600_000);
    expect(cacheControlMaxAge('no-store')).toBe(0);
    expect(cacheControlMaxAge('private')).toBeUndefined();
  });

  it('marks keys that cannot verify ES512 and strips private members', () => {
    const entries = parseJwks(
      {
        keys: [
          { kty: 'RSA', kid: 'r', n: 'x', e: 'AQAB' },
          { kty: 'EC', crv: 'P-256', kid: 'p', x: 'a', y: 'b' },
          { kty: 'EC', crv: 'P-521', kid: 'ok', x: 'a', y: 'b', d: 'secret' },
          'junk',
        ],
      },
      'test',
    );
    expect(entries.map((e) => [e.kid, e.usable])).toEqual([
      ['r', false],
      ['p', false],
      ['ok', true],
    ]);
    expect(entries[2]!.jwk).not.toHaveProperty('d');
  });

  it('refuses a document that is not a key set', () => {
    expect(() => parseJwks({ nope: [] }, 'x')).toThrow(/not a JWKS/);
    expect(() => parseJwks([], 'x')).toThrow(/not a JWKS/);
  });
});
