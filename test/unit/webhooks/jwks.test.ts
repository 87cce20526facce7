import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore, MAX_CACHE_MS, type FetchedJwks } from '../../../src/webhooks/jwks.js';
import { verifyWebhook } from '../../../src/webhooks/verify.js';
import { ecKey, employeeCreated, signEs } from './helpers.js';

const URL_ = 'https://api.example.test/v1/partner/.well-known/jwks.json';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'partner-jwks-'));
  dirs.push(d);
  return d;
}

/** A fake key server: what it publishes now, how often it was asked, and a settable clock. */
function server(keys: Record<string, unknown>[], cacheControl?: string) {
  const state = { keys, fetches: 0, cacheControl, t: 1_700_000_000_000 };
  const fetch = async (): Promise<FetchedJwks> => {
    state.fetches++;
    return { body: { keys: state.keys }, cacheControl: state.cacheControl };
  };
  return Object.assign(state, { fetch });
}

const CACHE_KEY = Buffer.alloc(32, 7);

function storeFor(s: ReturnType<typeof server>, cacheDir?: string, useCache = true): KeyStore {
  return new KeyStore({ source: { kind: 'url', url: URL_, fetch: s.fetch }, cacheDir, useCache, cacheKey: () => CACHE_KEY, now: () => s.t });
}

