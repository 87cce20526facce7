// The token store with an injected keyring (test/helpers/keyring.ts) and a
// config in memory: where a token is read from, saved to and deleted from,
// and what is left when the keyring or the config file fails half-way.
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthError, CliError, UsageError } from '../../../src/errors.js';
import type { Profile } from '../../../src/config/file.js';
import { KeyringError } from '../../../src/config/keyring.js';
import type { ConfigStore } from '../../../src/config/store.js';
import { invalidToken, keyringService, keyringUnavailable, PROBE_ACCOUNT, removeByHand, storageOf, TokenStore } from '../../../src/config/token-store.js';
import { keyringWords } from '../../../src/config/keyring-words.js';
import { entryKey, memoryKeyring, type MemoryKeyring } from '../../helpers/keyring.js';

const SERVICE = 'partner:/home/u/.config/partner';
const TOKEN = 'tok_abcdef_123456789';

/** The part of ConfigStore the token store uses, in memory; `failWrites` makes every change throw. */
function memoryConfig(profiles: Record<string, Profile> = {}) {
  const c = {
    profiles: { ...profiles },
    failWrites: false,
    getProfile: (name: string) => (Object.hasOwn(c.profiles, name) ? { ...c.profiles[name] } : undefined),
    async setProfile(name: string, p: Profile) {
      if (c.failWrites) throw new CliError('Cannot save the config: disk full', { code: 'CONFIG_UNWRITABLE', exitCode: 1 });
      c.profiles[name] = { ...p };
    },
    async deleteProfile(name: string) {
      if (c.failWrites) throw new CliError('Cannot save the config: disk full', { code: 'CONFIG_UNWRITABLE', exitCode: 1 });
      if (!Object.hasOwn(c.profiles, name)) return false;
      delete c.profiles[name];
      return true;
    },
  };
  return c;
}
const asStore = (c: ReturnType<typeof memoryConfig>) => c as unknown as ConfigStore;

let keyring: MemoryKeyring;
let tokens: TokenStore;
beforeEach(() => {
  keyring = memoryKeyring();
  tokens = new TokenStore(keyring, SERVICE);
});

describe('where a token lives', () => {
  it('the keyring service is per config directory; the account is the profile name', () => {
    expect(keyringService('/home/u/.config/partner')).toBe(SERVICE);
    expect(tokens.service).toBe(SERVICE);
  });

  it('storageOf reads the saved profile only', () => {
    expect(storageOf(undefined)).toBe('none');
    expect(storageOf({})).toBe('none');
    expect(storageOf({ baseUrl: 'https://a.example', token: '' })).toBe('none');
    expect(storageOf({ token: TOKEN })).toBe('file');
    expect(storageOf({ tokenStorage: 'keyring' })).toBe('keyring');
    // The marker wins over a token left in the file by hand.
    expect(storageOf({ tokenStorage: 'keyring', token: TOKEN })).toBe('keyring');
  });
});

