import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, expectErrorShape } from './helpers.js';

let s: Sandbox;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let employees: any[];
beforeAll(async () => {
  s = await startSandbox();
  employees = (await call(s, '/v1/employees?pageSize=100')).body.data;
});
afterAll(async () => {
  await s.close();
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const A3 = /^[A-Z]{3}$/;
const keys = (o: object) => Object.keys(o).sort();

function checkAddress(a: Record<string, unknown>) {
  expect(keys(a)).toEqual(['addressLine1', 'addressLine2', 'city', 'country', 'landmark', 'postalCode', 'streetName', 'subdivision']);
  for (const k of ['addressLine1', 'streetName', 'city', 'subdivision', 'postalCode']) expect(typeof a[k]).toBe('string');
  for (const k of ['addressLine2', 'landmark']) expect(a[k] === null || typeof a[k] === 'string').toBe(true);
  expect(a.country).toMatch(A3);
}

describe('profile sections', () => {
  it('personal', async () => {
    for (const e of employees.slice(0, 10)) {
      const p = (await call(s, `/v1/employees/${e.id}/personal`)).body;
      expect(keys(p)).toEqual(['age', 'dateOfBirth', 'firstName', 'fullLegalName', 'gender', 'lastName', 'maritalStatus', 'middleName', 'nationalities', 'religion']);
      expect(p.firstName).toBe(e.firstName);
      expect(p.lastName).toBe(e.lastName);
      expect(p.middleName).toBe(e.middleName);
      expect(p.dateOfBirth).toMatch(DATE);
      expect(Number.isInteger(p.age) && p.age >= 18 && p.age < 70).toBe(true);
      expect(p.nationalities.length).toBeGreaterThan(0);
      for (const n of p.nationalities) {
        expect(n.country).toMatch(A3);
        expect(typeof n.type).toBe('string');
      }
    }
  });

  it('contact', async () => {
    const c = (await call(s, `/v1/employees/${employees[0].id}/contact`)).body;
    expect(keys(c)).toEqual(['emergencyContact', 'personalEmail', 'personalPhoneNumber']);
    expect(c.personalEmail).toMatch(/@/);
    expect(c.personalPhoneNumber).toMatch(/^\+\d[\d ]+$/);
    expect(keys(c.emergencyContact)).toEqual(['name', 'phoneNumber', 'relationship']);
  });

  it('address', async () => {
    const a = (await call(s, `/v1/employees/${employees[1].id}/address`)).body;
    expect(keys(a)).toEqual(['currentAddress', 'permanentAddress']);
    checkAddress(a.currentAddress);
    checkAddress(a.permanentAddress);
  });

  it('bank: IBAN-like account numbers for German employees, IFSC for Indian ones', async () => {
    const de = employees.find((e) => e.country === 'DEU');
    const ind = employees.find((e) => e.country === 'IND');
    const b = (await call(s, `/v1/employees/${de.id}/bank`)).body;
    expect(keys(b)).toEqual(['accountHolderName', 'accountNumber', 'accountType', 'bankName', 'branchName', 'country', 'currency', 'localBankCode', 'swiftCode']);
    expect(b.accountNumber).toMatch(/^DE\d{20}$/);
    expect(b.currency).toBe('EUR');
    expect(b.country).toBe('DEU');
    expect(b.swiftCode).toMatch(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/);
    const i = (await call(s, `/v1/employees/${ind.id}/bank`)).body;
    expect(i.localBankCode).toMatch(/^[A-Z]{4}0[A-Z0-9]{6}$/);
    expect(i.currency).toBe('INR');
  });

  it('education: an array, with a null gpa somewhere', async () => {
    let sawNull = false;
    for (const e of employees) {
      const ed = (await call(s, `/v1/employees/${e.id}/education`)).body;
      expect(keys(ed)).toEqual(['education']);
      expect(ed.education.length).toBeGreaterThan(0);
      for (const x of ed.education) {
        expect(keys(x)).toEqual(['degree', 'gpa', 'grade', 'lastSchoolAttended', 'yearOfPassing']);
        expect(Number.isInteger(x.yearOfPassing)).toBe(true);
        expect(x.gpa === null || typeof x.gpa === 'number').toBe(true);
        if (x.gpa === null) sawNull = true;
      }
    }
    expect(sawNull).toBe(true);
  });

  it('employment', async () => {
    const e = employees[7];
    const m = (await call(s, `/v1/employees/${e.id}/employment`)).body;
    expect(keys(m)).toEqual(['country', 'department', 'designation', 'employeeCode', 'endDate', 'entity', 'noticePeriod', 'reportsTo', 'startDate', 'status', 'term', 'type', 'workEmail']);
    for (const k of ['employeeCode', 'workEmail', 'entity', 'country', 'startDate', 'status', 'endDate', 'designation', 'department', 'type']) expect(m[k]).toEqual(e[k]);
    expect(keys(m.noticePeriod)).toEqual(['unit', 'value']);
    expect(typeof m.noticePeriod.value).toBe('string');
    expect(keys(m.reportsTo)).toEqual(['designation', 'firstName', 'id', 'lastName']);
    const boss = employees.find((x) => x.id === m.reportsTo.id);
    expect(boss).toBeDefined();
    expect(m.reportsTo.firstName).toBe(boss.firstName);
  });

  it('compensation: nested base salary, pay frequency and allowances', async () => {
    const c = (await call(s, `/v1/employees/${employees[2].id}/compensation`)).body;
    expect(c.baseSalary).toEqual({ amount: expect.any(Number), currency: 'EUR', period: 'ANNUAL' });
    expect(typeof c.payFrequency).toBe('string');
    expect(Array.isArray(c.allowances)).toBe(true);
  });

  it('unknown id -> 404, malformed id -> 422 with details', async () => {
    expectErrorShape(await call(s, '/v1/employees/00000000-0000-4000-8000-000000000000/personal'), 404, 'NOT_FOUND');
    const b = expectErrorShape(await call(s, '/v1/employees/not-a-uuid/bank'), 422, 'VALIDATION_ERROR');
    expect(b.error.details).toEqual([{ field: 'employeeId', message: expect.any(String) }]);
  });
});
