import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { COMPANY_A } from '../../../src/sandbox/companies.js';
import { EmployeeGenerator } from '../../../src/sandbox/data.js';
import { permute32, unpermute32 } from '../../../src/sandbox/prng.js';
import { iban } from '../../../src/sandbox/countries.js';
import { call } from './helpers.js';

let s: Sandbox;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let firstPage: any[];
beforeAll(async () => {
  s = await startSandbox();
  firstPage = (await call(s, '/v1/employees')).body.data;
});
afterAll(async () => {
  await s.close();
});

const textOf = (e: Record<string, unknown>) => Object.values(e).filter((v) => typeof v === 'string') as string[];

describe('adversarial values on the first page of company A', () => {
  it('names with commas, double quotes and embedded newlines', () => {
    const names = firstPage.flatMap((e) => [e.firstName, e.middleName, e.lastName, e.fullName, e.displayName].filter(Boolean));
    expect(names.some((n: string) => n.includes(','))).toBe(true);
    expect(names.some((n: string) => n.includes('"'))).toBe(true);
    expect(names.some((n: string) => n.includes('\n'))).toBe(true);
  });

  it('non-ASCII letters', () => {
    const first = firstPage.map((e) => e.firstName);
    for (const n of ['José', 'Zoë', 'Łukasz']) expect(first).toContain(n);
    expect(firstPage.map((e) => e.lastName)).toContain('李');
  });

  it('cells that spreadsheets would run as formulas', () => {
    const cells = firstPage.flatMap((e) => [e.department, e.designation]);
    for (const c of ['=', '+', '-', '@']) expect(cells.some((v: string) => v.startsWith(c))).toBe(true);
    expect(cells).toContain('=HYPERLINK("http://x")');
  });

  it('terminal escape sequences (CSI and OSC)', () => {
    const all = firstPage.flatMap(textOf);
    expect(all.some((v) => v.includes('\u001b[31m') && v.includes('\u001b[0m'))).toBe(true);
    expect(all.some((v) => v.includes('\u001b]0;') && v.includes('\u0007'))).toBe(true);
  });

  it('the adversarial employees have profile sections too', async () => {
    const jose = firstPage.find((e) => e.firstName === 'José');
    const addr = (await call(s, `/v1/employees/${jose.id}/address`)).body;
    expect(addr.currentAddress.addressLine2).toContain('\n');
    expect((await call(s, `/v1/employees/${jose.id}/personal`)).body.nationalities[0].country).toBe('ESP');
  });
});

describe('determinism', () => {
  it('same seed, same data; another seed, other data', async () => {
    const [a, b, c] = await Promise.all([startSandbox({ seed: 7 }), startSandbox({ seed: 7 }), startSandbox({ seed: 8 })]);
    try {
      const pa = (await call(a, '/v1/employees?pageSize=100')).body.data;
      const pb = (await call(b, '/v1/employees?pageSize=100')).body.data;
      const pc = (await call(c, '/v1/employees?pageSize=100')).body.data;
      expect(pa).toEqual(pb);
      expect(pc.map((e: { id: string }) => e.id)).not.toEqual(pa.map((e: { id: string }) => e.id));
      for (const section of ['personal', 'bank', 'compensation']) {
        expect((await call(a, `/v1/employees/${pa[9].id}/${section}`)).body).toEqual((await call(b, `/v1/employees/${pb[9].id}/${section}`)).body);
      }
      expect((await call(a, '/v1/employees/offboarding-tracker')).body).toEqual((await call(b, '/v1/employees/offboarding-tracker')).body);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('the first employees do not depend on the company size', () => {
    const small = new EmployeeGenerator(COMPANY_A, 1, 45);
    const big = new EmployeeGenerator(COMPANY_A, 1, 1000);
    expect(big.core(3).item.id).toBe(small.core(3).item.id);
    expect(big.core(3).item.fullName).toBe(small.core(3).item.fullName);
  });
});

describe('building blocks', () => {
  it('permute32 is a bijection with an inverse', () => {
    for (const key of [0, 1, 0xdeadbeef]) {
      for (const i of [0, 1, 2, 44, 45, 199_999, 2 ** 31, 2 ** 32 - 1]) expect(unpermute32(permute32(i, key), key)).toBe(i);
    }
  });

  it('ids, codes and e-mails resolve back to their index', () => {
    const g = new EmployeeGenerator(COMPANY_A, 3, 500);
    for (const i of [0, 17, 499]) {
      const e = g.core(i).item;
      expect(g.indexOfId(e.id)).toBe(i);
      expect(g.indexOfCode(e.employeeCode)).toBe(i);
      expect(g.indexOfEmail(e.workEmail)).toBe(i);
    }
    expect(g.indexOfCode('ACME-0001')).toBeUndefined();
    expect(g.indexOfCode('GLX-0001')).toBeUndefined();
  });

  it('IBANs have valid check digits', () => {
    expect(iban('DE', '370400440532013000')).toBe('DE89370400440532013000');
  });

  it('start dates never decrease with the index', () => {
    const g = new EmployeeGenerator(COMPANY_A, 1, 10_000);
    let decreases = 0;
    for (let i = 1; i < 10_000; i++) if (g.startDayOf(i) < g.startDayOf(i - 1)) decreases++;
    expect(decreases).toBe(0);
  });
});
