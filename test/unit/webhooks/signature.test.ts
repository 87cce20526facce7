// The signature layer (signature.ts): jose on its own, with ES512 pinned.
import { describe, expect, it } from 'vitest';
import { KeyStore, parseJwks } from '../../../src/webhooks/jwks.js';
import { tryKey } from '../../../src/webhooks/signature.js';
import { ecKey, signBytes as signWith } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const staticStore = (keys: Record<string, unknown>[]) => new KeyStore({ source: { kind: 'static', jwks: { keys } } });
const signBytes = (header: Record<string, unknown>, payload: Buffer | string) => signWith(header, payload, k1.privateKey);

describe('tryKey: the jose layer on its own', () => {
  const entry = (jwk: Record<string, unknown>) => parseJwks({ keys: [jwk] }, 'test')[0]!;
  const store = staticStore([k1.jwk]);

  it('returns the payload bytes of a genuine signature, undefined for a wrong one', async () => {
    const payload = Buffer.from('{"eventType":"X","data":{}}');
    const good = signBytes({ alg: 'ES512', kid: 'k1' }, payload);
    expect(Buffer.from((await tryKey(store, entry(k1.jwk), good))!).equals(payload)).toBe(true);
    expect(await tryKey(store, entry(k2.jwk), good)).toBeUndefined();
  });

  it('pins the algorithm itself: a header alg other than ES512 is UNSUPPORTED_ALG even past parseJws', async () => {
    const es384 = signBytes({ alg: 'ES384', kid: 'k1' }, '{}');
    await expect(tryKey(store, entry(k1.jwk), es384)).rejects.toMatchObject({ code: 'UNSUPPORTED_ALG', message: 'the header has no "alg"' });
  });

  it('a malformed JWS reaching jose is MALFORMED', async () => {
    await expect(tryKey(store, entry(k1.jwk), 'abc')).rejects.toMatchObject({ code: 'MALFORMED' });
    await expect(tryKey(store, entry(k1.jwk), 'abc')).rejects.toThrow(/^invalid JWS: /);
  });

  it('a key that is not a point on P-521 (or cannot be imported) verifies nothing (no throw)', async () => {
    const bad = { ...k1.jwk, x: k2.jwk.x };
    expect(await tryKey(store, entry(bad), signBytes({ alg: 'ES512' }, '{}'))).toBeUndefined();
    expect(await tryKey(store, entry({ ...k1.jwk, x: 'AAAA' }), signBytes({ alg: 'ES512' }, '{}'))).toBeUndefined();
  });
});

