// The one employee resolver: the server's answer is matched again (id and
// code), two employees with one code are refused, and a code in another case
// is only ever suggested.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/api/http.js';
import { codeOf, EmployeeNotFoundError, isEmployee, resolveEmployee } from '../../../src/api/resolve-employee.js';
import { fakeApi, type FakeApi } from '../../helpers/fake-api.js';

const ID1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const ID2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const page = (data: unknown[]) => ({ data, pagination: { currentPage: 1, pageSize: 2, totalPages: 1, totalItems: data.length, hasNextPage: false, hasPreviousPage: false } });

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
const client = (a: FakeApi) => new HttpClient({ baseUrl: a.url, token: 'tok', userAgent: 'partner-cli/test', timeoutMs: 2000, backoffBaseMs: 1, maxRetries: 0 });

describe('isEmployee / codeOf', () => {
  it('matches the id (any case) and the code (exactly); both must hold when both are named', () => {
    const rec = { id: ID1, employeeCode: 'ACME-1' };
    expect(isEmployee(rec, { id: ID1.toUpperCase() })).toBe(true);
    expect(isEmployee(rec, { code: 'ACME-1' })).toBe(true);
    expect(isEmployee(rec, { code: 'acme-1' })).toBe(false);
    expect(isEmployee(rec, { id: ID1, code: 'ACME-2' })).toBe(false);
    expect(isEmployee(rec, { id: ID2 })).toBe(false);
    expect(isEmployee(rec, {})).toBe(false);
    expect(isEmployee(null, { code: 'ACME-1' })).toBe(false);
  });

  it('the code is employeeCode, or employeeId when that carries a code (not a uuid)', () => {
    expect(codeOf({ employeeId: 'ACME-7' })).toBe('ACME-7');
    expect(codeOf({ employeeId: ID1 })).toBeUndefined();
    expect(codeOf({ employeeCode: 'ACME-1', employeeId: 'OTHER' })).toBe('ACME-1');
    expect(codeOf({ employeeCode: 5 })).toBeUndefined();
  });
});

describe('resolveEmployee', () => {
  it('a uuid is used as it is, lower-cased, without a request', async () => {
    api = await fakeApi(() => page([]));
    expect(await resolveEmployee(client(api), ID1.toUpperCase())).toEqual({ ref: ID1.toUpperCase(), id: ID1 });
    expect(api.requests).toEqual([]);
  });

  it('the row with the code named wins, wherever the server put it', async () => {
    api = await fakeApi(() => page([{ id: ID1, employeeCode: 'ACME-1' }, { id: ID2, employeeCode: 'ACME-2', fullName: 'Bo' }]));
    expect(await resolveEmployee(client(api), 'ACME-2')).toEqual({ ref: 'ACME-2', id: ID2, code: 'ACME-2', name: 'Bo' });
  });

  it('two employees with one code: refused (AMBIGUOUS_EMPLOYEE), not guessed', async () => {
    api = await fakeApi(() => page([{ id: ID1, employeeCode: 'ACME-1' }, { id: ID2, employeeCode: 'ACME-1' }]));
    await expect(resolveEmployee(client(api), 'ACME-1')).rejects.toMatchObject({ code: 'AMBIGUOUS_EMPLOYEE', exitCode: 1 });
  });

  it('rows without a string id never match', async () => {
    api = await fakeApi(() => page([{ id: 7, employeeCode: 'ACME-1' }, null, 'x']));
    await expect(resolveEmployee(client(api), 'ACME-1')).rejects.toBeInstanceOf(EmployeeNotFoundError);
  });

  it('no match: EMPLOYEE_NOT_FOUND exit 5; a conforming server asked once more in upper case for the did-you-mean', async () => {
    const urls: string[] = [];
    api = await fakeApi(() => page([]));
    const http = client(api);
    const send = http.send.bind(http);
    http.send = ((method: string, path: string, o: { query?: Record<string, unknown> }) => {
      urls.push(String(o?.query?.employeeCode));
      return send(method as 'GET', path, o as never);
    }) as typeof http.send;
    const err = await resolveEmployee(http, 'acme-1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EMPLOYEE_NOT_FOUND', exitCode: 5, suggestion: undefined });
    expect(urls).toEqual(['acme-1', 'ACME-1']);
  });

  it('exactly one code differing in case: suggested; two: no suggestion', async () => {
    api = await fakeApi(() => page([{ id: ID1, employeeCode: 'ACME-1' }]));
    await expect(resolveEmployee(client(api), 'Acme-1')).rejects.toMatchObject({ suggestion: 'ACME-1', message: expect.stringContaining('did you mean ACME-1?') });
    await api.close();
    api = await fakeApi(() => page([{ id: ID1, employeeCode: 'ACME-1' }, { id: ID2, employeeCode: 'acme-1' }]));
    await expect(resolveEmployee(client(api), 'Acme-1')).rejects.toMatchObject({ suggestion: undefined });
  });
});

describe('ids from answers go into paths only as UUIDs', () => {
  it.each(['..', '../bank', 'x', ID1.replace(/-/g, '/')])('a code resolved to the id %j is BAD_RESPONSE, naming it', async (bad) => {
    api = await fakeApi(() => page([{ id: bad, employeeCode: 'ACME-1' }]));
    await expect(resolveEmployee(client(api), 'ACME-1')).rejects.toMatchObject({ code: 'BAD_RESPONSE', exitCode: 1, message: expect.stringContaining('not a UUID') });
  });

  it('every /v1/employees/{id}/… path refuses an id that is not a UUID before any request', async () => {
    const { getProfileSection, submitDynamicDetails } = await import('../../../src/api/employees.js');
    api = await fakeApi(() => ({}));
    const http = client(api);
    await expect(getProfileSection(http, '..', 'personal')).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    await expect(submitDynamicDetails(http, '../..', {})).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    expect(api.requests).toEqual([]);
  });
});
