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
