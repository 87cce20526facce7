import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, generateKeyPair, CompactSign } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSigner, startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

const JWKS = '/v1/partner/.well-known/jwks.json';

describe('JWKS and signing', () => {
  it('serves public P-521 keys only', async () => {
    const r = await call(s, JWKS, { token: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toEqual(s.signer.jwks());
    expect(r.body.keys).toHaveLength(1);
    for (const k of r.body.keys) {
      expect(Object.keys(k).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'x', 'y']);
      expect(k).toMatchObject({ kty: 'EC', crv: 'P-521', alg: 'ES512', kid: s.signer.kid });
      expect(k.x).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(k.y).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });

  it('a signed JWS verifies against the served key set', async () => {
    const payload = { eventType: 'EMPLOYEE_ACTIVATED', timestamp: new Date().toISOString(), data: { status: 'ACTIVE' } };
    const jws = await s.signer.sign(payload);
    expect(decodeProtectedHeader(jws)).toEqual({ alg: 'ES512', kid: s.signer.kid });
    const jwks = (await call(s, JWKS, { token: null })).body;
    const { payload: bytes } = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['ES512'] });
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(payload);
    // strings are signed as is
    const raw = await s.signer.sign('{"a":1}');
    expect(new TextDecoder().decode((await compactVerify(raw, createLocalJWKSet(jwks))).payload)).toBe('{"a":1}');
  });

  it('a JWS from a foreign key does not verify', async () => {
    const { privateKey } = await generateKeyPair('ES512');
    const forged = await new CompactSign(new TextEncoder().encode('{}')).setProtectedHeader({ alg: 'ES512', kid: s.signer.kid }).sign(privateKey);
    await expect(compactVerify(forged, createLocalJWKSet(s.signer.jwks()))).rejects.toThrow();
  });
});

