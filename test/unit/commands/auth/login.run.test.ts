import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../src/commands/auth/login.js';
import { keyringService, PROBE_ACCOUNT } from '../../../../src/config/token-store.js';
import { keyringWords } from '../../../../src/config/keyring-words.js';
import { runInProcess } from '../../../helpers/command.js';
import { entryKey, memoryKeyring, type MemoryKeyring } from '../../../helpers/keyring.js';

const NEW_TOKEN = 'new_token_1a2b3c4d5e6f7a8b';
const probe = (status: number, body: object) => (api: import('nock').Scope) => api.get('/v1/employees?pageSize=1').matchHeader('authorization', `Bearer ${NEW_TOKEN}`).reply(status, body);

let dir = '';
let keyring: MemoryKeyring;
const service = () => keyringService(join(dir, 'config'));
const configText = () => readFileSync(join(dir, 'config', 'config.json'), 'utf8');
const opts = (o: Parameters<typeof runInProcess>[3] = {}) => ({ dir, keyring, ...o });
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-login-'));
  keyring = memoryKeyring();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('auth login (in-process, stubbed HTTP)', () => {
  it('--with-token: checks the token from stdin, saves it in the keyring and the profile in the file; the token is never printed', async () => {
    const r = await runInProcess(login, [], { withToken: true }, opts({ stdin: `${NEW_TOKEN}\n`, stub: probe(200, { data: [{ customerName: 'Acme\u001b[31m Corp' }], pagination: {} }) }));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/Logged in: profile "default" → https:\/\/api\.partner\.test \(token in the system keyring, profile in .*config\.json\)/);
    expect(r.err).toContain('Active profile is now "default"; the token belongs to Acme Corp.');
    expect(r.out + r.err).not.toContain(NEW_TOKEN.slice(0, 8));
    expect(keyring.entries.get(entryKey(service(), 'default'))).toBe(NEW_TOKEN);
    expect(JSON.parse(configText()).profiles.default).toEqual({ baseUrl: 'https://api.partner.test', tokenStorage: 'keyring' });
    expect(configText()).not.toContain(NEW_TOKEN);
  });

  it('a token the server refuses (401) is an auth error and is not saved', async () => {
    await expect(runInProcess(login, [], { withToken: true }, opts({ stdin: NEW_TOKEN, stub: probe(401, { error: { code: 'AUTHORIZATION_INVALID_TOKEN' } }) }))).rejects.toMatchObject({ exitCode: 3, message: expect.stringMatching(/refused this token \(HTTP 401\); nothing was saved/) });
    // Only the check that the keyring can store a token, made before the token was read.
    expect(keyring.calls).toEqual([`set ${PROBE_ACCOUNT}`, `delete ${PROBE_ACCOUNT}`]);
    expect(keyring.entries.size).toBe(0);
  });

  it('a 403 is saved with a warning (the token may not list employees)', async () => {
    const r = await runInProcess(login, [], { withToken: true }, opts({ stdin: NEW_TOKEN, stub: probe(403, { error: { code: 'FORBIDDEN' } }) }));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: The token was accepted but may not list employees \(HTTP 403\)/);
    expect(r.err).toMatch(/Active profile is now "default"\.\n/);
  });

  it('--no-verify sends nothing; an empty, spaced or broken token is a usage error before any request, named as such', async () => {
    expect((await runInProcess(login, ['--no-verify'], { withToken: true, verify: false }, opts({ stdin: NEW_TOKEN }))).code).toBe(0);
    await expect(runInProcess(login, [], { withToken: true }, opts({ stdin: '  \n' }))).rejects.toMatchObject({ code: 'EMPTY_TOKEN' });
    await expect(runInProcess(login, [], { withToken: true }, opts({ stdin: 'Bearer abc' }))).rejects.toMatchObject({ code: 'INVALID_TOKEN', message: 'The token holds a space at character 7; nothing was saved' });
    await expect(runInProcess(login, [], { withToken: true }, opts({ stdin: 'abc\ndef\n' }))).rejects.toMatchObject({ code: 'INVALID_TOKEN', exitCode: 2, message: 'The token holds a line break (LF) at character 4; nothing was saved' });
    await expect(runInProcess(login, [], { withToken: true }, opts({ stdin: 'abc\u0001def' }))).rejects.toMatchObject({ code: 'INVALID_TOKEN', message: expect.stringMatching(/a control character \(U\+0001\) at character 4/) });
    expect(keyring.entries.get(entryKey(service(), 'default'))).toBe(NEW_TOKEN);
    expect(keyring.calls.filter((c) => c.endsWith(' default'))).toEqual(['get default', 'set default']);
  });

  it('no keyring can be reached: refused before the token is read or checked, exit 1, in words, saying what to do; nothing is written anywhere', async () => {
    keyring.fail = 'unavailable';
    keyring.problem = 'no-bus';
    // No stub: a request to check the token would fail the test; stdin is left unread.
    const err = await runInProcess(login, [], { withToken: true }, opts({ stdin: NEW_TOKEN })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'KEYRING_UNAVAILABLE', exitCode: 1, message: `Cannot store tokens in the system keyring: ${keyringWords('no-bus').what}` });
    expect((err as { hint: string }).hint).toMatch(/dbus-run-session -- sh.*--insecure-storage\. Nothing was asked for or saved\.$/);
    expect(keyring.calls).toEqual([`set ${PROBE_ACCOUNT}`]);
    expect(existsSync(join(dir, 'config', 'config.json'))).toBe(false);
    keyring.fail = 'timeout';
    await expect(runInProcess(login, ['--no-verify'], { withToken: true, verify: false }, opts({ stdin: NEW_TOKEN }))).rejects.toMatchObject({ code: 'KEYRING_TIMEOUT', exitCode: 1 });
  });

  it('a locked keyring (reads, refuses writes) is found out before the token is checked: no request, nothing saved', async () => {
    keyring.fail = 'unavailable';
    keyring.failOps = ['set'];
    // No stub: the token check's request would fail the test.
    const err = await runInProcess(login, [], { withToken: true }, opts({ stdin: NEW_TOKEN })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'KEYRING_UNAVAILABLE', message: `Cannot store tokens in the system keyring: ${keyringWords('locked').what}` });
    expect(keyring.calls).toEqual([`set ${PROBE_ACCOUNT}`]);
    expect(existsSync(join(dir, 'config', 'config.json'))).toBe(false);
  });

  it('another token over a saved keyring profile, with the config file unwritable: the keyring keeps the old token (nothing changed)', async () => {
    const first = await runInProcess(login, ['--no-verify'], { withToken: true, verify: false }, opts({ stdin: 'old_token_0000000000000' }));
    expect(first.code).toBe(0);
    const before = configText();
    // The config file's lock cannot be taken: a directory where the lock file goes.
    mkdirSync(join(dir, 'config', 'config.json.lock'));
    await expect(runInProcess(login, ['--no-verify'], { withToken: true, verify: false }, opts({ stdin: NEW_TOKEN, globals: { baseUrl: 'https://other.partner.test' } }))).rejects.toMatchObject({ code: expect.stringMatching(/^LOCK/) });
    expect(keyring.entries.get(entryKey(service(), 'default'))).toBe('old_token_0000000000000');
    expect(configText()).toBe(before);
  }, 30_000);

  it('--insecure-storage keeps the token in the config file and never asks the keyring', async () => {
    keyring.fail = 'unavailable';
    const r = await runInProcess(login, ['--no-verify', '--insecure-storage'], { withToken: true, verify: false, insecureStorage: true }, opts({ stdin: NEW_TOKEN }));
    expect(r.err).toMatch(/\(token in .*config\.json, mode 0600\)/);
    expect(JSON.parse(configText()).profiles.default).toEqual({ baseUrl: 'https://api.partner.test', token: NEW_TOKEN });
    expect(keyring.calls).toEqual([]);
  });

  it('with no terminal and no --with-token it says how to pipe the token in', async () => {
    await expect(runInProcess(login, [], {}, opts())).rejects.toThrow(/No terminal to prompt for the token/);
  });
});
