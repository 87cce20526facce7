// A stored record is verified again before it is forwarded: a genuine one
// passes (its payload as signed), an edited one is refused naming what
// changed, a key gone from the set is refused, a key set that cannot be had
// is a wait (transient), not a refusal.
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { payloadDigest } from '../../../src/webhooks/forward.js';
import type { SpooledEvent } from '../../../src/webhooks/journal.js';
import { verifyStored } from '../../../src/webhooks/stored-verify.js';
import { parseJsonExact } from '../../../src/json/parse-exact.js';
import { ecKey, employeeCreated, signEs } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const store = (keys: Record<string, unknown>[]) => new KeyStore({ source: { kind: 'static', jwks: { keys } } });
function record(payload = employeeCreated({ salary: 9007199254740993 })): SpooledEvent {
  const text = JSON.stringify(payload).replace('9007199254740992', '9007199254740993');
  const jws = signEs({ alg: 'ES512', kid: 'k1' }, text, k1.privateKey);
  // As the journal is read back: numbers with their digits (parseJsonExact).
  const parsed = parseJsonExact(text);
  return { t: 'event', id: 'e1', digest: payloadDigest(parsed), receivedAt: '2026-01-01T00:00:00Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws, payload: parsed, target: null };
}

describe('verifyStored', () => {
  it('a genuine record passes; the body is the payload as signed', async () => {
    const r = record();
    const c = await verifyStored(r, store([k1.jwk]));
    expect(c.ok).toBe(true);
    if (c.ok) expect(c.body).toContain('"salary":9007199254740993');
  });

  it('an edited payload, id or type is refused, naming what changed', async () => {
    const r = record(employeeCreated());
    const ks = store([k1.jwk]);
    expect(await verifyStored(r, ks)).toEqual({ ok: true, body: expect.any(String) });
    const edited = { ...r, payload: { ...(r.payload as object), data: { employeeCode: 'EVIL' } } };
    expect(await verifyStored(edited, ks)).toEqual({ ok: false, transient: false, reason: 'its payload is not what its signature covers: the record was changed after it was verified' });
    expect(await verifyStored({ ...r, digest: 'x'.repeat(64), eventType: 'EMPLOYEE_DELETED' }, ks)).toMatchObject({ ok: false, reason: expect.stringMatching(/^its id, eventType are not what/) });
  });

  it('an edited JWS, or one whose key is gone, does not verify: refused, not transient', async () => {
    const r = record(employeeCreated());
    const [h, p, s] = r.jws.split('.');
    const other = Buffer.from(JSON.stringify(employeeCreated({ employeeCode: 'EVIL' }))).toString('base64url');
    expect(await verifyStored({ ...r, jws: `${h}.${other}.${s}` }, store([k1.jwk]))).toMatchObject({ ok: false, transient: false, reason: expect.stringMatching(/signature does not verify/) });
    expect(p).toBeTruthy();
    expect(await verifyStored(r, store([k2.jwk]))).toMatchObject({ ok: false });
  });

  it('a key set that cannot be fetched is transient', async () => {
    const r = record(employeeCreated());
    const failing = new KeyStore({ source: { kind: 'url', url: 'https://keys.example.test/jwks.json', fetch: async () => Promise.reject(new Error('ECONNREFUSED')) } });
    expect(await verifyStored(r, failing)).toMatchObject({ ok: false, transient: true, reason: expect.stringMatching(/cannot be verified now/) });
  });
});