describe('errors', () => {
  it('a broken PARTNER_TOKEN is a usage error (exit 2); a broken saved token an auth error (exit 3): both say to replace it', () => {
    const env = invalidToken('holds a line break (LF) at character 4', 'PARTNER_TOKEN');
    expect(env).toBeInstanceOf(UsageError);
    expect(env).toMatchObject({ code: 'INVALID_TOKEN', exitCode: 2, message: 'PARTNER_TOKEN holds a line break (LF) at character 4' });
    expect(env.hint).toMatch(/^Set it to the token alone/);
    const saved = invalidToken('is empty', 'of profile "a" in the keyring');
    expect(saved).toBeInstanceOf(AuthError);
    expect(saved).toMatchObject({ code: 'INVALID_TOKEN', exitCode: 3, message: 'The token of profile "a" in the keyring is empty', hint: 'Log in again to replace it: `partner auth login`.' });
  });

  it('the words for a keyring out of reach point at the guide that says how to start one', () => {
    for (const p of ['no-bus', 'bus-gone', 'no-service', 'refused'] as const) expect(keyringWords(p, 'linux').fix).toContain('see "Where your token is kept" in docs/guides/security.md');
  });

  it("a keyring out of reach: exit 1, what was being done, what is missing in partner's words, what to run; the library's text only as the cause", () => {
    const cause = new KeyringError('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time', 'unavailable', 'no-bus');
    const e = keyringUnavailable(cause, 'store the token in', 'Do this.');
    expect(e).toMatchObject({ code: 'KEYRING_UNAVAILABLE', exitCode: 1, cause });
    expect(e.message).toBe(`Cannot store the token in the system keyring: ${keyringWords('no-bus').what}`);
    expect(e.message).toMatch(/no D-Bus session bus is running here \(DBUS_SESSION_BUS_ADDRESS is not set\)/);
    expect(e.message + e.hint).not.toMatch(/X11|Platform failure|DBus error/);
    expect(e.hint).toBe(`${keyringWords('no-bus').fix}. Do this.`);
    expect(e.hint).toMatch(/dbus-run-session -- sh/);
    expect(keyringUnavailable(new KeyringError('slow', 'timeout'), 'read', 'h').code).toBe('KEYRING_TIMEOUT');
  });

  it("the helper's own failure is said whole (partner's words: its native module refused), the library's text never", () => {
    const refusal = "/tmp/x/partner holds partner's native directory but belongs to another user: partner will not load a native module from there";
    const e = keyringUnavailable(new KeyringError(refusal, 'unavailable', 'helper'), 'store tokens in', 'h');
    expect(e.message).toBe(`Cannot store tokens in the system keyring: ${keyringWords('helper').what}: ${refusal}`);
    expect(e.hint).toMatch(/^Fix what it names/);
  });

  it('each problem has its own words: what is missing, and a command or step to take', () => {
    const seen = new Set<string>();
    for (const p of ['no-bus', 'bus-gone', 'no-service', 'locked', 'timeout', 'helper', 'refused'] as const) {
      const w = keyringWords(p, 'linux');
      expect(w.what.length).toBeGreaterThan(10);
      expect(w.fix.length).toBeGreaterThan(10);
      seen.add(w.what);
    }
    expect(seen.size).toBe(7);
    expect(keyringWords('no-service', 'linux').fix).toMatch(/gnome-keyring-daemon --unlock --components=secrets/);
    expect(keyringWords('locked', 'darwin').what).toBe('the login Keychain is locked, and no unlock prompt could be shown');
  });

  it('how to delete a left-over entry by hand names the service and the account, quoted for a shell', () => {
    expect(removeByHand(SERVICE, "o'brien", 'linux')).toBe(`\`secret-tool clear service '${SERVICE}' username 'o'\\''brien'\` (package libsecret-tools), or Seahorse ("Passwords and Keys")`);
    expect(removeByHand(SERVICE, 'a', 'darwin')).toBe(`\`security delete-generic-password -s '${SERVICE}' -a 'a'\``);
  });
});

