import { mkdirSync, statSync, writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src/config/store.js';
import { maskSecret, resolveProfile } from '../../../src/config/resolve.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = tempDir();
  env = { PARTNER_CONFIG_DIR: join(dir.path, 'cfg') };
});
afterEach(() => dir.cleanup());

const mode = (p: string) => statSync(p).mode & 0o777;

describe('ConfigStore', () => {
  it.runIf(process.platform !== 'win32')('refuses a symbolic link at the config file path and writes nothing through it', async () => {
    const { symlinkSync, existsSync } = await import('node:fs');
    const cfg = join(dir.path, 'cfg');
    mkdirSync(cfg, { mode: 0o700 });
    const elsewhere = join(dir.path, 'elsewhere.json');
    symlinkSync(elsewhere, join(cfg, 'config.json'));
    expect(() => new ConfigStore(env)).toThrow(/Refusing the config file .*config\.json: it is a symbolic link \(to .*elsewhere\.json\)/);
    expect(existsSync(elsewhere)).toBe(false);
    // A dangling or not, a link to an existing file is refused the same way, and that file is left as it was.
    writeFileSync(elsewhere, '{"profiles":{}}');
    try {
      await new ConfigStore(env).setProfile('default', { token: 'tok_secret_1234' });
      expect.unreachable();
    } catch (err) {
      expect((err as { code?: string }).code).toBe('CONFIG_SYMLINK');
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"profiles":{}}');
  });

  it('writes the config 0600 in a 0700 directory', async () => {
    const store = new ConfigStore(env);
    await store.setProfile('default', { baseUrl: 'https://api.example.com', token: 'tok_secret_1234' });
    expect(mode(store.path)).toBe(0o600);
    expect(mode(join(dir.path, 'cfg'))).toBe(0o700);
    expect(new ConfigStore(env).getProfile('default')).toEqual({ baseUrl: 'https://api.example.com', token: 'tok_secret_1234' });
  });

  it('tightens a config file and directory found with wider permissions, with a warning', () => {
    const cfg = join(dir.path, 'cfg');
    mkdirSync(cfg, { mode: 0o755 });
    chmodSync(cfg, 0o755);
    writeFileSync(join(cfg, 'config.json'), JSON.stringify({ profiles: { a: { token: 't' } } }), { mode: 0o644 });
    chmodSync(join(cfg, 'config.json'), 0o644);
    const store = new ConfigStore(env);
    expect(store.warnings.join()).toMatch(/tightened/);
    expect(mode(store.path)).toBe(0o600);
    expect(mode(cfg)).toBe(0o700);
  });

  it('switches and deletes profiles', async () => {
    const store = new ConfigStore(env);
    await store.setProfile('a', { baseUrl: 'https://a', token: 'ta' });
    await store.setProfile('b', { baseUrl: 'https://b', token: 'tb' });
    expect(store.activeProfile).toBe('b');
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(await store.deleteProfile('b')).toBe(true);
    expect(store.activeProfile).toBeUndefined();
    expect(await store.deleteProfile('b')).toBe(false);
    expect(readFileSync(store.path, 'utf8')).not.toContain('tb');
  });
});

describe('resolveProfile precedence: flags > env > profile', () => {
  const open = async () => {
    const s = new ConfigStore(env);
    await s.setProfile('work', { baseUrl: 'https://profile.example', token: 'profile-token' });
    return s;
  };

  it('uses the active profile when nothing else is set', async () => {
    const p = await resolveProfile({}, env, open);
    expect(p).toMatchObject({ name: 'work', baseUrl: 'https://profile.example', baseUrlSource: 'profile', token: 'profile-token', tokenSource: 'profile' });
  });

  it('env beats the profile, flags beat env', async () => {
    const e = { ...env, PARTNER_BASE_URL: 'https://env.example', PARTNER_TOKEN: 'env-token' };
    expect(await resolveProfile({}, e, open)).toMatchObject({ baseUrl: 'https://env.example', baseUrlSource: 'env', token: 'env-token', tokenSource: 'env' });
    expect(await resolveProfile({ baseUrl: 'https://flag.example' }, e, open)).toMatchObject({ baseUrl: 'https://flag.example', baseUrlSource: 'flag' });
  });

  it('selects a profile by flag over PARTNER_PROFILE', async () => {
    const openTwo = async () => {
      const s = await open();
      await s.setProfile('other', { baseUrl: 'https://other.example', token: 'other-token' }, false);
      return s;
    };
    expect(await resolveProfile({}, { ...env, PARTNER_PROFILE: 'other' }, openTwo)).toMatchObject({ name: 'other', nameSource: 'env', token: 'other-token' });
    expect(await resolveProfile({ profile: 'work' }, { ...env, PARTNER_PROFILE: 'other' }, openTwo)).toMatchObject({ name: 'work', nameSource: 'flag' });
  });

  it('does not open the config file when env supplies everything', async () => {
    let opened = false;
    await resolveProfile({}, { PARTNER_BASE_URL: 'https://x', PARTNER_TOKEN: 't' }, () => {
      opened = true;
      return open();
    });
    expect(opened).toBe(false);
  });

  it('masks secrets to the last 4 characters', () => {
    expect(maskSecret('sbx_acme_7f3c9a1e2b4d')).toBe('••••2b4d');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret(undefined)).toBe('(none)');
  });
});

