// Every check of jws.ts (the layers before any key) on its own, with the
// exact outcome it produces, so that none can be removed or loosened while the
// suite still passes (mutation testing: `npx stryker run --mutate src/webhooks/jws.ts`).
import { describe, expect, it } from 'vitest';
import { VerificationError } from '../../../src/errors.js';
import { MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_PAYLOAD_DEPTH, MAX_WEBHOOK_BYTES, POST_SIGNATURE_REASONS } from '../../../src/webhooks/reasons.js';
import { parseJws } from '../../../src/webhooks/jws.js';
import { tooLargeVerdict } from '../../../src/webhooks/verify.js';
import { b64, ecKey, employeeCreated, signEs } from './helpers.js';

const k1 = ecKey('k1');
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