describe('read', () => {
  it('no saved token: nothing, and the keyring is not asked', async () => {
    expect(await tokens.read('a', undefined)).toEqual({ storage: 'none' });
    expect(await tokens.read('a', { baseUrl: 'https://a.example' })).toEqual({ storage: 'none' });
    expect(keyring.calls).toEqual([]);
  });

  it('a token in the file: read from the file, the keyring not asked', async () => {
    expect(await tokens.read('a', { token: TOKEN })).toEqual({ token: TOKEN, storage: 'file' });
    expect(keyring.calls).toEqual([]);
  });

  it('a token in the keyring: read by service and profile name', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), TOKEN);
    keyring.entries.set(entryKey('partner:/elsewhere', 'a'), 'other-token-0000');
    expect(await tokens.read('a', { tokenStorage: 'keyring', token: 'stale-file-token' })).toEqual({ token: TOKEN, storage: 'keyring' });
    expect(keyring.calls).toEqual(['get a']);
  });

  it('the keyring entry is gone: exit 3, log in again', async () => {
    const r = await tokens.read('a', { tokenStorage: 'keyring' });
    expect(r.token).toBeUndefined();
    expect(r.storage).toBe('keyring');
    expect(r.problem).toBeInstanceOf(AuthError);
    expect(r.problem).toMatchObject({ code: 'TOKEN_NOT_IN_KEYRING', exitCode: 3, message: 'The token of profile "a" is not in the system keyring (removed outside partner?)', hint: 'Log in again: `partner auth login`.' });
  });

  it('the keyring cannot be reached: a problem (not a throw) naming the profile, with what to do', async () => {
    keyring.fail = 'unavailable';
    const r = await tokens.read('a', { tokenStorage: 'keyring' });
    expect(r).toMatchObject({ storage: 'keyring', problem: { code: 'KEYRING_UNAVAILABLE', exitCode: 1, message: `Cannot read the token of profile "a" from the system keyring: ${keyringWords('locked').what}`, hint: `${keyringWords('locked').fix}. Then try again; or set PARTNER_TOKEN.` } });
    expect(r.token).toBeUndefined();
  });

  it('a token that cannot be sent is a problem naming where it is', async () => {
    expect((await tokens.read('a', { token: 'ab\ncd' })).problem).toMatchObject({ code: 'INVALID_TOKEN', message: 'The token of profile "a" in the config file holds a line break (LF) at character 3' });
    keyring.entries.set(entryKey(SERVICE, 'k'), 'x\u0007y');
    const r = await tokens.read('k', { tokenStorage: 'keyring' });
    expect(r.token).toBeUndefined();
    expect(r.problem).toMatchObject({ code: 'INVALID_TOKEN', message: 'The token of profile "k" in the keyring holds a control character (U+0007) at character 2' });
  });

  it('an error that is not the keyring\'s is not hidden', async () => {
    const boom = new Error('bug');
    const t = new TokenStore({ ...keyring, get: () => Promise.reject(boom) }, SERVICE);
    await expect(t.read('a', { tokenStorage: 'keyring' })).rejects.toBe(boom);
  });
});

describe('ensureWritable (login, before it asks for the token)', () => {
  it('writes and deletes a probe entry: nothing is left behind', async () => {
    await tokens.ensureWritable();
    expect(keyring.calls).toEqual([`set ${PROBE_ACCOUNT}`, `delete ${PROBE_ACCOUNT}`]);
    expect(keyring.entries.size).toBe(0);
  });

  it('a keyring that reads but refuses writes (locked) is refused in words, with --insecure-storage', async () => {
    keyring.fail = 'unavailable';
    keyring.failOps = ['set'];
    const err = await tokens.ensureWritable().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'KEYRING_UNAVAILABLE', exitCode: 1, message: `Cannot store tokens in the system keyring: ${keyringWords('locked').what}` });
    expect((err as CliError).hint).toMatch(/--insecure-storage\. Nothing was asked for or saved\.$/);
  });
});

/** The two stores as they are: the keyring's entries and the config's profiles. */
const snapshot = (c: ReturnType<typeof memoryConfig>) => JSON.stringify({ keyring: [...keyring.entries], profiles: c.profiles });