describe('profile names compared NFC', () => {
  const NFC = 'Zo\u00e9';
  const NFD = 'Zoe\u0301';
  it('finds, updates, activates and removes a profile saved decomposed by its precomposed name, and the other way round', async () => {
    // A config written before names were compared NFC, with the name as a macOS shell passed it.
    mkdirSync(join(dir.path, 'cfg'), { mode: 0o700 });
    writeFileSync(join(dir.path, 'cfg', 'config.json'), JSON.stringify({ activeProfile: NFD, profiles: { [NFD]: { baseUrl: 'https://a.example', token: 'tok-zoe-1234' }, plain: { token: 'tok-plain-5678' } } }), { mode: 0o600 });
    const store = new ConfigStore(env);
    expect(store.savedName(NFC)).toBe(NFD);
    expect(store.getProfile(NFC)).toEqual({ baseUrl: 'https://a.example', token: 'tok-zoe-1234' });
    expect(await resolveProfile({ profile: NFC }, {}, async () => store)).toMatchObject({ name: NFD, token: 'tok-zoe-1234' });
    expect(await resolveProfile({}, { PARTNER_PROFILE: NFC }, async () => store)).toMatchObject({ name: NFD, token: 'tok-zoe-1234' });
    // Logging in again under the other spelling updates the one profile, under the name it has.
    await store.setProfile(NFC, { baseUrl: 'https://b.example', token: 'tok-zoe-9999' });
    let saved = JSON.parse(readFileSync(join(dir.path, 'cfg', 'config.json'), 'utf8')) as { activeProfile?: string; profiles: Record<string, unknown> };
    expect(Object.keys(saved.profiles).sort()).toEqual([NFD, 'plain'].sort());
    expect(saved.activeProfile).toBe(NFD);
    expect(await store.setActiveProfile('plain')).toBe(true);
    expect(await store.setActiveProfile(NFC)).toBe(true);
    expect(store.activeProfile).toBe(NFD);
    expect(await store.deleteProfile(NFC)).toBe(true);
    saved = JSON.parse(readFileSync(join(dir.path, 'cfg', 'config.json'), 'utf8')) as typeof saved;
    expect(saved).toEqual({ profiles: { plain: { token: 'tok-plain-5678' } } });
    expect(await store.deleteProfile(NFD)).toBe(false);
  });
  it('saves a new profile NFC, and finds it by its decomposed name', async () => {
    const store = new ConfigStore(env);
    await store.setProfile(NFD, { token: 'tok-new-1234' });
    const saved = JSON.parse(readFileSync(join(dir.path, 'cfg', 'config.json'), 'utf8')) as { activeProfile?: string; profiles: Record<string, unknown> };
    expect(saved).toEqual({ activeProfile: NFC, profiles: { [NFC]: { token: 'tok-new-1234' } } });
    expect(new ConfigStore(env).getProfile(NFD)).toEqual({ token: 'tok-new-1234' });
  });
  it('an exact match wins when two saved names differ only in normalisation', async () => {
    mkdirSync(join(dir.path, 'cfg'), { mode: 0o700 });
    writeFileSync(join(dir.path, 'cfg', 'config.json'), JSON.stringify({ profiles: { [NFD]: { token: 'tok-nfd-1111' }, [NFC]: { token: 'tok-nfc-2222' } } }), { mode: 0o600 });
    const store = new ConfigStore(env);
    expect(store.getProfile(NFD)?.token).toBe('tok-nfd-1111');
    expect(store.getProfile(NFC)?.token).toBe('tok-nfc-2222');
  });
});