describe('rotation', () => {
  it('rotate() switches the signing key and keeps the old one published', async () => {
    const signer = await createSigner();
    const oldKid = signer.kid;
    const oldJws = await signer.sign({ n: 1 });
    const newKid = await signer.rotate();
    expect(newKid).not.toBe(oldKid);
    expect(signer.kid).toBe(newKid);
    expect(signer.jwks().keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    const jws = await signer.sign({ n: 2 });
    expect(decodeProtectedHeader(jws).kid).toBe(newKid);
    const set = createLocalJWKSet(signer.jwks());
    await compactVerify(jws, set);
    await compactVerify(oldJws, set);
    // signing with a named older key
    expect(decodeProtectedHeader(await signer.sign({ n: 3 }, { kid: oldKid })).kid).toBe(oldKid);
  });

  it('rotate({dropOld}) and dropKey() unpublish old keys', async () => {
    const signer = await createSigner();
    const first = signer.kid;
    const oldJws = await signer.sign({ n: 1 });
    await signer.rotate();
    expect(signer.dropKey(signer.kid)).toBe(false); // never the current key
    expect(signer.dropKey(first)).toBe(true);
    expect(signer.jwks().keys).toHaveLength(1);
    await expect(compactVerify(oldJws, createLocalJWKSet(signer.jwks()))).rejects.toThrow();
    await signer.rotate();
    const latest = await signer.rotate({ dropOld: true });
    expect(signer.jwks().keys.map((k) => k.kid)).toEqual([latest]);
  });

  it('the sandbox serves rotated keys', async () => {
    const t = await startSandbox();
    try {
      const before = t.signer.kid;
      await t.signer.rotate();
      const kids = (await call(t, JWKS, { token: null })).body.keys.map((k: { kid: string }) => k.kid);
      expect(kids).toEqual([t.signer.kid, before]);
    } finally {
      await t.close();
    }
  });
});

describe('keys kept across processes (the embedded sandbox, )', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'partner-sbx-keys-'));
    dirs.push(d);
    return join(d, 'cache');
  };

  it('the next signer (a new process) publishes and signs with the same keys; a rotation is kept too; the file is 0600 in a 0700 directory', async () => {
    const cache = scratch();
    const keysFile = join(cache, 'sandbox-signing-keys.json');
    const first = await createSigner({ keysFile });
    const jws = await first.sign({ n: 1 });
    const second = await createSigner({ keysFile });
    expect(second.kid).toBe(first.kid);
    expect(new TextDecoder().decode((await compactVerify(jws, createLocalJWKSet(second.jwks()))).payload)).toBe('{"n":1}');
    if (process.platform !== 'win32') {
      expect(statSync(keysFile).mode & 0o777).toBe(0o600);
      expect(statSync(cache).mode & 0o777).toBe(0o700);
    }
    const rotated = await second.rotate();
    const third = await createSigner({ keysFile });
    expect(third.jwks().keys.map((k) => k.kid)).toEqual([rotated, first.kid]);
    expect(decodeProtectedHeader(await third.sign({})).kid).toBe(rotated);
    // Bounded: the newest few keys only.
    for (let i = 0; i < 6; i++) await third.rotate();
    expect((await createSigner({ keysFile })).jwks().keys).toHaveLength(5);
    // Without a file: new keys every time (partner sandbox start, tests).
    expect((await createSigner()).kid).not.toBe((await createSigner()).kid);
  });

  it('two first runs at once keep one set', async () => {
    const keysFile = join(scratch(), 'k.json');
    const [a, b, c] = await Promise.all([createSigner({ keysFile }), createSigner({ keysFile }), createSigner({ keysFile })]);
    const on = (await createSigner({ keysFile })).kid;
    expect([a.kid, b.kid, c.kid]).toEqual([on, on, on]);
  });

  it.runIf(process.platform !== 'win32')('a symbolic link, a file others can write or a damaged file: never followed or trusted; said so', async () => {
    const cache = scratch();
    mkdirSync(cache, { mode: 0o700 });
    const elsewhere = join(cache, '..', 'elsewhere.json');
    writeFileSync(elsewhere, 'planted', { mode: 0o600 });
    const keysFile = join(cache, 'k.json');
    symlinkSync(elsewhere, keysFile);
    const told: string[] = [];
    const s = await createSigner({ keysFile, warn: (m) => told.push(m) });
    expect(told).toEqual([`not keeping the sandbox's signing keys in ${keysFile}: it is a symbolic link; this run signs with throwaway keys`]);
    expect(readFileSync(elsewhere, 'utf8')).toBe('planted');
    await s.rotate(); // nothing written through the link either
    expect(readFileSync(elsewhere, 'utf8')).toBe('planted');
    rmSync(keysFile);
    writeFileSync(keysFile, 'x', { mode: 0o600 });
    chmodSync(keysFile, 0o666);
    told.length = 0;
    await createSigner({ keysFile, warn: (m) => told.push(m) });
    expect(told[0]).toMatch(/it is writable by everyone \(mode 0666\)/);
    expect(statSync(keysFile).mode & 0o777).toBe(0o666); // not ours to change here; never widened
    chmodSync(keysFile, 0o600);
    told.length = 0;
    const fresh = await createSigner({ keysFile, warn: (m) => told.push(m) });
    expect(told).toEqual([expect.stringMatching(/cannot be read \(.+\); making new ones$/)]);
    expect((await createSigner({ keysFile })).kid).toBe(fresh.kid);
  });

  it('a FIFO at the keys file is never waited on: this run signs with throwaway keys, and says so', async () => {
    const cache = scratch();
    mkdirSync(cache, { mode: 0o700 });
    const keysFile = join(cache, 'k.json');
    execFileSync('mkfifo', ['-m', '600', keysFile]);
    const told: string[] = [];
    // Opened as a file, a FIFO blocks until a writer comes: the test would time out here.
    const s = await createSigner({ keysFile, warn: (m) => told.push(m) });
    expect(s.kid).toBeTruthy();
    expect(told).toEqual([`cannot keep the sandbox's signing keys in ${keysFile} (not a regular file); this run signs with throwaway keys`]);
  });
});
