// Every check of verify.ts on its own, with the exact outcome it produces, so
// that no check can be removed or loosened while the suite still passes
// (mutation testing: `npx stryker run --mutate src/webhooks/verify.ts`).
import { describe, expect, it } from 'vitest';
import { sign } from 'node:crypto';
import { KeyStore, parseJwks } from '../../../src/webhooks/jwks.js';
import { MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_PAYLOAD_DEPTH, MAX_WEBHOOK_BYTES, POST_SIGNATURE_REASONS, parseJws, tooLargeVerdict, tryKey, verifyWebhook } from '../../../src/webhooks/verify.js';
import { VerificationError } from '../../../src/errors.js';
import { b64, ecKey, employeeCreated, rsaKey, signEs, UUIDS } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const rsa = rsaKey('k1');
const staticStore = (keys: Record<string, unknown>[], origin?: string) => new KeyStore({ source: { kind: 'static', jwks: { keys }, origin } });
const tail = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey).split('.').slice(1).join('.');
const withHeader = (h: unknown) => `${b64(JSON.stringify(h))}.${tail}`;

function thrown(fn: () => unknown): VerificationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof VerificationError) return err;
    throw err;
  }
  throw new Error('no VerificationError');
}

function signBytes(header: Record<string, unknown>, payload: Buffer | string, key = k1.privateKey): string {
  const input = `${b64(JSON.stringify(header))}.${Buffer.from(payload).toString('base64url')}`;
  return `${input}.${sign('sha512', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

describe('limits', () => {
  it('have the documented values', () => {
    expect([MAX_WEBHOOK_BYTES, MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_PAYLOAD_DEPTH]).toEqual([1024 * 1024, 4096, 4, 32]);
    expect([...POST_SIGNATURE_REASONS].sort()).toEqual(['EVENT_SHAPE', 'PAYLOAD_NOT_JSON', 'PAYLOAD_SHAPE']);
  });

  it('the body limit counts bytes, not characters', () => {
    const e = thrown(() => parseJws(`a.b.${'é'.repeat(MAX_WEBHOOK_BYTES / 2)}`));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toBe(`the body is ${MAX_WEBHOOK_BYTES + 4} bytes; at most 1 MiB (1048576 bytes) is accepted`);
  });

  it('tooLargeVerdict', () => {
    expect(tooLargeVerdict()).toMatchObject({ valid: false, reason: 'TOO_LARGE', message: 'the body is larger than 1 MiB (1048576 bytes); it was not read further', header: null, signatureValid: false });
  });
});

describe('parseJws, check by check (exact messages)', () => {
  it.each([
    ['"abc', 'MALFORMED', 'the body starts with a quote but is not a JSON string'],
    ['{"payload":"x","signatures":[]}', 'MALFORMED', 'the body is a JSON object, not a compact JWS (the JSON serialisation and raw JSON are refused)'],
    ['"{\\"a\\":1}"', 'MALFORMED', 'the body is a JSON object, not a compact JWS (the JSON serialisation and raw JSON are refused)'],
    ['abc', 'MALFORMED', 'a compact JWS has 3 dot-separated parts; this has 1'],
    ['a.b', 'MALFORMED', 'a compact JWS has 3 dot-separated parts; this has 2'],
    ['a.b.c.d', 'MALFORMED', 'a compact JWS has 3 dot-separated parts; this has more'],
    ['a.b.c.d.e.f', 'MALFORMED', 'a compact JWS has 3 dot-separated parts; this has more'],
    ['.b.c', 'MALFORMED', 'the protected header is empty'],
    ['a*b.c.d', 'MALFORMED', 'the protected header is not base64url (characters outside A-Z a-z 0-9 - _)'],
    ['abcde.c.d', 'MALFORMED', 'the protected header is not valid base64url (impossible length)'],
    [`${b64(Buffer.from([0xff, 0xfe, 0x7b]))}.c.d`, 'MALFORMED', 'the protected header is not UTF-8 text'],
    [`${b64('{"alg":')}.c.d`, 'MALFORMED', 'the protected header is not JSON'],
    [`${b64('[1]')}.c.d`, 'MALFORMED', 'the protected header is not a JSON object'],
    [`${b64('null')}.c.d`, 'MALFORMED', 'the protected header is not a JSON object'],
    [`${b64('"x"')}.c.d`, 'MALFORMED', 'the protected header is not a JSON object'],
  ])('%s → %s', (input, code, message) => {
    const e = thrown(() => parseJws(input));
    expect([e.code, e.message]).toEqual([code, message]);
  });

  it('alg: every refusal names what was wrong', () => {
    const msg = (alg: unknown) => thrown(() => parseJws(withHeader(alg === undefined ? { kid: 'k1' } : { alg, kid: 'k1' })));
    expect(msg(undefined).message).toBe('the header has no "alg"');
    expect(msg(512).message).toBe('"alg" is 512, not a string');
    expect(msg({ a: 'x'.repeat(50) }).message).toBe(`"alg" is ${JSON.stringify({ a: 'x'.repeat(50) }).slice(0, 30)}, not a string`);
    expect(msg('none').message).toBe('alg "none": unsigned tokens are never accepted; only ES512');
    expect(msg('NoNe').message).toBe('alg "NoNe": unsigned tokens are never accepted; only ES512');
    expect(msg('HS512').message).toBe('alg "HS512" (HMAC) is refused: an algorithm-confusion attempt; only ES512 is accepted');
    expect(msg('hs256').message).toMatch(/\(HMAC\)/);
    expect(msg('RS512').message).toBe('alg "RS512" (RSA) is refused; only ES512 is accepted');
    expect(msg('PS256').message).toBe('alg "PS256" (RSA) is refused; only ES512 is accepted');
    expect(msg('ps256').message).toMatch(/\(RSA\)/);
    expect(msg('ES256').message).toBe('alg "ES256" is refused; only ES512 (P-521) is accepted');
    expect(msg('es384').message).toBe('alg "es384" is refused; only ES512 (P-521) is accepted');
    expect(msg('EdDSA').message).toBe('alg "EdDSA" is refused; only ES512 is accepted');
    // The family is read from the start of the name only.
    for (const alg of ['xHS256', 'xRS256', 'xPS256', 'xES256']) expect(msg(alg).message).toBe(`alg "${alg}" is refused; only ES512 is accepted`);
    expect(msg('ES256K').message).toBe('alg "ES256K" is refused; only ES512 (P-521) is accepted');
    expect(msg('X'.repeat(40)).message).toBe(`alg "${'X'.repeat(30)}" is refused; only ES512 is accepted`);
    expect(msg('es512').code).toBe('UNSUPPORTED_ALG');
    expect(msg('ES512 ').code).toBe('UNSUPPORTED_ALG');
    for (const alg of [undefined, 512, 'none', 'HS512']) expect(msg(alg).code).toBe('UNSUPPORTED_ALG');
  });

  it('crit comes before alg, and is quoted (cut to 60 characters)', () => {
    const e = thrown(() => parseJws(withHeader({ alg: 'none', crit: ['b64'] })));
    expect([e.code, e.message]).toEqual(['UNSUPPORTED_CRIT', 'the header marks extensions as critical (crit ["b64"]); none is understood']);
    const long = thrown(() => parseJws(withHeader({ alg: 'ES512', crit: ['x'.repeat(100)] })));
    expect(long.message).toBe(`the header marks extensions as critical (crit ${JSON.stringify(['x'.repeat(100)]).slice(0, 60)}); none is understood`);
    // crit: false is still a crit member.
    expect(thrown(() => parseJws(withHeader({ alg: 'ES512', crit: false }))).code).toBe('UNSUPPORTED_CRIT');
  });

  it('kid must be a string when present', () => {
    expect(thrown(() => parseJws(withHeader({ alg: 'ES512', kid: 7 }))).message).toBe('"kid" in the header is not a string');
    expect(parseJws(withHeader({ alg: 'ES512', kid: 'k1' }))).toMatchObject({ kid: 'k1', header: { alg: 'ES512', kid: 'k1' } });
    expect(parseJws(withHeader({ alg: 'ES512' })).kid).toBeUndefined();
  });

  it('payload and signature: alphabet, length, empty signature (exact messages)', () => {
    const h = b64(JSON.stringify({ alg: 'ES512' }));
    expect(thrown(() => parseJws(`${h}.a=b.AAAA`)).message).toBe('the payload is not base64url (characters outside A-Z a-z 0-9 - _)');
    expect(thrown(() => parseJws(`${h}.AAAA.a/b`)).message).toBe('the signature is not base64url (characters outside A-Z a-z 0-9 - _)');
    expect(thrown(() => parseJws(`${h}.AAAA.`)).message).toBe('the signature is empty (an unsigned token)');
    expect(thrown(() => parseJws(`${h}.A.AAAA`)).message).toBe('the payload is not valid base64url (impossible length)');
    // An empty payload is allowed by the compact form (it fails later, at the signature).
    expect(parseJws(`${h}..AAAA`).jws).toBe(`${h}..AAAA`);
    // Lengths 4n, 4n+2 and 4n+3 are all possible.
    for (const p of ['AAAA', 'AA', 'AAA', 'AAAAAA', 'AAAAAAA']) expect(() => parseJws(`${h}.${p}.${p}`)).not.toThrow();
  });

  it('returns the unwrapped, trimmed JWS', () => {
    const jws = `${b64(JSON.stringify({ alg: 'ES512' }))}.AAAA.AAAA`;
    expect(parseJws(` "  ${jws} " `).jws).toBe(jws);
    expect(parseJws(Buffer.from(`\n${jws}\n`)).jws).toBe(jws);
  });
});

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
