import { describe, expect, it } from 'vitest';
import { switchProfile } from '../../../../src/commands/auth/switch.js';
import { runInProcess } from '../../../helpers/command.js';
import { config, configDir, noEnvProfile, withTwoProfiles } from './profiles.js';

withTwoProfiles();

describe('auth switch (in-process)', () => {
  it('makes a saved profile the active one and says where it points', async () => {
    const r = await runInProcess(switchProfile, ['staging'], {}, { dir: configDir(), env: noEnvProfile });
    expect(r.err).toBe('Active profile: "staging" (https://staging.example.com).\n');
    expect(config().activeProfile).toBe('staging');
  });

  it('an unknown profile: a usage error (exit 2) naming the known ones; nothing changes', async () => {
    const before = config().activeProfile;
    await expect(runInProcess(switchProfile, ['nope'], {}, { dir: configDir(), env: noEnvProfile })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/No profile "nope".*known: default, staging/) });
    expect(config().activeProfile).toBe(before);
  });

  it('warns when PARTNER_PROFILE or PARTNER_TOKEN will still win over the switch', async () => {
    const r = await runInProcess(switchProfile, ['staging'], {}, { dir: configDir(), env: { ...noEnvProfile, PARTNER_PROFILE: 'default', PARTNER_TOKEN: 'x' } });
    expect(r.err).toMatch(/warning: PARTNER_PROFILE=default is set and wins/);
    expect(r.err).toMatch(/warning: PARTNER_TOKEN is set and wins/);
  });
});
