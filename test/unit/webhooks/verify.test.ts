import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { MAX_WEBHOOK_BYTES, parseJws, verifyWebhook } from '../../../src/webhooks/verify.js';
import { VerificationError } from '../../../src/errors.js';
import { b64, ecKey, employeeCreated, rsaKey, signEs, signHmac, signRsa, signingInput } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const p256 = ecKey('p256', 'prime256v1');
const rsa = rsaKey('rsa1');

function store(keys: Record<string, unknown>[]): KeyStore {
  return new KeyStore({ source: { kind: 'static', jwks: { keys } } });
}

const set = () => store([k1.jwk, k2.jwk, p256.jwk, rsa.jwk]);
const good = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);

describe('verifyWebhook: genuine webhooks (signed with node:crypto, outside the project)', () => {
  it('accepts an ES512 JWS signed with the key named by kid', async () => {
    const v = await verifyWebhook(good(), set());
    expect(v).toMatchObject({ valid: true, reason: null, kid: 'k1', alg: 'ES512', signatureValid: true, eventType: 'EMPLOYEE_CREATED', status: 'ONBOARDING', subject: 'ACME-0007' });
    expect(v.warnings).toEqual([]);
    expect(v.header).toEqual({ alg: 'ES512', kid: 'k1' });
  });

  it('tolerates surrounding whitespace and a body that is the JWS as a JSON string', async () => {
    expect((await verifyWebhook(`\n  ${good()} \r\n`, set())).valid).toBe(true);
    expect((await verifyWebhook(JSON.stringify(good()), set())).valid).toBe(true);
    expect((await verifyWebhook(` ${JSON.stringify(good())}\n`, set())).valid).toBe(true);
    expect((await verifyWebhook(Buffer.from(JSON.stringify(good())), set())).valid).toBe(true);
  });

  it('without a kid, accepts a JWS that any key of the set verifies (spec rule 5: signed by the second key)', async () => {
    const jws = signEs({ alg: 'ES512' }, employeeCreated(), k2.privateKey);
    const v = await verifyWebhook(jws, store([k1.jwk, k2.jwk]));
    expect(v.valid).toBe(true);
    expect(v.kid).toBeNull();
  });

  it('without a kid, refuses a JWS that no key verifies', async () => {
    const other = ecKey(undefined);
    const jws = signEs({ alg: 'ES512' }, employeeCreated(), other.privateKey);
    expect((await verifyWebhook(jws, store([k1.jwk, k2.jwk]))).reason).toBe('BAD_SIGNATURE');
  });

  it('verifies a key published without alg/use (only kty EC and crv P-521 are required)', async () => {
    const { alg: _alg, ...bare } = k1.jwk;
    expect((await verifyWebhook(good(), store([bare]))).valid).toBe(true);
  });

  it('RFC 7515 appendix A.4 known answer: genuine ES512 signature over a non-JSON payload', async () => {
    const jwk = {
      kty: 'EC',
      crv: 'P-521',
      x: 'AekpBQ8ST8a8VcfVOTNl353vSrDCLLJXmPk06wTjxrrjcBpXp5EOnYG_NjFZ6OvLFV1jSfS9tsz4qUxcWceqwQGk',
      y: 'ADSmRA43Z1DSNx_RvcLI87cdL07l6jQyyBXMoxVg_l2Th-x3S1WDhjDly79ajL4Kkd0AZMaZmh9ubmf63e3kyMj2',
    };
    const jws =
      'eyJhbGciOiJFUzUxMiJ9.UGF5bG9hZA.AdwMgeerwtHoh-l192l60hp9wAHZFVJbLfD_UxMi70cwnZOYaRI1bKPWROc-mZZqwqT2SI-KGDKB34XO0aw_7XdtAG8GaSwFKdCAPZgoXD2YBJZCPEX3xKpRwcdOO8KpEHwJjyqOgzDO7iKvU8vcnwNrmxYbSW9ERBXukOXolLzeO_Jn';
    const v = await verifyWebhook(jws, store([jwk]));
    expect(v.signatureValid).toBe(true);
    expect(v.reason).toBe('PAYLOAD_NOT_JSON');
  });
});

