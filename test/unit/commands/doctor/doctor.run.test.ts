// doctor in-process: the list of checks, and the token named with the store it
// is kept in, in the words of `auth status` (a keyring token is not "from the
// config file").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor } from '../../../../src/commands/doctor/doctor.js';
import { STEPS } from '../../../../src/commands/doctor/doctor.run.js';
import { status } from '../../../../src/commands/auth/status.js';
import { keyringService } from '../../../../src/config/token-store.js';
import { runInProcess } from '../../../helpers/command.js';
import { entryKey, memoryKeyring } from '../../../helpers/keyring.js';

const TOKEN = 'tok_keyring_0123456789abcd';
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-doctor-'));
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const saveProfile = (profile: Record<string, unknown>) =>
  writeFileSync(join(dir, 'config', 'config.json'), JSON.stringify({ activeProfile: 'work', profiles: { work: { baseUrl: 'http://api.example.com', ...profile } } }), { mode: 0o600 });
const env = { PARTNER_TOKEN: undefined, PARTNER_BASE_URL: undefined };

describe('doctor (in-process)', () => {
  it('is a list of named checks, each a function', () => {
    expect(STEPS.map((s) => s.name)).toEqual(['Node.js', 'config file', 'profile', 'base URL', 'connection', 'token', 'webhook keys', 'key cache', 'base URL answer', 'clock', 'proxy', 'keyring', 'spool']);
    for (const s of STEPS) expect(typeof s.run).toBe('function');
  });

  it('a token kept in the keyring is named so, as auth status names it; one in the file as in the file', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set(entryKey(keyringService(join(dir, 'config')), 'work'), TOKEN);
    saveProfile({ tokenStorage: 'keyring' });
    const r = await runInProcess(doctor, [], { output: 'json' }, { dir, env, keyring });
    const checks = JSON.parse(r.out).checks as { name: string; status: string; message: string }[];
    // http:// to a host that is not loopback fails the base URL check, so the token is shown but not sent.
    expect(checks.find((c) => c.name === 'token')).toMatchObject({ status: 'skip', message: `••••${TOKEN.slice(-4)} (from the system keyring); not checked without a valid base URL` });
    const st = await runInProcess(status, [], { output: 'table' }, { dir, env, keyring });
    expect(st.out).toMatch(/Token +••••abcd \(from the system keyring\)/);

    saveProfile({ token: TOKEN });
    const file = JSON.parse((await runInProcess(doctor, [], { output: 'json' }, { dir, env, keyring })).out).checks as { name: string; message: string }[];
    expect(file.find((c) => c.name === 'token')!.message).toMatch(/^••••abcd \(from the config file\);/);
  });
});