describe('save: both stores change, or neither', () => {
  it('into the keyring: the entry set, the profile saved with "tokenStorage" and without the token', async () => {
    const c = memoryConfig({ a: { baseUrl: 'https://old.example', token: 'old-file-token-1234' } });
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, false)).toEqual([]);
    expect(keyring.entries.get(entryKey(SERVICE, 'a'))).toBe(TOKEN);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', tokenStorage: 'keyring' });
    expect(keyring.calls).toEqual(['get a', 'set a']);
  });

  // Each store failing in turn, for each kind of profile there was before (none, in the file, in the keyring).
  const before: [string, Record<string, Profile>, string | undefined][] = [
    ['a new profile', {}, undefined],
    ['a profile with its token in the file (moving it into the keyring)', { a: { baseUrl: 'https://old.example', token: 'old-file-token-1234' } }, undefined],
    ["a keyring profile (another company's token over it)", { a: { baseUrl: 'https://old.example', tokenStorage: 'keyring' } }, 'old-keyring-token-5678'],
    ['a file profile with a stale keyring entry', { a: { baseUrl: 'https://old.example', token: 'old-file-token-1234' } }, 'stale-entry-0000'],
  ];
  for (const [what, profiles, entry] of before) {
    const setUp = () => {
      const c = memoryConfig(profiles);
      if (entry !== undefined) keyring.entries.set(entryKey(SERVICE, 'a'), entry);
      return c;
    };
    it(`${what}: the keyring failing (read, then write) leaves both stores as they were`, async () => {
      for (const op of ['get', 'set'] as const) {
        const c = setUp();
        const was = snapshot(c);
        keyring.fail = 'unavailable';
        keyring.failOps = [op];
        await expect(tokens.save(asStore(c), 'a', 'https://new.example', TOKEN, false)).rejects.toMatchObject({ code: 'KEYRING_UNAVAILABLE', message: /^Cannot store the token in the system keyring: / });
        keyring.fail = undefined;
        expect(snapshot(c)).toBe(was);
      }
    });
    it(`${what}: the config file failing (full disk, lock held) puts the keyring back as it was`, async () => {
      const c = setUp();
      const was = snapshot(c);
      c.failWrites = true;
      await expect(tokens.save(asStore(c), 'a', 'https://new.example', TOKEN, false)).rejects.toMatchObject({ code: 'CONFIG_UNWRITABLE' });
      expect(snapshot(c)).toBe(was);
      expect([...keyring.entries.values()]).not.toContain(TOKEN);
    });
  }

  it('the config file failing and then the keyring refusing to be put back: said as such, naming both stores', async () => {
    const c = memoryConfig({ a: { baseUrl: 'https://old.example', tokenStorage: 'keyring' } });
    keyring.entries.set(entryKey(SERVICE, 'a'), 'old-keyring-token-5678');
    c.failWrites = true;
    const boom = tokens.save(asStore(c), 'a', 'https://new.example', TOKEN, false);
    // The put-back is the second set: make it fail once the first has gone through.
    const set = keyring.set.bind(keyring);
    let n = 0;
    keyring.set = async (...args) => {
      if (n++ === 1) throw new KeyringError('gone', 'unavailable', 'no-service');
      return set(...args);
    };
    await expect(boom).rejects.toMatchObject({ code: 'TOKEN_STORES_DIFFER', message: /Cannot save the config: disk full; the new token of profile "a" is in the system keyring; the system keyring could not be put back/ });
  });

  it('--insecure-storage: the token in the file, the keyring not asked', async () => {
    const c = memoryConfig();
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, true)).toEqual([]);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', token: TOKEN });
    expect(keyring.calls).toEqual([]);
  });

  it('--insecure-storage and the config file failing: nothing changes, the keyring not asked', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), 'old-keyring-token');
    const c = memoryConfig({ a: { baseUrl: 'https://a.example', tokenStorage: 'keyring' } });
    const was = snapshot(c);
    c.failWrites = true;
    await expect(tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, true)).rejects.toMatchObject({ code: 'CONFIG_UNWRITABLE' });
    expect(snapshot(c)).toBe(was);
    expect(keyring.calls).toEqual([]);
  });

  it('--insecure-storage over a keyring profile deletes its keyring entry, or says it could not and how to', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), 'old-keyring-token');
    const c = memoryConfig({ a: { baseUrl: 'https://a.example', tokenStorage: 'keyring' } });
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, true)).toEqual([]);
    expect(keyring.entries.size).toBe(0);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', token: TOKEN });

    const d = memoryConfig({ b: { tokenStorage: 'keyring' } });
    keyring.fail = 'unavailable';
    const [w] = await tokens.save(asStore(d), 'b', 'https://b.example', TOKEN, true);
    expect(w).toBe(`The previous token of profile "b" could not be deleted from the system keyring (${keyringWords('locked').what}); it is no longer used. Delete it there: ${removeByHand(SERVICE, 'b')}.`);
    expect(d.profiles.b).toEqual({ baseUrl: 'https://b.example', token: TOKEN });
  });

  it("an error that is not the keyring's is not hidden", async () => {
    const boom = new Error('bug');
    const t = new TokenStore({ ...keyring, set: () => Promise.reject(boom), delete: () => Promise.reject(boom) }, SERVICE);
    await expect(t.save(asStore(memoryConfig()), 'a', 'https://a.example', TOKEN, false)).rejects.toBe(boom);
    await expect(t.save(asStore(memoryConfig({ a: { tokenStorage: 'keyring' } })), 'a', 'https://a.example', TOKEN, true)).rejects.toBe(boom);
  });
});

