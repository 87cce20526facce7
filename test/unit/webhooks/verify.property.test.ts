// Property-based tests (fast-check) of the webhook verifier: no input crashes
// it, genuine signatures always verify, and no mutation of a genuine JWS does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VerificationError } from '../../../src/errors.js';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { parseJws, REASONS, verifyWebhook } from '../../../src/webhooks/verify.js';
import { b64, ecKey, employeeCreated, signEs, UUIDS } from './helpers.js';

const k1 = ecKey('k1');
const k2 = ecKey('k2');
const p256 = ecKey('p256', 'prime256v1');
const store = () => new KeyStore({ source: { kind: 'static', jwks: { keys: [k1.jwk, k2.jwk, p256.jwk] } } });
const KNOWN = new Set<string>(Object.values(REASONS));
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// Deterministic runs: a failure is reproducible from the test alone.
const SEED = 0x5eed;
const runs = (numRuns: number) => ({ numRuns, seed: SEED });

async function verdictOf(input: string | Uint8Array) {
  const v = await verifyWebhook(input, store());
  return v;
}

/** Never throws; an invalid verdict always carries a known reason code and a message. */
async function expectCleanRejection(input: string | Uint8Array): Promise<void> {
  const v = await verdictOf(input);
  expect(v.valid).toBe(false);
  expect(KNOWN.has(v.reason!), `reason ${v.reason}`).toBe(true);
  expect(v.message).toMatch(/\S/);
}

const genuine = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
const GOOD = genuine();

describe('no input crashes the verifier', () => {
  it('arbitrary strings (full unicode) give a verdict with a known reason, never another exception', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => expectCleanRejection(s)), runs(300));
  });

  it('arbitrary bytes give a verdict with a known reason', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), (b) => expectCleanRejection(b)), runs(300));
  });

  it('three base64url parts of anything (JSON or not) are rejected with a known reason', async () => {
    const part = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }).map((s) => b64(s)), fc.json().map((j) => b64(j)), fc.string({ maxLength: 40 }));
    await fc.assert(fc.asyncProperty(part, part, part, (h, p, s) => expectCleanRejection(`${h}.${p}.${s}`)), runs(300));
  });

  it('headers of any JSON shape over a real payload are rejected with a known reason', async () => {
    const header = fc.oneof(
      fc.jsonValue(),
      fc.record({ alg: fc.oneof(fc.constantFrom('ES512', 'none', 'HS512', 'RS512', 'ES256', 'es512', ''), fc.jsonValue()), kid: fc.oneof(fc.constantFrom('k1', 'k2', 'p256', 'nope'), fc.jsonValue()), crit: fc.option(fc.jsonValue(), { nil: undefined }) }, { requiredKeys: [] }),
    );
    const [, p, s] = GOOD.split('.') as [string, string, string];
    await fc.assert(fc.asyncProperty(header, (h) => expectCleanRejection(`${b64(JSON.stringify(h) ?? 'null')}.${p}.${s}`)), runs(200));
  });

  it('parseJws throws only VerificationError with a known code', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.uint8Array({ maxLength: 200 })), (input) => {
        try {
          parseJws(input);
        } catch (err) {
          expect(err).toBeInstanceOf(VerificationError);
          expect(KNOWN.has((err as VerificationError).code)).toBe(true);
        }
      }),
      runs(1000),
    );
  });
});