describe('verifyWebhook: each rejection reason', () => {
  const cases: [string, () => string | Uint8Array, string][] = [
    ['empty body', () => '   ', 'MALFORMED'],
    ['two parts', () => good().split('.').slice(0, 2).join('.'), 'MALFORMED'],
    ['four parts', () => `${good()}.AAAA`, 'MALFORMED'],
    ['five parts (JWE-like)', () => 'a.b.c.d.e', 'MALFORMED'],
    ['bad base64url in the signature', () => `${good().slice(0, -4)}+/==`, 'MALFORMED'],
    ['bad base64url in the header', () => `ey!J.${good().split('.')[1]}.${good().split('.')[2]}`, 'MALFORMED'],
    ['header not JSON', () => `${b64('not json')}.${b64('{}')}.${b64('sig')}`, 'MALFORMED'],
    ['header a JSON array', () => `${b64('["ES512"]')}.${b64('{}')}.${b64('sig')}`, 'MALFORMED'],
    ['empty signature (unsigned)', () => `${b64(JSON.stringify({ alg: 'ES512', kid: 'k1' }))}.${b64('{}')}.`, 'MALFORMED'],
    ['JSON serialisation instead of compact', () => JSON.stringify({ payload: 'x', signatures: [] }), 'MALFORMED'],
    ['JSON string that is not a JWS', () => JSON.stringify('hello'), 'MALFORMED'],
    ['kid not a string', () => signEs({ alg: 'ES512', kid: 7 }, employeeCreated(), k1.privateKey), 'MALFORMED'],
    ['over 1 MiB', () => 'a'.repeat(MAX_WEBHOOK_BYTES + 1), 'TOO_LARGE'],
    ['crit header', () => signEs({ alg: 'ES512', kid: 'k1', crit: ['exp'], exp: 1 }, employeeCreated(), k1.privateKey), 'UNSUPPORTED_CRIT'],
    ['alg none', () => `${b64(JSON.stringify({ alg: 'none', kid: 'k1' }))}.${b64(JSON.stringify(employeeCreated()))}.${b64('x')}`, 'UNSUPPORTED_ALG'],
    ['alg missing', () => signEs({ kid: 'k1' }, employeeCreated(), k1.privateKey), 'UNSUPPORTED_ALG'],
    ['alg es512 lower case', () => signEs({ alg: 'es512', kid: 'k1' }, employeeCreated(), k1.privateKey), 'UNSUPPORTED_ALG'],
    ['HS512 signed with the public key as the secret (algorithm confusion)', () => signHmac({ alg: 'HS512', kid: 'k1' }, employeeCreated(), JSON.stringify(k1.jwk)), 'UNSUPPORTED_ALG'],
    ['HS512 signed with the PEM public key', () => signHmac({ alg: 'HS512', kid: 'k1' }, employeeCreated(), k1.publicKey.export({ type: 'spki', format: 'pem' }) as string), 'UNSUPPORTED_ALG'],
    ['ES256 with a P-256 key', () => signEs({ alg: 'ES256', kid: 'p256' }, employeeCreated(), p256.privateKey, 'sha256'), 'UNSUPPORTED_ALG'],
    ['RS512 with an RSA key', () => signRsa({ alg: 'RS512', kid: 'rsa1' }, employeeCreated(), rsa.privateKey), 'UNSUPPORTED_ALG'],
    ['ES512 claimed, kid of the P-256 key', () => signEs({ alg: 'ES512', kid: 'p256' }, employeeCreated(), p256.privateKey, 'sha512'), 'WRONG_KEY_TYPE'],
    ['ES512 claimed, kid of the RSA key', () => signRsa({ alg: 'ES512', kid: 'rsa1' }, employeeCreated(), rsa.privateKey), 'WRONG_KEY_TYPE'],
    ['unknown kid', () => signEs({ alg: 'ES512', kid: 'nope' }, employeeCreated(), k1.privateKey), 'UNKNOWN_KID'],
    ['signed by another P-521 key under a known kid', () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), ecKey('x').privateKey), 'BAD_SIGNATURE'],
    ['kid of the second key, signed by the first', () => signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k1.privateKey), 'BAD_SIGNATURE'],
    [
      'tampered payload',
      () => {
        const [h, , s] = good().split('.');
        return `${h}.${b64(JSON.stringify(employeeCreated({ status: 'ACTIVE', employeeCode: 'EVIL' })))}.${s}`;
      },
      'BAD_SIGNATURE',
    ],
    [
      'tampered header (kid swapped to the other key)',
      () => {
        const [, p, s] = good().split('.');
        return `${b64(JSON.stringify({ alg: 'ES512', kid: 'k2' }))}.${p}.${s}`;
      },
      'BAD_SIGNATURE',
    ],
    [
      'DER-encoded signature',
      () => {
        const input = signingInput({ alg: 'ES512', kid: 'k1' }, employeeCreated());
        return `${input}.${b64(require_sign(input))}`;
      },
      'BAD_SIGNATURE',
    ],
    ['signature truncated', () => good().slice(0, -8), 'BAD_SIGNATURE'],
    ['payload not JSON', () => signEs({ alg: 'ES512', kid: 'k1' }, 'hello', k1.privateKey), 'PAYLOAD_NOT_JSON'],
    ['payload JSON but an array', () => signEs({ alg: 'ES512', kid: 'k1' }, [1, 2], k1.privateKey), 'PAYLOAD_SHAPE'],
    ['payload without eventType', () => signEs({ alg: 'ES512', kid: 'k1' }, { data: {} }, k1.privateKey), 'PAYLOAD_SHAPE'],
    ['payload without data', () => signEs({ alg: 'ES512', kid: 'k1' }, { eventType: 'EMPLOYEE_CREATED' }, k1.privateKey), 'PAYLOAD_SHAPE'],
    ['payload data not an object', () => signEs({ alg: 'ES512', kid: 'k1' }, { eventType: 'EMPLOYEE_CREATED', data: 'x' }, k1.privateKey), 'PAYLOAD_SHAPE'],
    ['event shape broken (status ACTIVE on EMPLOYEE_CREATED)', () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ status: 'ACTIVE' }), k1.privateKey), 'EVENT_SHAPE'],
  ];
  it.each(cases)('%s → %s', async (_name, make, reason) => {
    const v = await verifyWebhook(make(), set());
    expect(v.valid).toBe(false);
    expect(v.reason).toBe(reason);
    expect(v.message).toBeTruthy();
    // A genuine signature is told apart from a forgery.
    expect(v.signatureValid).toBe(['PAYLOAD_NOT_JSON', 'PAYLOAD_SHAPE', 'EVENT_SHAPE'].includes(reason));
    if (!v.signatureValid) expect(v.payload).toBeNull();
  });

  it('names the HMAC confusion and "none" in the message', async () => {
    const hs = await verifyWebhook(signHmac({ alg: 'HS512', kid: 'k1' }, employeeCreated(), 'x'), set());
    expect(hs.message).toMatch(/HMAC/);
    const none = await verifyWebhook(`${b64(JSON.stringify({ alg: 'none' }))}.${b64(JSON.stringify(employeeCreated()))}.`, set());
    expect(none.reason).toBe('UNSUPPORTED_ALG');
    expect(none.message).toMatch(/unsigned/);
    const noneUpper = await verifyWebhook(`${b64(JSON.stringify({ alg: 'NONE', kid: 'k1' }))}.${b64(JSON.stringify(employeeCreated()))}.`, set());
    expect(noneUpper.reason).toBe('UNSUPPORTED_ALG');
  });

  it('a key set with no P-521 key cannot verify a kid-less JWS: WRONG_KEY_TYPE', async () => {
    const jws = signEs({ alg: 'ES512' }, employeeCreated(), k1.privateKey);
    expect((await verifyWebhook(jws, store([p256.jwk, rsa.jwk]))).reason).toBe('WRONG_KEY_TYPE');
  });

  it('a key declared for another alg or for encryption is not used', async () => {
    expect((await verifyWebhook(good(), store([{ ...k1.jwk, alg: 'ES256' }]))).reason).toBe('WRONG_KEY_TYPE');
    expect((await verifyWebhook(good(), store([{ ...k1.jwk, use: 'enc' }]))).reason).toBe('WRONG_KEY_TYPE');
  });

  it('an embedded jwk header is never trusted', async () => {
    const attacker = ecKey('k1');
    const jws = signEs({ alg: 'ES512', kid: 'k1', jwk: attacker.jwk }, employeeCreated(), attacker.privateKey);
    expect((await verifyWebhook(jws, set())).reason).toBe('BAD_SIGNATURE');
  });

  it('parseJws throws VerificationError with the code', () => {
    expect(() => parseJws('a.b')).toThrow(VerificationError);
    try {
      parseJws('a.b');
    } catch (err) {
      expect((err as VerificationError).code).toBe('MALFORMED');
      expect((err as VerificationError).exitCode).toBe(8);
    }
  });
});

import { sign as nodeSign } from 'node:crypto';
function require_sign(input: string): Buffer {
  return nodeSign('sha512', Buffer.from(input), k1.privateKey); // DER, not raw r||s
}
