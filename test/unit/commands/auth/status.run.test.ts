import { describe, expect, it } from 'vitest';
import { status } from '../../../../src/commands/auth/status.js';
import { ORIGIN, runInProcess, TOKEN } from '../../../helpers/command.js';

describe('auth status (in-process, stubbed HTTP)', () => {
  const ok = (api: import('nock').Scope) => api.get('/v1/employees?pageSize=1').matchHeader('authorization', `Bearer ${TOKEN}`).reply(200, { data: [], pagination: {} });

  it('piped: JSON with the masked token and a live check', async () => {
    const r = await runInProcess(status, [], {}, { stub: ok });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ baseUrl: ORIGIN, baseUrlSource: 'env', tokenSource: 'env', token: `••••${TOKEN.slice(-4)}`, check: 'token accepted' });
    expect(r.out + r.err).not.toContain(TOKEN);
  });

  it('--jq applies to the report; a table on request', async () => {
    expect((await runInProcess(status, [], { jq: '.baseUrl' }, { stub: ok })).out).toBe(`${ORIGIN}\n`);
    expect((await runInProcess(status, [], { output: 'table' }, { stub: ok })).out).toMatch(/token accepted/);
  });

  it('a refused token: exit 3', async () => {
    const r = await runInProcess(status, [], {}, { stub: (api) => api.get('/v1/employees?pageSize=1').reply(401, { error: { code: 'AUTHORIZATION_INVALID_TOKEN', message: 'bad token' } }) });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.out).check).toMatch(/refused: HTTP 401/);
  });
});
