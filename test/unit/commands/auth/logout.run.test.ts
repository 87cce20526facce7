import { describe, expect, it } from 'vitest';
import { logout } from '../../../../src/commands/auth/logout.js';
import { switchProfile } from '../../../../src/commands/auth/switch.js';
import { runInProcess } from '../../../helpers/command.js';
import { config, configDir, noEnvProfile, withTwoProfiles } from './profiles.js';

withTwoProfiles();

describe('auth logout (in-process)', () => {
  it('removes the profile the one precedence names (--profile, then PARTNER_PROFILE, then the active one)', async () => {
    await runInProcess(switchProfile, ['staging'], {}, { dir: configDir(), env: noEnvProfile });
    expect((await runInProcess(logout, [], {}, { dir: configDir(), env: { ...noEnvProfile, PARTNER_PROFILE: '' } })).err).toBe('Logged out: profile "staging" and its token were removed.\n');
    expect(Object.keys(config().profiles)).toEqual(['default']);
    expect((await runInProcess(logout, [], {}, { dir: configDir(), env: noEnvProfile, globals: { profile: 'ghost' } })).err).toBe('No saved profile "ghost"; nothing to do.\n');
    const viaEnv = await runInProcess(logout, [], {}, { dir: configDir(), env: { ...noEnvProfile, PARTNER_PROFILE: 'default', PARTNER_TOKEN: 'x' } });
    expect(viaEnv.err).toMatch(/^Logged out: profile "default"/);
    expect(viaEnv.err).toMatch(/warning: PARTNER_TOKEN is still set/);
  });
});

describe('auth logout of a profile whose token is in the keyring', () => {
  it('deletes the profile and its keyring entry', async () => {
    const { memoryKeyring, entryKey } = await import('../../../helpers/keyring.js');
    const { login } = await import('../../../../src/commands/auth/login.js');
    const { keyringService } = await import('../../../../src/config/token-store.js');
    const { join } = await import('node:path');
    const keyring = memoryKeyring();
    const o = { dir: configDir(), env: noEnvProfile, keyring, globals: { profile: 'kr', baseUrl: 'https://kr.example.com' } };
    await runInProcess(login, ['--with-token', '--no-verify'], { withToken: true, verify: false }, { ...o, stdin: 'tok_kr_123456789' });
    const key = entryKey(keyringService(join(configDir(), 'config')), 'kr');
    expect(keyring.entries.get(key)).toBe('tok_kr_123456789');

    expect((await runInProcess(logout, [], {}, o)).err).toBe('Logged out: profile "kr" and its token (from the system keyring) were removed.\n');
    expect(keyring.entries.has(key)).toBe(false);
    expect(Object.keys(config().profiles)).toEqual(['default', 'staging']);
  });

  it('a keyring that is gone: the profile is removed anyway, exit 0, and a warning says its token may remain there and how to delete it', async () => {
    const { memoryKeyring, entryKey } = await import('../../../helpers/keyring.js');
    const { login } = await import('../../../../src/commands/auth/login.js');
    const { keyringService, removeByHand } = await import('../../../../src/config/token-store.js');
    const { join } = await import('node:path');
    const keyring = memoryKeyring();
    const o = { dir: configDir(), env: noEnvProfile, keyring, globals: { profile: 'kr', baseUrl: 'https://kr.example.com' } };
    await runInProcess(login, ['--with-token', '--no-verify'], { withToken: true, verify: false }, { ...o, stdin: 'tok_kr_123456789' });
    const service = keyringService(join(configDir(), 'config'));
    keyring.fail = 'unavailable';
    keyring.problem = 'bus-gone';
    const r = await runInProcess(logout, [], {}, o);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^Logged out: profile "kr" was removed\.\n/);
    expect(r.err).toMatch(/warning: The token of profile "kr" may remain in the system keyring: it could not be deleted \(the D-Bus session bus that DBUS_SESSION_BUS_ADDRESS names is no longer running/);
    expect(r.err.replace(/\s+/g, ' ')).toContain(removeByHand(service, 'kr'));
    expect(Object.keys(config().profiles)).toEqual(['default', 'staging']);
    expect(keyring.entries.get(entryKey(service, 'kr'))).toBe('tok_kr_123456789');
  });
});