describe('genuine signatures always verify', () => {
  const code = fc.stringMatching(/^[A-Z]{2,6}-\d{1,6}$/);
  const event = fc.record({
    employeeCode: code,
    status: fc.constantFrom('ONBOARDING'),
    type: fc.constantFrom('EMPLOYEE', 'HR_MEMBER', 'FREELANCER', 'CONTRACTOR'),
    country: fc.constantFrom('DEU', 'IND', 'FRA', 'USA'),
    id: fc.uuid({ version: 4 }),
  });

  it('any well-formed event, signed by either key, with or without kid, inside a JSON string or not', async () => {
    await fc.assert(
      fc.asyncProperty(event, fc.constantFrom('k1', 'k2'), fc.boolean(), fc.boolean(), async (data, which, withKid, quoted) => {
        const key = which === 'k1' ? k1 : k2;
        const jws = signEs(withKid ? { alg: 'ES512', kid: which } : { alg: 'ES512' }, employeeCreated({ ...data, customerId: UUIDS.b }), key.privateKey);
        const v = await verdictOf(quoted ? JSON.stringify(jws) : jws);
        expect(v.reason).toBeNull();
        expect(v.valid).toBe(true);
        expect(v.signatureValid).toBe(true);
      }),
      runs(60),
    );
  });

  it('any payload bytes, genuinely signed, pass the signature check (payload problems come after it)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue().map((j) => JSON.stringify(j)), fc.string({ unit: 'grapheme', maxLength: 200 })), async (payload) => {
        const v = await verdictOf(signEs({ alg: 'ES512', kid: 'k2' }, payload, k2.privateKey));
        expect(v.signatureValid).toBe(true);
        if (!v.valid) expect(['PAYLOAD_NOT_JSON', 'PAYLOAD_SHAPE', 'EVENT_SHAPE']).toContain(v.reason);
      }),
      runs(60),
    );
  });
});

describe('no mutation of a genuine JWS verifies', () => {
  const [H, P, S] = GOOD.split('.') as [string, string, string];

  it('the unmutated one does (guards the properties below)', async () => {
    expect((await verdictOf(GOOD)).valid).toBe(true);
  });

  it('changing any one character (to another base64url character) in any part', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: GOOD.length - 1 }), fc.constantFrom(...B64URL), async (i, c) => {
        fc.pre(GOOD[i] !== '.' && GOOD[i] !== c);
        const mutated = GOOD.slice(0, i) + c + GOOD.slice(i + 1);
        const v = await verdictOf(mutated);
        expect(v.valid).toBe(false);
        expect(v.signatureValid).toBe(false);
      }),
      runs(250),
    );
  });

  it('changing any one character to anything at all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: GOOD.length - 1 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }), async (i, c) => {
        fc.pre(GOOD[i] !== c);
        const mutated = GOOD.slice(0, i) + c + GOOD.slice(i + 1);
        fc.pre(mutated.trim() !== GOOD);
        const v = await verdictOf(mutated);
        expect(v.valid).toBe(false);
        expect(v.signatureValid).toBe(false);
      }),
      runs(150),
    );
  });

  it('swapping, repeating or dropping parts', async () => {
    const parts = [H, P, S, ''];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 4 }), async (idx) => {
        const jws = idx.map((i) => parts[i]).join('.');
        fc.pre(jws !== GOOD);
        const v = await verdictOf(jws);
        expect(v.valid).toBe(false);
        expect(v.signatureValid).toBe(false);
      }),
      runs(150),
    );
  });

  it('changing, adding or removing header fields (kept signature)', async () => {
    const edit = fc.record(
      {
        alg: fc.option(fc.constantFrom('ES512', 'ES384', 'none', 'HS512'), { nil: undefined }),
        kid: fc.option(fc.constantFrom('k1', 'k2', 'p256', 'zz'), { nil: undefined }),
        extra: fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { nil: undefined }),
        spaces: fc.boolean(),
      },
      { requiredKeys: ['spaces'] },
    );
    await fc.assert(
      fc.asyncProperty(edit, async (e) => {
        const header: Record<string, unknown> = { ...(e.extra ?? {}) };
        if (e.alg !== undefined) header.alg = e.alg;
        if (e.kid !== undefined) header.kid = e.kid;
        const text = e.spaces ? JSON.stringify(header, null, 1) : JSON.stringify(header);
        const h = b64(text);
        fc.pre(h !== H);
        const v = await verdictOf(`${h}.${P}.${S}`);
        expect(v.valid).toBe(false);
        expect(v.signatureValid).toBe(false);
      }),
      runs(150),
    );
  });

  it('a genuine header and signature over another payload', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (payload) => {
        const p = b64(JSON.stringify(payload) ?? 'null');
        fc.pre(p !== P);
        const v = await verdictOf(`${H}.${p}.${S}`);
        expect(v.valid).toBe(false);
        expect(v.reason).toBe('BAD_SIGNATURE');
      }),
      runs(100),
    );
  });
});
