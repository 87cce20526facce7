// Hostile inputs and the layers of defence one at a time: each test reaches exactly
// one check, so removing it changes a verdict here.
import { describe, expect, it } from 'vitest';
import { KeySetError, KeyStore, type FetchedJwks } from '../../../src/webhooks/jwks.js';
import { DeferredVerificationError, MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_PAYLOAD_DEPTH, MAX_WEBHOOK_BYTES, parseJws, verifySignature, verifyWebhook } from '../../../src/webhooks/verify.js';
import { statusForVerdict } from '../../../src/webhooks/listen.js';
import { verdictJson, renderVerdict, showEventType, VERDICT_LIST, verdictRecord } from '../../../src/webhooks/render.js';
import { getPath } from '../../../src/output/fields.js';
import type { Verdict } from '../../../src/webhooks/verify.js';

/** The cells of the `webhook verify --file` row of a verdict (line 1), joined as the table shows them. */
const fileRow = (v: Verdict) => VERDICT_LIST.columns.map((c) => String((c.value ? c.value(verdictRecord(1, v)) : getPath(verdictRecord(1, v), c.key)) ?? '-')).join('  ');
import { jsonText } from '../../../src/output/sanitize.js';
import { VerificationError } from '../../../src/errors.js';
import { b64, ecKey, employeeCreated, signBytes as signWith, signEs } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const plain = { bold: (s: string) => s, dim: (s: string) => s, red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s } as never;
const staticStore = (keys: Record<string, unknown>[]) => new KeyStore({ source: { kind: 'static', jwks: { keys } } });

/** Signs arbitrary payload BYTES (not necessarily UTF-8 or JSON) with ES512. */
const signBytes = (header: Record<string, unknown>, payload: Buffer, key = k1.privateKey) => signWith(header, payload, key);

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof VerificationError) return err.code;
    throw err;
  }
  return undefined;
}

const goodTail = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey).split('.').slice(1).join('.');

