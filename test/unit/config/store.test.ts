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
