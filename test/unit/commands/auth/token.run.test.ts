import { describe, expect, it } from 'vitest';
import { token } from '../../../../src/commands/auth/token.js';
import { login } from '../../../../src/commands/auth/login.js';
import { runInProcess, TOKEN } from '../../../helpers/command.js';
import { memoryKeyring } from '../../../helpers/keyring.js';
import { configDir, noEnvProfile, withTwoProfiles } from './profiles.js';

withTwoProfiles();

describe('auth token (in-process)', () => {
  it('prints PARTNER_TOKEN when set, alone on stdout', async () => {
    const r = await runInProcess(token, [], {});
    expect(r).toEqual({ code: 0, out: `${TOKEN}\n`, err: '' });
  });

  it("prints the active profile's token from the file, or --profile's", async () => {
    expect((await runInProcess(token, [], {}, { dir: configDir(), env: noEnvProfile })).out).toBe('tok_staging_123456789\n');
    expect((await runInProcess(token, [], {}, { dir: configDir(), env: noEnvProfile, globals: { profile: 'default' } })).out).toBe('tok_default_123456789\n');
  });

  it('from the keyring; a keyring out of reach is said, not "no token"', async () => {
    const keyring = memoryKeyring();
    const o = { dir: configDir(), env: noEnvProfile, keyring, globals: { profile: 'kr', baseUrl: 'https://kr.example.com' } };
    await runInProcess(login, ['--with-token', '--no-verify'], { withToken: true, verify: false }, { ...o, stdin: 'tok_kr_123456789' });
    expect((await runInProcess(token, [], {}, { ...o, globals: { profile: 'kr' } })).out).toBe('tok_kr_123456789\n');
    keyring.fail = 'unavailable';
    await expect(runInProcess(token, [], {}, { ...o, globals: { profile: 'kr' } })).rejects.toMatchObject({ code: 'KEYRING_UNAVAILABLE', exitCode: 1 });
  });

  it('no token: exit 3, nothing on stdout', async () => {
    await expect(runInProcess(token, [], {}, { env: noEnvProfile })).rejects.toMatchObject({ exitCode: 3, code: 'NO_TOKEN', message: 'No token for profile "default"' });
  });
});