describe('bounded parsing of the protected header', () => {
  it('5,000 nested objects (40 KB, no key needed): TOO_LARGE verdict, no stack overflow, printable', async () => {
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const jws = `${b64(nested)}.${goodTail()}`;
    const v = await verifyWebhook(jws, staticStore([k1.jwk]));
    expect(v).toMatchObject({ valid: false, reason: 'TOO_LARGE', header: null });
    const h = b64(nested);
    expect(v.message).toBe(`the protected header is about ${Math.floor((h.length * 3) / 4)} bytes; at most 4096 bytes are accepted`);
    expect(Math.floor((h.length * 3) / 4)).toBe(nested.length);
    expect(() => jsonText(verdictJson(v))).not.toThrow();
    expect(fileRow(v)).toMatch(/^1 {2}TOO_LARGE {2}/);
  });

  it('deep nesting within the size limit: MALFORMED, told apart from size', async () => {
    const deep = `{"alg":"ES512","x":${'['.repeat(1500)}${']'.repeat(1500)}}`;
    expect(deep.length).toBeLessThan(MAX_HEADER_BYTES);
    const v = await verifyWebhook(`${b64(deep)}.${goodTail()}`, staticStore([k1.jwk]));
    expect(v.reason).toBe('MALFORMED');
    expect(v.message).toMatch(/nests deeper than 4 levels/);
    expect(v.header).toBeNull();
  });

  it('depth boundary: exactly MAX_HEADER_DEPTH levels pass the depth check (reaching the alg check), one more does not', () => {
    const at = (depth: number) => `{"alg":"RS256","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(reason(() => parseJws(`${b64(at(MAX_HEADER_DEPTH))}.${goodTail()}`))).toBe('UNSUPPORTED_ALG');
    expect(reason(() => parseJws(`${b64(at(MAX_HEADER_DEPTH + 1))}.${goodTail()}`))).toBe('MALFORMED');
    // Brackets inside strings (and escaped quotes) are not nesting.
    expect(reason(() => parseJws(`${b64(`{"alg":"RS256","x":"\\"[[[[[[[[{{{{{{"}`)}.${goodTail()}`))).toBe('UNSUPPORTED_ALG');
  });

  it('size boundary: a header of exactly 4096 bytes is read; 4099 is TOO_LARGE before decoding', () => {
    const pad = (n: number) => {
      const base = '{"alg":"RS256","p":""}';
      return base.replace('""', `"${'x'.repeat(n - base.length)}"`);
    };
    expect(pad(MAX_HEADER_BYTES).length).toBe(MAX_HEADER_BYTES);
    expect(reason(() => parseJws(`${b64(pad(MAX_HEADER_BYTES))}.${goodTail()}`))).toBe('UNSUPPORTED_ALG');
    expect(reason(() => parseJws(`${b64(pad(MAX_HEADER_BYTES + 3))}.${goodTail()}`))).toBe('TOO_LARGE');
  });

  it('a refused header is echoed only as a bounded summary (8 members, strings cut, objects named)', async () => {
    const hdr: Record<string, unknown> = { alg: 'RS256', kid: 'k'.repeat(300), obj: { a: { b: 1 } }, arr: [1, 2], n: 1, b: true, z: null };
    for (let i = 0; i < 20; i++) hdr[`m${i}`] = i;
    const v = await verifyWebhook(`${b64(JSON.stringify(hdr))}.${goodTail()}`, staticStore([k1.jwk]));
    expect(v.reason).toBe('UNSUPPORTED_ALG');
    expect(Object.keys(v.header!)).toHaveLength(8);
    expect(v.header).toMatchObject({ alg: 'RS256', obj: '[object]', arr: '[array]', n: 1, b: true, z: null });
    expect((v.header!.kid as string).length).toBe(101);
    expect(v.alg).toBe('RS256');
  });

  it('a UTF-8 byte-order mark before the header is MALFORMED (bytes and text)', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jws)]);
    const v = await verifyWebhook(bytes, staticStore([k1.jwk]));
    expect(v.reason).toBe('MALFORMED');
    expect(v.message).toMatch(/byte-order mark/);
    expect((await verifyWebhook(`\ufeff${jws}`, staticStore([k1.jwk]))).reason).toBe('MALFORMED');
    expect((await verifyWebhook(`  \ufeff${jws}`, staticStore([k1.jwk]))).reason).toBe('MALFORMED');
    // Whitespace alone is still tolerated.
    expect((await verifyWebhook(`\t ${jws}\r\n`, staticStore([k1.jwk]))).valid).toBe(true);
  });

  it('a body that is not UTF-8 is MALFORMED', async () => {
    const v = await verifyWebhook(Buffer.from([0x65, 0x79, 0xff, 0xfe, 0x2e]), staticStore([k1.jwk]));
    expect(v).toMatchObject({ reason: 'MALFORMED', message: 'the body is not UTF-8 text' });
  });
});

describe('each layer on its own', () => {
  it('the body size limit: exactly 1 MiB is parsed further, one byte more is TOO_LARGE', () => {
    const body = (n: number) => `a.b.${'c'.repeat(n - 4)}`;
    expect(reason(() => parseJws(body(MAX_WEBHOOK_BYTES)))).not.toBe('TOO_LARGE');
    expect(reason(() => parseJws(body(MAX_WEBHOOK_BYTES + 1)))).toBe('TOO_LARGE');
    expect(reason(() => parseJws(Buffer.from(body(MAX_WEBHOOK_BYTES + 1))))).toBe('TOO_LARGE');
  });

  it('empty and whitespace-only bodies are MALFORMED "empty"', () => {
    for (const input of ['', '  \r\n', Buffer.alloc(0)]) {
      try {
        parseJws(input);
        expect.unreachable();
      } catch (err) {
        expect((err as Error).message).toBe('the body is empty');
      }
    }
  });

  it('base64url alphabet and length checks of payload and signature, reached with a valid ES512 header', () => {
    const h = b64(JSON.stringify({ alg: 'ES512', kid: 'k1' }));
    expect(reason(() => parseJws(`${h}.ab+c.AAAA`))).toBe('MALFORMED');
    expect(reason(() => parseJws(`${h}.abc=.AAAA`))).toBe('MALFORMED');
    expect(reason(() => parseJws(`${h}.AAAA.ab/c`))).toBe('MALFORMED');
    // Length 4n+1 cannot be base64: 5 characters.
    expect(() => parseJws(`${h}.AAAAA.AAAA`)).toThrow(/payload is not valid base64url \(impossible length\)/);
    expect(() => parseJws(`${h}.AAAA.AAAAA`)).toThrow(/signature is not valid base64url \(impossible length\)/);
    // 4n+2 and 4n+3 are fine.
    expect(reason(() => parseJws(`${h}.AAAAAA.AAAAAAA`))).toBeUndefined();
    expect(() => parseJws(`${h}.AAAA.`)).toThrow(/signature is empty/);
    expect(() => parseJws(`${h.slice(0, -1)}*.AAAA.AAAA`)).toThrow(/protected header is not base64url/);
  });

  it('alg allow-list inside the signature check too: a key accepting any alg still refuses ES256 (jose algorithms option)', async () => {
    // The header says ES512 (passes parseJws) but the jose layer is what pins the algorithm for the key;
    // a P-521 key cannot verify an ES256 signature, so this is BAD_SIGNATURE, never valid.
    const p256 = ecKey('k1', 'prime256v1');
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), p256.privateKey, 'sha256');
    expect((await verifyWebhook(jws, staticStore([k1.jwk]))).reason).toBe('BAD_SIGNATURE');
  });
});

describe('the payload after a genuine signature', () => {
  it('invalid UTF-8 in the payload is PAYLOAD_NOT_JSON, never decoded with replacement characters', async () => {
    // JSON that would parse (and be a valid event) if 0xff became U+FFFD.
    const text = JSON.stringify({ ...employeeCreated(), note: 'X' });
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf('"X"') + 1] = 0xff;
    const v = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, bytes), staticStore([k1.jwk]));
    expect(v).toMatchObject({ valid: false, signatureValid: true, reason: 'PAYLOAD_NOT_JSON', message: 'the signature is genuine, but the payload is not UTF-8 text' });
  });

  it('a payload nested deeper than the limit is PAYLOAD_SHAPE; at the limit it is parsed', async () => {
    const nest = (depth: number) => `{"eventType":"X","data":{},"n":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const over = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, Buffer.from(nest(MAX_PAYLOAD_DEPTH + 1))), staticStore([k1.jwk]));
    expect(over).toMatchObject({ reason: 'PAYLOAD_SHAPE', signatureValid: true });
    expect(over.message).toMatch(/nests deeper than 32/);
    const at = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, Buffer.from(nest(MAX_PAYLOAD_DEPTH))), staticStore([k1.jwk]));
    expect(at.valid).toBe(true);
    expect(at.eventType).toBe('X');
  });

  it('an event type with invisible or look-alike characters is shown escaped everywhere', async () => {
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, { ...employeeCreated(), eventType: 'EMPLOYEE_CREATED\u200b' }, k1.privateKey), staticStore([k1.jwk]));
    expect(v.valid).toBe(true);
    expect(v.warnings[0]).toContain('"EMPLOYEE_CREATED\\u200b"');
    expect(fileRow(v)).toContain('EMPLOYEE_CREATED\\u200b');
    expect(renderVerdict(v, plain)).toContain('EMPLOYEE_CREATED\\u200b');
    expect(showEventType('\u0415MPLOYEE_CREATED')).toBe('\\u0415MPLOYEE_CREATED');
    expect(showEventType('A\\u0041')).toBe('A\\\\u0041');
    expect(showEventType('EMPLOYEE_CREATED')).toBe('EMPLOYEE_CREATED');
  });

  it('a non-deprecated event without timestamp is EVENT_SHAPE', async () => {
    const { timestamp: _t, ...noTime } = employeeCreated();
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k1' }, noTime, k1.privateKey), staticStore([k1.jwk]));
    expect(v).toMatchObject({ valid: false, reason: 'EVENT_SHAPE', signatureValid: true });
    expect(v.errors).toContain('timestamp is missing (required on every event but the deprecated contract events)');
  });
});

