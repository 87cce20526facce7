import { describe, expect, it } from 'vitest';
import { login } from '../../../../src/commands/auth/login.js';
import { runInProcess } from '../../../helpers/command.js';

const NEW_TOKEN = 'new_token_1a2b3c4d5e6f7a8b';
const probe = (status: number, body: object) => (api: import('undici').Interceptable) =>
  api.intercept({ path: '/v1/employees?pageSize=1', method: 'GET', headers: { authorization: `Bearer ${NEW_TOKEN}` } }).reply(status, body);

describe('auth login (in-process, stubbed HTTP)', () => {
  it('--with-token: checks the token from stdin, saves the profile, says which company it belongs to; the token is never printed', async () => {
    const r = await runInProcess(login, [], { withToken: true }, { stdin: `${NEW_TOKEN}\n`, stub: probe(200, { data: [{ customerName: 'Acme\u001b[31m Corp' }], pagination: {} }) });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/Logged in: profile "default" → https:\/\/api\.partner\.test/);
    expect(r.err).toContain('Active profile is now "default"; the token belongs to Acme Corp.');
    expect(r.out + r.err).not.toContain(NEW_TOKEN.slice(0, 8));
  });

  it('a token the server refuses (401) is an auth error and is not saved', async () => {
    await expect(runInProcess(login, [], { withToken: true }, { stdin: NEW_TOKEN, stub: probe(401, { error: { code: 'AUTHORIZATION_INVALID_TOKEN' } }) })).rejects.toMatchObject({ exitCode: 3, message: expect.stringMatching(/refused this token \(HTTP 401\); nothing was saved/) });
  });

  it('a 403 is saved with a warning (the token may not list employees)', async () => {
    const r = await runInProcess(login, [], { withToken: true }, { stdin: NEW_TOKEN, stub: probe(403, { error: { code: 'FORBIDDEN' } }) });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: The token was accepted but may not list employees \(HTTP 403\)/);
    expect(r.err).toMatch(/Active profile is now "default"\.\n/);
  });

  it('--no-verify sends nothing; an empty or spaced token is a usage error before any request', async () => {
    expect((await runInProcess(login, ['--no-verify'], { withToken: true, verify: false }, { stdin: NEW_TOKEN })).code).toBe(0);
    await expect(runInProcess(login, [], { withToken: true }, { stdin: '  \n' })).rejects.toMatchObject({ code: 'EMPTY_TOKEN' });
    await expect(runInProcess(login, [], { withToken: true }, { stdin: 'Bearer abc' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('with no terminal and no --with-token it says how to pipe the token in', async () => {
    await expect(runInProcess(login, [], {})).rejects.toThrow(/No terminal to prompt for the token/);
  });
});
