// The token store with an injected keyring (test/helpers/keyring.ts) and a
// config in memory: where a token is read from, saved to and deleted from,
// and what is left when the keyring or the config file fails half-way.
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthError, CliError, UsageError } from '../../../src/errors.js';
import type { Profile } from '../../../src/config/file.js';
import { KeyringError } from '../../../src/config/keyring.js';
import type { ConfigStore } from '../../../src/config/store.js';
import { invalidToken, KEYRING_HELP, keyringService, keyringUnavailable, storageOf, TokenStore } from '../../../src/config/token-store.js';
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

  it('the help for a keyring out of reach points at the guide that says how to start one', () => {
    expect(KEYRING_HELP).toBe('Unlock the keyring, or start one (on Linux a Secret Service such as gnome-keyring: see "Where your token is kept" in docs/guides/security.md)');
  });

  it('a keyring out of reach: exit 1, what was being done, the reason, the hint; a timeout has its own code', () => {
    const cause = new KeyringError('no D-Bus', 'unavailable');
    const e = keyringUnavailable(cause, 'store the token in', 'Do this.');
    expect(e).toMatchObject({ code: 'KEYRING_UNAVAILABLE', exitCode: 1, message: 'Cannot store the token in the system keyring: no D-Bus', hint: 'Do this.', cause });
    expect(keyringUnavailable(new KeyringError('slow', 'timeout'), 'read', 'h').code).toBe('KEYRING_TIMEOUT');
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
    expect(r).toMatchObject({ storage: 'keyring', problem: { code: 'KEYRING_UNAVAILABLE', exitCode: 1, message: 'Cannot read the token of profile "a" from the system keyring: the collection is locked', hint: `${KEYRING_HELP}, then try again; or set PARTNER_TOKEN.` } });
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

describe('save', () => {
  it('into the keyring: the entry set, the profile saved with "tokenStorage" and without the token', async () => {
    const c = memoryConfig({ a: { baseUrl: 'https://old.example', token: 'old-file-token-1234' } });
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, false)).toEqual([]);
    expect(keyring.entries.get(entryKey(SERVICE, 'a'))).toBe(TOKEN);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', tokenStorage: 'keyring' });
    expect(keyring.calls).toEqual(['set a']);
  });

  it('a keyring out of reach: nothing saved anywhere, the error says --insecure-storage', async () => {
    const c = memoryConfig({ a: { baseUrl: 'https://old.example', token: 'old-file-token-1234' } });
    keyring.fail = 'timeout';
    const err = await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, false).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'KEYRING_TIMEOUT', exitCode: 1, message: 'Cannot store the token in the system keyring: the keyring did not answer within 10 s', hint: `${KEYRING_HELP}, then log in again; or keep the token in a 0600 file with --insecure-storage. Nothing was saved.` });
    expect(c.profiles.a).toEqual({ baseUrl: 'https://old.example', token: 'old-file-token-1234' });
  });

  it('the config file cannot be written: a new keyring entry is taken back; an existing keyring profile keeps its entry', async () => {
    const c = memoryConfig();
    c.failWrites = true;
    await expect(tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, false)).rejects.toMatchObject({ code: 'CONFIG_UNWRITABLE' });
    expect(keyring.entries.size).toBe(0);
    expect(keyring.calls).toEqual(['set a', 'delete a']);

    const k = memoryConfig({ b: { baseUrl: 'https://b.example', tokenStorage: 'keyring' } });
    k.failWrites = true;
    keyring.calls.length = 0;
    await expect(tokens.save(asStore(k), 'b', 'https://b.example', TOKEN, false)).rejects.toMatchObject({ code: 'CONFIG_UNWRITABLE' });
    expect(keyring.calls).toEqual(['set b']);
    expect(keyring.entries.get(entryKey(SERVICE, 'b'))).toBe(TOKEN);
  });

  it('--insecure-storage: the token in the file, the keyring not asked', async () => {
    const c = memoryConfig();
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, true)).toEqual([]);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', token: TOKEN });
    expect(keyring.calls).toEqual([]);
  });

  it('--insecure-storage over a keyring profile deletes its keyring entry, or says it could not', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), 'old-keyring-token');
    const c = memoryConfig({ a: { baseUrl: 'https://a.example', tokenStorage: 'keyring' } });
    expect(await tokens.save(asStore(c), 'a', 'https://a.example', TOKEN, true)).toEqual([]);
    expect(keyring.entries.size).toBe(0);
    expect(c.profiles.a).toEqual({ baseUrl: 'https://a.example', token: TOKEN });

    const d = memoryConfig({ b: { tokenStorage: 'keyring' } });
    keyring.fail = 'unavailable';
    expect(await tokens.save(asStore(d), 'b', 'https://b.example', TOKEN, true)).toEqual([`The previous token of profile "b" could not be deleted from the system keyring; delete it there (service "${SERVICE}", account "b").`]);
    expect(d.profiles.b).toEqual({ baseUrl: 'https://b.example', token: TOKEN });
  });

  it('an error that is not the keyring\'s is not hidden', async () => {
    const boom = new Error('bug');
    const t = new TokenStore({ ...keyring, set: () => Promise.reject(boom), delete: () => Promise.reject(boom) }, SERVICE);
    await expect(t.save(asStore(memoryConfig()), 'a', 'https://a.example', TOKEN, false)).rejects.toBe(boom);
    await expect(t.save(asStore(memoryConfig({ a: { tokenStorage: 'keyring' } })), 'a', 'https://a.example', TOKEN, true)).rejects.toBe(boom);
  });
});

describe('forget', () => {
  it('no such profile: false, nothing asked', async () => {
    expect(await tokens.forget(asStore(memoryConfig()), 'a')).toBe(false);
    expect(keyring.calls).toEqual([]);
  });

  it('a file profile: removed, the keyring not asked', async () => {
    const c = memoryConfig({ a: { token: TOKEN } });
    expect(await tokens.forget(asStore(c), 'a')).toBe(true);
    expect(c.profiles).toEqual({});
    expect(keyring.calls).toEqual([]);
  });

  it('a keyring profile: the entry deleted first, then the profile', async () => {
    keyring.entries.set(entryKey(SERVICE, 'a'), TOKEN);
    const c = memoryConfig({ a: { tokenStorage: 'keyring' } });
    expect(await tokens.forget(asStore(c), 'a')).toBe(true);
    expect(keyring.entries.size).toBe(0);
    expect(c.profiles).toEqual({});
  });

  it('a keyring out of reach: the profile is kept, and the error says so', async () => {
    keyring.fail = 'unavailable';
    const c = memoryConfig({ a: { tokenStorage: 'keyring' } });
    await expect(tokens.forget(asStore(c), 'a')).rejects.toMatchObject({ code: 'KEYRING_UNAVAILABLE', message: 'Cannot delete the token of profile "a" from the system keyring: the collection is locked', hint: `${KEYRING_HELP}, then run \`partner auth logout\` again. The profile is kept until its token is deleted.` });
    expect(c.profiles.a).toEqual({ tokenStorage: 'keyring' });
  });

  it('an error that is not the keyring\'s is not hidden', async () => {
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