describe('forget: the profile first, then its keyring entry', () => {
  it('no such profile: not removed, nothing asked', async () => {
    expect(await tokens.forget(asStore(memoryConfig()), 'a')).toEqual({ removed: false, warnings: [] });
    expect(keyring.calls).toEqual([]);
  });

  it('a file profile: removed, the keyring not asked', async () => {
    const c = memoryConfig({ a: { token: TOKEN } });
    expect(await tokens.forget(asStore(c), 'a')).toEqual({ removed: true, warnings: [] });
    expect(c.profiles).toEqual({});
    expect(keyring.calls).toEqual([]);
  });

  it('a keyring profile: both removed', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), TOKEN);
    const c = memoryConfig({ a: { tokenStorage: 'keyring' } });
    expect(await tokens.forget(asStore(c), 'a')).toEqual({ removed: true, warnings: [] });
    expect(keyring.entries.size).toBe(0);
    expect(c.profiles).toEqual({});
  });

  it('the config file failing: nothing changes (the keyring entry stays with its profile)', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), TOKEN);
    const c = memoryConfig({ a: { tokenStorage: 'keyring' } });
    const was = snapshot(c);
    c.failWrites = true;
    await expect(tokens.forget(asStore(c), 'a')).rejects.toMatchObject({ code: 'CONFIG_UNWRITABLE' });
    expect(snapshot(c)).toBe(was);
    expect(keyring.calls).toEqual([]);
  });

  it('a keyring that is gone: the profile is removed, and the warning says the token may remain there and how to delete it', async () => {
    keyring.fail = 'unavailable';
    keyring.problem = 'no-bus';
    const c = memoryConfig({ a: { tokenStorage: 'keyring' } });
    const r = await tokens.forget(asStore(c), 'a');
    expect(r.removed).toBe(true);
    expect(r.warnings).toEqual([`The token of profile "a" may remain in the system keyring: it could not be deleted (${keyringWords('no-bus').what}). Nothing uses it any more; to delete it once the keyring is back: ${removeByHand(SERVICE, 'a')}.`]);
    expect(c.profiles).toEqual({});
  });

  it("an error that is not the keyring's is not hidden", async () => {
    const boom = new Error('bug');
    const t = new TokenStore({ ...keyring, delete: () => Promise.reject(boom) }, SERVICE);
    await expect(t.forget(asStore(memoryConfig({ a: { tokenStorage: 'keyring' } })), 'a')).rejects.toBe(boom);
  });
});

describe('probe', () => {
  it('undefined when the keyring answers; the reason when not; other errors thrown', async () => {
    expect(await tokens.probe()).toBeUndefined();
    expect(keyring.calls).toEqual(['get (partner doctor probe)']);
    keyring.fail = 'unavailable';
    expect(await tokens.probe()).toMatchObject({ reason: 'unavailable', message: 'the collection is locked' });
    const boom = new Error('bug');
    await expect(new TokenStore({ ...keyring, get: () => Promise.reject(boom) }, SERVICE).probe()).rejects.toBe(boom);
  });
});