/** A key server for a url KeyStore: what it serves now, how often it was asked, a clock. */
function keyServer(keys: Record<string, unknown>[]) {
  const s = { keys, fetches: 0, down: false, t: 1_700_000_000_000 };
  const fetch = async (): Promise<FetchedJwks> => {
    s.fetches++;
    if (s.down) throw new KeySetError('Could not fetch the webhook key set: HTTP 503');
    return { body: { keys: s.keys } };
  };
  const store = () => new KeyStore({ source: { kind: 'url', url: 'https://keys.example.test/jwks.json', fetch }, now: () => s.t });
  return Object.assign(s, { store });
}

describe('key-set outages and rotation (never a false "invalid")', () => {
  it('a key-set outage is an error, not a verdict (listen answers 503, not 401)', async () => {
    const s = keyServer([k1.jwk]);
    s.down = true;
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    await expect(verifyWebhook(jws, s.store())).rejects.toBeInstanceOf(KeySetError);
    // Also when the outage hits the refetch for a rotated kid.
    const up = keyServer([k1.jwk]);
    const st = up.store();
    expect((await verifyWebhook(jws, st)).valid).toBe(true);
    up.down = true;
    const rotated = signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey);
    await expect(verifyWebhook(rotated, st)).rejects.toBeInstanceOf(KeySetError);
  });

  it('a JWS without kid, signed with a key added by a rotation, is found by a refetch', async () => {
    const s = keyServer([k1.jwk]);
    const st = s.store();
    expect((await verifyWebhook(signEs({ alg: 'ES512' }, employeeCreated(), k1.privateKey), st)).valid).toBe(true);
    expect(s.fetches).toBe(1);
    s.keys = [k2.jwk];
    const v = await verifyWebhook(signEs({ alg: 'ES512' }, employeeCreated(), k2.privateKey), st);
    expect(v.valid).toBe(true);
    expect(s.fetches).toBe(2);
  });

  it('two rotations within 30 s: the second new kid is deferred (503 + Retry-After), then accepted after the cool-down', async () => {
    const s = keyServer([k1.jwk]);
    const st = s.store();
    await st.current();
    s.keys = [k1.jwk, k2.jwk];
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey), st)).valid).toBe(true);
    expect(s.fetches).toBe(2);
    const k3 = ecKey('k3');
    s.keys = [k2.jwk, k3.jwk];
    s.t += 10_000;
    const jws3 = signEs({ alg: 'ES512', kid: 'k3' }, employeeCreated(), k3.privateKey);
    const held = await verifyWebhook(jws3, st);
    expect(held).toMatchObject({ valid: false, reason: 'UNKNOWN_KID', retryAfterMs: 20_000 });
    expect(held.message).toMatch(/checked again in 20 s/);
    expect(statusForVerdict(held)).toBe(503);
    expect(s.fetches).toBe(2);
    s.t += 20_000;
    expect((await verifyWebhook(jws3, st)).valid).toBe(true);
    expect(s.fetches).toBe(3);
  });

  it('an attacker unknown-kid request that used up the refetch does not make a genuine new kid a 401', async () => {
    const s = keyServer([k1.jwk]);
    const st = s.store();
    await st.current();
    const attacker = ecKey('evil');
    const forged = await verifyWebhook(signEs({ alg: 'ES512', kid: 'evil' }, employeeCreated(), attacker.privateKey), st);
    expect(forged).toMatchObject({ reason: 'UNKNOWN_KID' });
    expect(forged.retryAfterMs).toBeUndefined(); // the refetch ran: a definite answer (401)
    expect(statusForVerdict(forged)).toBe(401);
    s.keys = [k1.jwk, k2.jwk];
    s.t += 1000;
    const genuine = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey), st);
    expect(genuine.retryAfterMs).toBe(29_000);
    expect(statusForVerdict(genuine)).toBe(503);
    // Without a kid too: no key verifies, refetch held back.
    const nokid = await verifyWebhook(signEs({ alg: 'ES512' }, employeeCreated(), k2.privateKey), st);
    expect(nokid).toMatchObject({ reason: 'BAD_SIGNATURE', retryAfterMs: 29_000 });
    // verifySignature throws the deferred error type.
    await expect(verifySignature(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey), st)).rejects.toBeInstanceOf(DeferredVerificationError);
  });

  it('a static or file key set never defers (nothing to refetch): a definite UNKNOWN_KID', async () => {
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey), staticStore([k1.jwk]));
    expect(v.reason).toBe('UNKNOWN_KID');
    expect(v.retryAfterMs).toBeUndefined();
    expect(statusForVerdict(v)).toBe(401);
  });
});
