// A key cache that trusts only itself: an edited,
// widened or foreign-owned cache is ignored and fetched over; an edit cannot
// plant a key or extend the one-hour limit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore, type FetchedJwks } from '../../../src/webhooks/jwks.js';
import { verifyWebhook } from '../../../src/webhooks/verify.js';
import { cacheSecret } from '../../../src/webhooks/cache-secret.js';
import { untrustedReason } from '../../../src/webhooks/trust.js';
import { ecKey, employeeCreated, signEs } from './helpers.js';

const URL_ = 'https://api.example.test/v1/partner/.well-known/jwks.json';
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'partner-cache-'));
  dirs.push(d);
  return d;
};

const genuineKey = ecKey('k1');
const attacker = ecKey('evil');
const posix = process.platform !== 'win32';

function setup() {
  const dir = tmp();
  const configDir = join(dir, 'config');
  const state = { fetches: 0, t: 1_700_000_000_000 };
  const fetch = async (): Promise<FetchedJwks> => {
    state.fetches++;
    return { body: { keys: [genuineKey.jwk] } };
  };
  const warnings: string[] = [];
  const store = () => new KeyStore({ source: { kind: 'url', url: URL_, fetch }, cacheDir: dir, cacheKey: () => cacheSecret(configDir), now: () => state.t, warn: (m) => warnings.push(m) });
  return { dir, configDir, state, store, warnings, file: () => join(dir, 'jwks', readdirSync(join(dir, 'jwks'))[0]!) };
}

const forged = () => signEs({ alg: 'ES512', kid: 'evil' }, employeeCreated(), attacker.privateKey);
const genuine = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), genuineKey.privateKey);

describe('the key-set disk cache trusts only what it wrote', () => {
  it('an attacker key added to the cache file (and its fetch time pushed forward) is never used', async () => {
    const s = setup();
    await s.store().current();
    expect(s.state.fetches).toBe(1);
    const saved = JSON.parse(readFileSync(s.file(), 'utf8'));
    expect(saved.mac).toMatch(/^[0-9a-f]{64}$/);
    // The untouched cache is reused by the next run.
    await s.store().current();
    expect(s.state.fetches).toBe(1);
    writeFileSync(s.file(), JSON.stringify({ ...saved, uat: s.state.t + 1000, jwks: { keys: [genuineKey.jwk, attacker.jwk] } }), { mode: 0o600 });
    const v = await verifyWebhook(forged(), s.store());
    expect(v.valid).toBe(false);
    expect(v.reason).toBe('UNKNOWN_KID');
    expect(s.state.fetches).toBeGreaterThanOrEqual(2); // the edited file was refused and fetched over
    // Only an edit of the fetch time: refused too (it is bound to the content).
    const fresh = JSON.parse(readFileSync(s.file(), 'utf8'));
    s.state.t += 59 * 60 * 1000;
    writeFileSync(s.file(), JSON.stringify({ ...fresh, uat: s.state.t }), { mode: 0o600 });
    const before = s.state.fetches;
    s.state.t += 2 * 60 * 1000;
    expect((await verifyWebhook(genuine(), s.store())).valid).toBe(true);
    expect(s.state.fetches).toBe(before + 1);
  });

  it('the fetched file holds only the public members of a set that parsed; a set without a usable key is not cached', async () => {
    const s = setup();
    await s.store().current();
    const saved = JSON.parse(readFileSync(s.file(), 'utf8'));
    expect(saved.jwks).toEqual({ keys: [genuineKey.jwk] });
    const dir = tmp();
    const rsaOnly = new KeyStore({ source: { kind: 'url', url: URL_, fetch: async () => ({ body: { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'r' }] } }) }, cacheDir: dir, cacheKey: () => Buffer.alloc(32) });
    await rsaOnly.current();
    expect(() => readdirSync(join(dir, 'jwks'))).toThrow();
  });

  it.runIf(posix)('a FIFO or a directory at the path of the cache file is passed over, never read: the set is fetched again at once', async () => {
    const s = setup();
    await s.store().current();
    const file = s.file();
    for (const plant of [() => execFileSync('mkfifo', ['-m', '600', file]), () => mkdirSync(file, { mode: 0o700 })]) {
      rmSync(file, { recursive: true, force: true });
      plant();
      const before = s.state.fetches;
      // A FIFO read like a file would block here for ever (and the test time out).
      expect((await verifyWebhook(genuine(), s.store())).valid).toBe(true);
      expect(s.state.fetches).toBe(before + 1);
    }
  });

  it.runIf(posix)('a group/world-writable cache file or directory is ignored and fetched over', async () => {
    const s = setup();
    await s.store().current();
    chmodSync(s.file(), 0o666);
    expect(untrustedReason(s.file())).toMatch(/writable by everyone/);
    expect(s.warnings).toEqual([]);
    await s.store().current();
    expect(s.state.fetches).toBe(2);
    // Said as a warning: someone else could have written it.
    expect(s.warnings).toEqual([`Ignoring the webhook key-set cache ${s.file()}: it is writable by everyone (mode 0666); fetching the key set instead.`]);
    // The refetch replaced it with a private file.
    expect(statSync(s.file()).mode & 0o777).toBe(0o600);
    chmodSync(join(s.dir, 'jwks'), 0o770);
    expect(untrustedReason(join(s.dir, 'jwks'))).toMatch(/writable by its group/);
    await s.store().current();
    expect(s.state.fetches).toBe(3);
    expect(statSync(join(s.dir, 'jwks')).mode & 0o777).toBe(0o700);
  });

  it.runIf(posix)('a cache owned by another user (shared PARTNER_CACHE_DIR) is ignored', async () => {
    const s = setup();
    await s.store().current();
    const me = process.getuid!();
    vi.spyOn(process, 'getuid').mockReturnValue(me + 1);
    expect(untrustedReason(s.file())).toMatch(/owned by another user/);
    vi.restoreAllMocks();
    // Seen from another uid, the whole cache (and the secret beside the config) is foreign: no disk cache, a fetch.
    const spy = vi.spyOn(process, 'getuid').mockReturnValue(me + 1);
    await s.store().current();
    expect(s.state.fetches).toBe(2);
    spy.mockRestore();
  });

  it('the cache secret is created once, private, and reused; a symlinked secret is refused', async () => {
    const s = setup();
    const a = cacheSecret(s.configDir);
    const b = cacheSecret(s.configDir);
    expect(a).toBeInstanceOf(Buffer);
    expect(a!.equals(b!)).toBe(true);
    if (posix) expect(statSync(join(s.configDir, 'cache.key')).mode & 0o777).toBe(0o600);
    if (posix) {
      const other = tmp();
      const { symlinkSync } = await import('node:fs');
      symlinkSync(join(s.configDir, 'cache.key'), join(other, 'cache.key'));
      expect(cacheSecret(other)).toBeUndefined();
    }
  });
});
