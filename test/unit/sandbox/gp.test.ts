import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, deuBody, expectErrorShape, freshEmail, indBody } from './helpers.js';
import { startLoopbackServer } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

const create = (body: unknown, token?: string) => call(s, '/v1/employees/gp-employments', { method: 'POST', body, ...(token ? { token } : {}) });
const fieldsOf = (b: { error: { details: { field: string }[] } }) => b.error.details.map((d) => d.field).sort();

describe('POST /v1/employees/gp-employments', () => {
  it('422 with dot-path fields for invalid sections', async () => {
    const body = deuBody();
    const personal = body.personal as Record<string, unknown>;
    personal.dateOfBirth = '12.04.1990';
    personal.gender = 'X';
    delete personal.lastName;
    const employment = body.employment as Record<string, unknown>;
    employment.term = 'FIXED_TERM'; // then endDate is required
    employment.weeklyHours = 60;
    (body.compensation as Record<string, unknown>).hasSigningBonus = false; // then signingBonusAmount is not allowed
    (body.bank as Record<string, unknown>).iban = 'GB00';
    const b = expectErrorShape(await create(body), 422, 'VALIDATION_ERROR');
    expect(fieldsOf(b)).toEqual([
      'bank.iban',
      'compensation.signingBonusAmount',
      'employment.endDate',
      'employment.weeklyHours',
      'personal.dateOfBirth',
      'personal.gender',
      'personal.lastName',
    ]);
    const byField = Object.fromEntries(b.error.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(byField['personal.dateOfBirth']).toBe('must be a date in the form YYYY-MM-DD');
    expect(byField['personal.gender']).toBe('must be one of: FEMALE, MALE, NON_BINARY, UNDISCLOSED');
    expect(byField['personal.lastName']).toBe('is required');
    expect(byField['employment.endDate']).toBe('is required');
    expect(b.errors).toContainEqual({ property: 'personal.dateOfBirth', message: 'must be a date in the form YYYY-MM-DD' });
  });

  it('422 for missing sections, dynamic sections and unknown members', async () => {
    const body = deuBody();
    delete body.employment;
    body.legal = { taxId: '12345678901' };
    const b = expectErrorShape(await create(body), 422, 'VALIDATION_ERROR');
    expect(fieldsOf(b)).toEqual(['employment', 'legal']);
    const noEntity = expectErrorShape(await create({ personal: {} }), 422, 'VALIDATION_ERROR');
    expect(fieldsOf(noEntity)).toEqual(['entity']);
    expectErrorShape(await create([1, 2]), 422, 'VALIDATION_ERROR');
  });

  it('404 for an unknown entity', async () => {
    const b = expectErrorShape(await create({ ...deuBody(), entity: 'Initech LLC' }), 404, 'NOT_FOUND');
    expect(b.message).toContain('Initech LLC');
  });

  it('409 CONFLICT for a work e-mail already in use (existing or created)', async () => {
    const existing = (await call(s, '/v1/employees?pageSize=1')).body.data[0];
    expectErrorShape(await create(deuBody({ workEmail: existing.workEmail })), 409, 'CONFLICT');
    expectErrorShape(await create(deuBody({ workEmail: existing.workEmail.toUpperCase() })), 409, 'CONFLICT');
    const email = freshEmail();
    expect((await create(deuBody({ workEmail: email }))).status).toBe(201);
    expectErrorShape(await create(indBody({ workEmail: email })), 409, 'CONFLICT');
  });

  it('201; the employee is then listed, tracked and has profile sections', async () => {
    const t = await startSandbox();
    try {
      const email = freshEmail('karl');
      const r = await call(t, '/v1/employees/gp-employments', { method: 'POST', body: deuBody({ workEmail: email }) });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: 'ONBOARDING', entity: 'Acme Deutschland GmbH', country: 'DEU', employeeCode: 'ACME-00046', workEmail: email });
      expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
      const { id } = r.body;

      const list = await call(t, '/v1/employees?pageSize=100');
      expect(list.body.pagination.totalItems).toBe(46);
      const item = list.body.data.find((e: { id: string }) => e.id === id);
      expect(item).toMatchObject({ status: 'ONBOARDING', firstName: 'Erika', lastName: 'Mustermann', workEmail: email, startDate: '2026-03-01', customerId: t.companies.A.id, endDate: null, middleName: null });
      expect((await call(t, `/v1/employees?employeeId=${id}`)).body.data).toEqual([item]);
      expect((await call(t, `/v1/employees?employeeCode=ACME-00046`)).body.data).toEqual([item]);
      expect((await call(t, '/v1/employees?status=ONBOARDING&pageSize=100')).body.data.at(-1)).toEqual(item);
      // newest start date: first when sorting DESC
      expect((await call(t, '/v1/employees?pageSize=1&sortBy=startOn&sortOrder=DESC')).body.data[0].id).toBe(id);

      const tracker = (await call(t, '/v1/employees/onboarding-tracker')).body;
      expect(tracker.at(-1)).toEqual({ id, employeeCode: 'ACME-00046', stage: 'AWAITING_DYNAMIC_DETAILS' });

      const personal = (await call(t, `/v1/employees/${id}/personal`)).body;
      expect(personal).toMatchObject({ firstName: 'Erika', lastName: 'Mustermann', dateOfBirth: '1990-04-12', nationalities: [{ country: 'DEU', type: 'PRIMARY' }] });
      const bank = (await call(t, `/v1/employees/${id}/bank`)).body;
      expect(bank).toMatchObject({ accountNumber: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX', currency: 'EUR', country: 'DEU' });
      const employment = (await call(t, `/v1/employees/${id}/employment`)).body;
      expect(employment).toMatchObject({ employeeCode: 'ACME-00046', status: 'ONBOARDING', term: 'PERMANENT', workEmail: email });
      const comp = (await call(t, `/v1/employees/${id}/compensation`)).body;
      expect(comp.baseSalary).toEqual({ amount: 72000, currency: 'EUR', period: 'ANNUAL' });
      for (const section of ['contact', 'address', 'education']) expect((await call(t, `/v1/employees/${id}/${section}`)).status).toBe(200);

      // not visible to company B
      expectErrorShape(await call(t, `/v1/employees/${id}/personal`, { token: t.tokens.companyB }), 404, 'NOT_FOUND');
      expect((await call(t, '/v1/employees?pageSize=100', { token: t.tokens.companyB })).body.pagination.totalItems).toBe(12);
    } finally {
      await t.close();
    }
  });
});

describe('PATCH /v1/employees/{id}/dynamic-details', () => {
  const patch = (id: string, body: unknown, token?: string) =>
    call(s, `/v1/employees/${id}/dynamic-details`, { method: 'PATCH', body, ...(token ? { token } : {}) });

  it('204 with no body; the tracker stage moves on', async () => {
    const id = (await create(deuBody())).body.id;
    const r = await patch(id, {
      legal: { taxId: '12345678901', taxClass: 1, socialSecurityNumber: '12345678A123', churchTaxLiable: false, children: [{ firstName: 'Lina', dateOfBirth: '2019-05-01' }] },
      customFields: { costCenter: 'CC-0042', laptop: 'LINUX' },
    });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const t = (await call(s, `/v1/employees/onboarding-tracker?employeeId=${id}`)).body;
    expect(t[0].stage).toBe('DOCUMENTS_PENDING');
    // sections may be sent one at a time
    expect((await patch(id, { customFields: { costCenter: 'CC-0043' } })).status).toBe(204);
  });

  it('422 with details for invalid dynamic values', async () => {
    const id = (await create(deuBody())).body.id;
    const b = expectErrorShape(
      await patch(id, { legal: { taxId: '123', taxClass: 9, socialSecurityNumber: '12345678A123', churchTaxLiable: true, children: [{ firstName: '' }] }, customFields: { costCenter: 'X' } }),
      422,
      'VALIDATION_ERROR',
    );
    expect(fieldsOf(b)).toEqual(['customFields.costCenter', 'legal.children.0.dateOfBirth', 'legal.children.0.firstName', 'legal.denomination', 'legal.taxClass', 'legal.taxId']);
    expect(fieldsOf(expectErrorShape(await patch(id, {}), 422, 'VALIDATION_ERROR'))).toEqual(['body']);
    expect(fieldsOf(expectErrorShape(await patch(id, { personal: { firstName: 'x' } }), 422, 'VALIDATION_ERROR'))).toEqual(['personal']);
  });

  it('the Indian form has its own rules (UAN required with EPF)', async () => {
    const id = (await create(indBody())).body.id;
    const b = expectErrorShape(await patch(id, { legal: { pan: 'ABCDE1234F', taxRegime: 'NEW', pfOptIn: true } }), 422, 'VALIDATION_ERROR');
    expect(fieldsOf(b)).toEqual(['legal.uan']);
    expect((await patch(id, { legal: { pan: 'ABCDE1234F', taxRegime: 'NEW', pfOptIn: true, uan: '100200300400', nominees: [{ name: 'R. Rao', relationship: 'PARENT', sharePercent: 100 }] } })).status).toBe(204);
  });

  it('works for generated employees too; 404 for unknown ids, 422 for malformed ones', async () => {
    const de = (await call(s, '/v1/employees?pageSize=100')).body.data.find((e: { entity: string }) => e.entity === 'Acme Deutschland GmbH');
    expect((await patch(de.id, { customFields: { costCenter: 'CC-1000' } })).status).toBe(204);
    expectErrorShape(await patch('00000000-0000-4000-8000-000000000000', { customFields: { costCenter: 'CC-1000' } }), 404, 'NOT_FOUND');
    expectErrorShape(await patch('nope', { customFields: { costCenter: 'CC-1000' } }), 422, 'VALIDATION_ERROR');
  });
});

describe('webhooks', () => {
  it('POST create delivers a signed EMPLOYEE_CREATED; PATCH an EMPLOYEE_UPDATED', async () => {
    const received: { body: string; contentType: string | undefined }[] = [];
    const receiver = await startLoopbackServer((req, res, body) => {
      received.push({ body, contentType: req.headers['content-type'] });
      res.writeHead(200).end();
    });
    const t = await startSandbox({ webhookUrl: `${receiver.url}/hooks` });
    const delivered = (n: number) => waitFor(() => received.length >= n, { what: `${n} deliveries` });
    try {
      const created = await call(t, '/v1/employees/gp-employments', { method: 'POST', body: deuBody() });
      expect(created.status).toBe(201);
      await delivered(1);
      expect(received[0]!.contentType).toBe('application/json');
      const jws = received[0]!.body;
      expect(jws.split('.')).toHaveLength(3);
      expect(decodeProtectedHeader(jws)).toEqual({ alg: 'ES512', kid: t.signer.kid });
      const jwks = (await call(t, '/v1/partner/.well-known/jwks.json', { token: null })).body;
      const { payload } = await compactVerify(jws, createLocalJWKSet(jwks));
      const event = JSON.parse(new TextDecoder().decode(payload));
      expect(event).toEqual({
        eventType: 'EMPLOYEE_CREATED',
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        data: { id: created.body.id, customerId: t.companies.A.id, employeeCode: created.body.employeeCode, status: 'ONBOARDING', type: 'EMPLOYEE', country: 'DEU' },
      });

      const p = await call(t, `/v1/employees/${created.body.id}/dynamic-details`, { method: 'PATCH', body: { customFields: { costCenter: 'CC-0001' } } });
      expect(p.status).toBe(204);
      await delivered(2);
      const updated = JSON.parse(new TextDecoder().decode((await compactVerify(received[1]!.body, createLocalJWKSet(jwks))).payload));
      expect(updated).toMatchObject({ eventType: 'EMPLOYEE_UPDATED', data: { id: created.body.id, status: 'ONBOARDING', updateType: 'EMPLOYMENT_DETAILS' } });
      // a rejected create sends nothing
      expect((await call(t, '/v1/employees/gp-employments', { method: 'POST', body: { entity: 'Acme India Pvt Ltd' } })).status).toBe(422);
      await new Promise((r) => setTimeout(r, 50));
      expect(received).toHaveLength(2);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
