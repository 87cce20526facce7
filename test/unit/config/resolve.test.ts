import { describe, expect, it } from 'vitest';
import { profileName, resolveProfile, unknownProfileError } from '../../../src/config/resolve.js';
import type { ConfigStore } from '../../../src/config/store.js';
import { AuthError } from '../../../src/errors.js';

function fakeStore(profiles: Record<string, { baseUrl?: string; token?: string }>, active?: string): ConfigStore {
  return {
    activeProfile: active,
    profileNames: () => Object.keys(profiles).sort(),
    savedName: (n: string) => Object.keys(profiles).find((k) => k.normalize('NFC') === n.normalize('NFC')) ?? n.normalize('NFC'),
    getProfile: (n: string) => (profiles[n] ? { ...profiles[n] } : undefined),
  } as unknown as ConfigStore;
}

const store = fakeStore({ default: { baseUrl: 'https://a.example', token: 'tok-default-1234' }, staging: { baseUrl: 'https://s.example', token: 'tok-staging-5678' } }, 'staging');

describe('profileName', () => {
  it('--profile > PARTNER_PROFILE > active > "default"', () => {
    expect(profileName({ profile: 'x' }, { PARTNER_PROFILE: 'y' }, store)).toEqual({ name: 'x', source: 'flag' });
    expect(profileName({}, { PARTNER_PROFILE: 'y' }, store)).toEqual({ name: 'y', source: 'env' });
    expect(profileName({}, { PARTNER_PROFILE: '' }, store)).toEqual({ name: 'staging', source: 'profile' });
    expect(profileName({}, {}, undefined)).toEqual({ name: 'default', source: 'none' });
  });
});

describe('resolveProfile', () => {
  it('uses the active profile', async () => {
    expect(await resolveProfile({}, {}, async () => store)).toMatchObject({ name: 'staging', baseUrl: 'https://s.example', token: 'tok-staging-5678', tokenSource: 'profile' });
  });

  it('an unknown --profile or PARTNER_PROFILE is an error naming the known ones', async () => {
    await expect(resolveProfile({ profile: 'nope' }, {}, async () => store)).rejects.toThrow('No profile "nope"; known: default, staging');
    await expect(resolveProfile({}, { PARTNER_PROFILE: 'nope' }, async () => store)).rejects.toThrow('No profile "nope" (PARTNER_PROFILE); known: default, staging');
    try {
      await resolveProfile({ profile: 'nope' }, {}, async () => store);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AuthError);
      expect((err as AuthError).exitCode).toBe(3);
      expect((err as AuthError).code).toBe('UNKNOWN_PROFILE');
    }
  });

  it('not an error when the environment gives both the base URL and the token (the profile is not needed)', async () => {
    const p = await resolveProfile({ profile: 'ci' }, { PARTNER_BASE_URL: 'https://c.example', PARTNER_TOKEN: 'tok-env-0000' }, async () => store);
    expect(p).toMatchObject({ name: 'ci', baseUrl: 'https://c.example', tokenSource: 'env' });
  });

  it('with no profiles saved, says so', () => {
    expect(unknownProfileError('x', fakeStore({})).message).toBe('No profile "x"; no profiles are saved yet');
  });
});