describe('KeyStore: disk cache and refetching', () => {
  it('writes the fetched set to a private file and reuses it in the next process', async () => {
    const dir = tmp();
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    expect((await verifyWebhook(jws, storeFor(s, dir))).valid).toBe(true);
    expect(s.fetches).toBe(1);
    const files = readdirSync(join(dir, 'jwks'));
    expect(files).toHaveLength(1);
    const file = join(dir, 'jwks', files[0]!);
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'jwks')).mode & 0o777).toBe(0o700);
    }
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ url: URL_, uat: s.t, jwks: { keys: [k1.jwk] } });
    // A new process (new store) 59 minutes later: no fetch.
    s.t += 59 * 60 * 1000;
    expect((await verifyWebhook(jws, storeFor(s, dir))).valid).toBe(true);
    expect(s.fetches).toBe(1);
  });

  it('never uses the cache once older than 1 hour (injected clock)', async () => {
    const dir = tmp();
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    await verifyWebhook(jws, storeFor(s, dir));
    s.t += MAX_CACHE_MS; // exactly one hour: stale
    // Meanwhile the key was withdrawn: the stale cache must not make the webhook valid.
    s.keys = [];
    const v = await verifyWebhook(jws, storeFor(s, dir));
    // The stale cache was not used: a fetch for age, then one refetch for the now unknown kid.
    expect(s.fetches).toBe(3);
    expect(v.reason).toBe('UNKNOWN_KID');
  });

  it('an in-memory set also expires after 1 hour (a long-running listen)', async () => {
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const store = storeFor(s);
    await store.current();
    s.t += 30 * 60 * 1000;
    await store.current();
    expect(s.fetches).toBe(1);
    s.t += 30 * 60 * 1000;
    await store.current();
    expect(s.fetches).toBe(2);
  });

  it('honours a Cache-Control max-age shorter than 1 hour', async () => {
    const dir = tmp();
    const k1 = ecKey('k1');
    const s = server([k1.jwk], 'public, max-age=60');
    await storeFor(s, dir).current();
    s.t += 59_000;
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(1);
    s.t += 2_000;
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(2);
  });

  it('caps a Cache-Control max-age longer than 1 hour at 1 hour', async () => {
    const dir = tmp();
    const s = server([ecKey('k1').jwk], 'max-age=86400');
    await storeFor(s, dir).current();
    s.t += MAX_CACHE_MS + 1;
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(2);
  });

  it('--no-cache neither reads nor writes the disk cache', async () => {
    const dir = tmp();
    const s = server([ecKey('k1').jwk]);
    await storeFor(s, dir, false).current();
    await storeFor(s, dir, false).current();
    expect(s.fetches).toBe(2);
    expect(() => readdirSync(join(dir, 'jwks'))).toThrow();
  });

  it('key rotation: a new kid missing from the cached set triggers exactly one refetch', async () => {
    const dir = tmp();
    const old = ecKey('old');
    const s = server([old.jwk]);
    await storeFor(s, dir).current();
    s.t += 5 * 60 * 1000; // the cache is fresh (5 min) but the keys rotated
    const next = ecKey('new');
    s.keys = [next.jwk, old.jwk];
    const store = storeFor(s, dir);
    const jws = signEs({ alg: 'ES512', kid: 'new' }, employeeCreated(), next.privateKey);
    expect((await verifyWebhook(jws, store)).valid).toBe(true);
    expect(s.fetches).toBe(2);
    // Old-key webhooks still verify, from the refetched set, without another fetch.
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'old' }, employeeCreated(), old.privateKey), store)).valid).toBe(true);
    expect(s.fetches).toBe(2);
  });

  it('an unknown kid refetches at once, then at most once per 30 s', async () => {
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const store = storeFor(s);
    await store.current();
    const stranger = signEs({ alg: 'ES512', kid: 'ghost' }, employeeCreated(), ecKey('ghost').privateKey);
    // Fetched 0 s ago, but a kid-triggered refetch has not happened yet: a key rotated a moment ago is found.
    expect((await verifyWebhook(stranger, store)).reason).toBe('UNKNOWN_KID');
    expect(s.fetches).toBe(2);
    for (let i = 0; i < 5; i++) await verifyWebhook(stranger, store);
    expect(s.fetches).toBe(2);
    s.t += 29_999;
    await verifyWebhook(stranger, store);
    expect(s.fetches).toBe(2);
    s.t += 1;
    await verifyWebhook(stranger, store);
    expect(s.fetches).toBe(3);
  });

  it('a new run does not inherit the cool-down from the disk cache', async () => {
    const dir = tmp();
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const stranger = signEs({ alg: 'ES512', kid: 'ghost' }, employeeCreated(), ecKey('ghost').privateKey);
    await verifyWebhook(stranger, storeFor(s, dir)); // fetch + one refetch, both written to the cache
    expect(s.fetches).toBe(2);
    // 1 s later the keys rotate; a receiver started now reads the fresh cache and refetches for the new kid at once.
    s.t += 1_000;
    const next = ecKey('k2');
    s.keys = [next.jwk, k1.jwk];
    const v = await verifyWebhook(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), next.privateKey), storeFor(s, dir));
    expect(v).toMatchObject({ valid: true });
    expect(s.fetches).toBe(3);
  });

  describe('one-shot (webhook verify)', () => {
    const oneShot = (s: ReturnType<typeof server>, cacheDir?: string) => new KeyStore({ source: { kind: 'url', url: URL_, fetch: s.fetch }, cacheDir, cacheKey: () => CACHE_KEY, now: () => s.t, oneShot: true });

    it('the sequence of the issue: verify of an unknown kid, then a genuine event under a key rotated a second later: VALID', async () => {
      const dir = tmp();
      const k1 = ecKey('k1');
      const s = server([k1.jwk]);
      const ghost = await verifyWebhook(signEs({ alg: 'ES512', kid: 'ghost' }, employeeCreated(), ecKey('ghost').privateKey), oneShot(s, dir));
      expect(ghost).toMatchObject({ reason: 'UNKNOWN_KID' });
      expect(ghost.retryAfterMs).toBeUndefined();
      expect(ghost.message).not.toMatch(/checked again/);
      s.t += 1_000;
      const next = ecKey('k2');
      s.keys = [next.jwk, k1.jwk];
      expect(await verifyWebhook(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), next.privateKey), oneShot(s, dir))).toMatchObject({ valid: true });
    });

    it('UNKNOWN_KID only once a fetch of this run showed the kid is not published: one fetch when it just fetched, a refetch when the set came from the cache', async () => {
      const dir = tmp();
      const s = server([ecKey('k1').jwk]);
      const ghost = signEs({ alg: 'ES512', kid: 'ghost' }, employeeCreated(), ecKey('ghost').privateKey);
      // No cache: the run fetches, and that fetch (0 s ago) is the answer.
      const first = oneShot(s, dir);
      expect((await verifyWebhook(ghost, first)).reason).toBe('UNKNOWN_KID');
      expect(s.fetches).toBe(1);
      // Many lines of a --file: no more fetches within 30 s of this run's fetch, final answers.
      for (let i = 0; i < 3; i++) {
        const v = await verifyWebhook(ghost, first);
        expect([v.reason, v.retryAfterMs]).toEqual(['UNKNOWN_KID', undefined]);
      }
      expect(s.fetches).toBe(1);
      expect(first.refetchAllowedInMs()).toBe(Infinity);
      s.t += 30_000;
      expect(first.refetchAllowedInMs()).toBe(0);
      await verifyWebhook(ghost, first);
      expect(s.fetches).toBe(2);
      // A new run: the set comes from the cache, so the unknown kid is fetched for.
      const second = oneShot(s, dir);
      await verifyWebhook(ghost, second);
      expect(s.fetches).toBe(3);
    });
  });

  it('a key rotated right after a fetch is found by the refetch (listen started a second ago)', async () => {
    const old = ecKey('old');
    const s = server([old.jwk]);
    const store = storeFor(s);
    await store.current();
    s.t += 1_000;
    const next = ecKey('new');
    s.keys = [next.jwk, old.jwk];
    expect((await verifyWebhook(signEs({ alg: 'ES512', kid: 'new' }, employeeCreated(), next.privateKey), store)).valid).toBe(true);
  });

  it('a bad signature under a known kid does not refetch', async () => {
    const k1 = ecKey('k1');
    const s = server([k1.jwk]);
    const store = storeFor(s);
    await store.current();
    s.t += 60_000;
    const forged = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), ecKey('k1').privateKey);
    expect((await verifyWebhook(forged, store)).reason).toBe('BAD_SIGNATURE');
    expect(s.fetches).toBe(1);
  });

  it('ignores a corrupt cache file and a cache for another URL', async () => {
    const dir = tmp();
    const s = server([ecKey('k1').jwk]);
    await storeFor(s, dir).current();
    const file = join(dir, 'jwks', readdirSync(join(dir, 'jwks'))[0]!);
    writeFileSync(file, '{not json');
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(2);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, url: 'https://elsewhere.test/jwks.json' }));
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(3);
  });

  it('a cache written "in the future" (clock moved back) counts as stale', async () => {
    const dir = tmp();
    const s = server([ecKey('k1').jwk]);
    await storeFor(s, dir).current();
    s.t -= 10 * 60 * 1000;
    await storeFor(s, dir).current();
    expect(s.fetches).toBe(2);
  });

  it('imports each key once per store (fast --file over many lines)', async () => {
    const k1 = ecKey('k1');
    const store = new KeyStore({ source: { kind: 'static', jwks: { keys: [k1.jwk] } } });
    const snap = await store.current();
    const a = store.cryptoKey(snap.keys[0]!);
    const b = store.cryptoKey(snap.keys[0]!);
    expect(a).toBe(b);
  });
});
