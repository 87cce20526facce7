// Every check of verify.ts (the payload and the verdict, and key selection
// seen through it) on its own, with the exact outcome it produces, so that no
// check can be removed or loosened while the suite still passes (mutation
// testing: `npx stryker run --mutate src/webhooks/verify.ts`).
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { MAX_WEBHOOK_BYTES } from '../../../src/webhooks/reasons.js';
import { verifyWebhook } from '../../../src/webhooks/verify.js';
import { b64, ecKey, employeeCreated, rsaKey, signBytes as signWith, signEs, UUIDS } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const rsa = rsaKey('k1');
const staticStore = (keys: Record<string, unknown>[], origin?: string) => new KeyStore({ source: { kind: 'static', jwks: { keys }, origin } });
const tail = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey).split('.').slice(1).join('.');
const withHeader = (h: unknown) => `${b64(JSON.stringify(h))}.${tail}`;
const signBytes = (header: Record<string, unknown>, payload: Buffer | string) => signWith(header, payload, k1.privateKey);

describe('verifyWebhook: key selection and the reasons after it', () => {
  const ev = employeeCreated();

  it('an invalid verdict carries nothing but its reason (every other member empty)', async () => {
    expect(await verifyWebhook('abc', staticStore([k1.jwk]))).toStrictEqual({
      valid: false,
      reason: 'MALFORMED',
      message: 'a compact JWS has 3 dot-separated parts; this has 1',
      signatureValid: false,
      kid: null,
      alg: null,
      header: null,
      payload: null,
      eventType: null,
      meaning: null,
      timestamp: null,
      subject: null,
      status: null,
      warnings: [],
      errors: [],
    });
  });

  it('the refused header shown: strings kept, other kid/alg types give null, keys cut to 40 characters, oversized input shows none', async () => {
    const v = await verifyWebhook(withHeader({ alg: 5, kid: 6, ['k'.repeat(60)]: 'v' }), staticStore([k1.jwk]));
    expect(v).toMatchObject({ reason: 'UNSUPPORTED_ALG', kid: null, alg: null });
    expect(v.header).toEqual({ alg: 5, kid: 6, ['k'.repeat(40)]: 'v' });
    // Bytes are shown like text; a header alone (no dots) too.
    expect((await verifyWebhook(Buffer.from(withHeader({ alg: 'RS256' })), staticStore([k1.jwk]))).header).toEqual({ alg: 'RS256' });
    const alone = await verifyWebhook(b64(JSON.stringify({ alg: 'RS256', kid: 'solo' })), staticStore([k1.jwk]));
    expect(alone).toMatchObject({ reason: 'MALFORMED', header: { alg: 'RS256', kid: 'solo' } });
    const wrapped = await verifyWebhook(JSON.stringify(withHeader({ alg: 'RS256', kid: 'x' })), staticStore([k1.jwk]));
    expect(wrapped).toMatchObject({ reason: 'UNSUPPORTED_ALG', kid: 'x', alg: 'RS256', header: { alg: 'RS256', kid: 'x' } });
    const exact = await verifyWebhook(withHeader({ alg: 'RS256', kid: 'x'.repeat(100) }), staticStore([k1.jwk]));
    expect(exact.header!.kid).toBe('x'.repeat(100));
    const big = await verifyWebhook(`${b64(JSON.stringify({ alg: 'RS256' }))}.${'A'.repeat(MAX_WEBHOOK_BYTES)}.AAAA`, staticStore([k1.jwk]));
    expect(big).toMatchObject({ reason: 'TOO_LARGE', header: null });
    const bigBytes = await verifyWebhook(Buffer.from(`${b64(JSON.stringify({ alg: 'RS256' }))}.${'A'.repeat(MAX_WEBHOOK_BYTES)}.AAAA`), staticStore([k1.jwk]));
    expect(bigBytes.header).toBeNull();
    // A header that parses but exceeds the limits is not shown either.
    const deep = await verifyWebhook(`${b64(`{"alg":"RS256","x":${'['.repeat(10)}${']'.repeat(10)}}`)}.AAAA.AAAA`, staticStore([k1.jwk]));
    expect(deep.header).toBeNull();
  });

  it('a kid naming only an unusable key is WRONG_KEY_TYPE, with the key\'s problem', async () => {
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, k1.privateKey), staticStore([rsa.jwk, k2.jwk]));
    expect(v).toMatchObject({ reason: 'WRONG_KEY_TYPE', message: 'the key with kid "k1" is unusable for ES512: key type "RSA" (an EC P-521 key is needed)' });
  });

  it('a kid naming an unusable and a usable key: the usable one is tried', async () => {
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, k1.privateKey), staticStore([rsa.jwk, k1.jwk]))).valid).toBe(true);
    // ...and when that usable key does not verify, it is a bad signature, not a wrong key type.
    const other = { ...k2.jwk, kid: 'k1' };
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, k1.privateKey), staticStore([rsa.jwk, other]))).reason).toBe('BAD_SIGNATURE');
  });

  it('two usable keys under one kid: the second is tried when the first does not verify', async () => {
    const first = { ...k2.jwk, kid: 'k1' };
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, k1.privateKey), staticStore([first, k1.jwk]))).valid).toBe(true);
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, k2.privateKey), staticStore([first, k1.jwk]))).valid).toBe(true);
  });

  it('a kid naming a usable key that does not verify: BAD_SIGNATURE, kid quoted and cut to 80 characters', async () => {
    const attacker = ecKey('k1');
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, ev, attacker.privateKey), staticStore([k1.jwk]));
    expect(v.message).toBe('the signature does not verify with the key "k1": forged or altered');
    const longKid = 'q'.repeat(100);
    const u = await verifyWebhook(signEs({ alg: 'ES512', kid: longKid }, ev, k1.privateKey), staticStore([k1.jwk], 'the test set'));
    expect(u.message).toBe(`no key with kid "${'q'.repeat(80)}" in the key set from the test set`);
  });

  it('without kid: unusable keys are skipped, any usable key may verify; none usable is WRONG_KEY_TYPE; none verifying is BAD_SIGNATURE', async () => {
    const jws = signEs({ alg: 'ES512' }, ev, k2.privateKey);
    expect((await verifyWebhook(jws, staticStore([rsa.jwk, k1.jwk, k2.jwk]))).valid).toBe(true);
    const none = await verifyWebhook(jws, staticStore([rsa.jwk], 'S'));
    expect([none.reason, none.message]).toEqual(['WRONG_KEY_TYPE', 'the key set from S has no EC P-521 key to verify ES512 with']);
    const bad = await verifyWebhook(jws, staticStore([rsa.jwk, k1.jwk]));
    expect([bad.reason, bad.message]).toEqual(['BAD_SIGNATURE', 'no key of the set verifies the signature (the header has no kid): forged or altered']);
  });

  it('payload reasons, each with its message', async () => {
    const cases: [string, string, string][] = [
      ['not json', 'PAYLOAD_NOT_JSON', 'the signature is genuine, but the payload is not JSON'],
      ['[1]', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload is not a JSON object'],
      ['null', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload is not a JSON object'],
      ['"s"', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload is not a JSON object'],
      ['{"data":{}}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no "eventType"'],
      ['{"eventType":5,"data":{}}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no string "eventType"'],
      ['{"eventType":"","data":{}}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no string "eventType"'],
      ['{"eventType":"X"}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no "data" object'],
      ['{"eventType":"X","data":null}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no "data" object'],
      ['{"eventType":"X","data":[]}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no "data" object'],
      ['{"eventType":"X","data":"d"}', 'PAYLOAD_SHAPE', 'the signature is genuine, but the payload has no "data" object'],
      ['\ufeff{"eventType":"X","data":{}}', 'PAYLOAD_NOT_JSON', 'the signature is genuine, but the payload is not JSON'],
    ];
    for (const [payload, reason, message] of cases) {
      const v = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, payload), staticStore([k1.jwk]));
      expect([v.reason, v.message, v.signatureValid, v.valid], payload).toEqual([reason, message, true, false]);
      expect([v.kid, v.alg]).toEqual(['k1', 'ES512']);
    }
    const shape = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, '{"eventType":"X","data":{}}'), staticStore([k1.jwk]));
    expect(shape.payload).toEqual({ eventType: 'X', data: {} });
    expect(shape.eventType).toBe('X');
  });

  it('EVENT_SHAPE names the first error and how many more', async () => {
    const one = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ status: 'ENDED' }), k1.privateKey), staticStore([k1.jwk]));
    expect(one.message).toBe('the signature is genuine, but the payload breaks the EMPLOYEE_CREATED shape: data.status is "ENDED", but EMPLOYEE_CREATED carries ONBOARDING');
    const two = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ status: 'ENDED', updateType: 'BANK_DETAILS' }), k1.privateKey), staticStore([k1.jwk]));
    expect(two.message).toMatch(/ONBOARDING \(and 1 more\)$/);
    expect(two.errors).toHaveLength(2);
    const three = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ status: 'ENDED', updateType: 'BANK_DETAILS', employeeCode: 5 }), k1.privateKey), staticStore([k1.jwk]));
    expect(three.message).toMatch(/\(and 2 more\)$/);
  });

  it('a valid verdict carries the event facts; a legacy shape its normalised form', async () => {
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey), staticStore([k1.jwk]));
    expect(v).toMatchObject({ valid: true, reason: null, message: null, meaning: 'an employee was created (status ONBOARDING)', timestamp: '2025-03-01T09:30:00.000Z', subject: 'ACME-0007', status: 'ONBOARDING', errors: [] });
    expect('normalized' in v).toBe(false);
    expect('retryAfterMs' in v).toBe(false);
    const legacy = { eventType: 'CONTRACT_CREATED', data: { id: UUIDS.a, customerId: UUIDS.b, status: 'ACTIVE' } };
    const l = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, legacy, k1.privateKey), staticStore([k1.jwk]));
    expect(l.valid).toBe(true);
    expect(l.normalized).toEqual({ eventType: 'CONTRACT_CREATED', data: { contractId: UUIDS.a, customerId: UUIDS.b, status: 'ACTIVE' } });
    expect(l.warnings.length).toBeGreaterThan(0);
    expect(l.timestamp).toBeNull();
  });
});
