import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let employees: { id: string; employeeCode: string; fullName: string }[];

const SECTIONS = ['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation'];

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
  const list = await runMain(['employees', 'list', '--page-size', '5', '-o', 'json'], { env });
  employees = JSON.parse(list.stdout).data;
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('profile get', () => {
  it('shows all seven sections of an employee by code as JSON keyed by section, with every field of the spec', async () => {
    const e = employees[0];
    const r = await runMain(['profile', 'get', e.employeeCode, '-o', 'json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['id', ...SECTIONS]);
    expect(doc.id).toBe(e.id);
    expect(Object.keys(doc.personal)).toEqual(expect.arrayContaining(['firstName', 'middleName', 'lastName', 'fullLegalName', 'dateOfBirth', 'gender', 'maritalStatus', 'age', 'religion', 'nationalities']));
    expect(Object.keys(doc.contact)).toEqual(expect.arrayContaining(['personalEmail', 'personalPhoneNumber', 'emergencyContact']));
    expect(Object.keys(doc.address)).toEqual(expect.arrayContaining(['currentAddress', 'permanentAddress']));
    expect(Object.keys(doc.bank)).toEqual(expect.arrayContaining(['accountNumber', 'accountHolderName', 'bankName', 'branchName', 'swiftCode', 'localBankCode', 'accountType', 'currency', 'country']));
    expect(Array.isArray(doc.education)).toBe(true);
    expect(Object.keys(doc.education[0])).toEqual(expect.arrayContaining(['lastSchoolAttended', 'degree', 'yearOfPassing', 'grade', 'gpa']));
    expect(doc.employment.employeeCode).toBe(e.employeeCode);
    expect(Object.keys(doc.employment)).toEqual(expect.arrayContaining(['noticePeriod', 'reportsTo', 'term', 'entity']));
    expect(typeof doc.compensation).toBe('object');
    // The full account number in JSON: it is for scripts.
    expect(doc.bank.accountNumber).not.toMatch(/\*/);
  });

  it('takes the id as well, and only the sections named', async () => {
    const e = employees[1];
    const r = await runMain(['profile', 'get', e.id, 'employment', 'personal', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['id', 'employment', 'personal']);
    expect(doc.employment.employeeCode).toBe(e.employeeCode);
    const paths = sandbox.requests.filter((q) => q.path.startsWith(`/v1/employees/${e.id}/`)).map((q) => q.path.split('/').pop());
    expect(paths.sort()).toEqual(['employment', 'personal']);
  });

  it('renders a readable table with sub-blocks, dashes for null, and the account number masked unless --reveal', async () => {
    const e = employees[0];
    const json = JSON.parse((await runMain(['profile', 'get', e.id, 'bank', 'employment', 'personal', '-o', 'json'], { env })).stdout);
    const account: string = json.bank.accountNumber;
    const r = await runMain(['profile', 'get', e.employeeCode, '-o', 'table'], { env });
    expect(r.code).toBe(0);
    for (const s of SECTIONS) expect(r.stdout).toMatch(new RegExp(`^${s}$`, 'm'));
    expect(r.stdout).toContain(e.employeeCode);
    // human labels instead of raw camelCase keys.
    expect(r.stdout).toMatch(/^ {2}Reports to:$/m);
    expect(r.stdout).toMatch(/^ {4}First name +\S/m);
    expect(r.stdout).toMatch(/^ {2}Nationalities:$/m);
    expect(r.stdout).toMatch(/^ {2}Middle name +-$/m);
    expect(r.stdout).toContain(`****${account.slice(-4)}`);
    expect(r.stdout).not.toContain(account);
    const revealed = await runMain(['profile', 'get', e.employeeCode, 'bank', '-o', 'table', '--reveal'], { env });
    expect(revealed.code).toBe(0);
    expect(revealed.stdout).toMatch(new RegExp(`Account number +${account}$`, 'm'));
  });

  it('exports several employees as CSV with dot-path columns for every spec field', async () => {
    const [a, b] = employees;
    const r = await runMain(['profile', 'get', a.employeeCode, b.id, '-o', 'csv'], { env });
    expect(r.code).toBe(0);
    const rows: Record<string, string>[] = parseCsv(r.stdout, { columns: true });
    expect(rows.map((x) => x.id)).toEqual([a.id, b.id]);
    const header = Object.keys(rows[0]);
    for (const col of ['id', 'personal.firstName', 'personal.nationalities.0.country', 'contact.emergencyContact.relationship', 'address.currentAddress.city', 'address.permanentAddress.postalCode', 'bank.accountNumber', 'bank.swiftCode', 'education.0.degree', 'education.0.gpa', 'employment.noticePeriod.unit', 'employment.reportsTo.lastName', 'employment.employeeCode']) {
      expect(header).toContain(col);
    }
    expect(header.some((h) => h.startsWith('compensation.'))).toBe(true);
    expect(rows[0]['employment.employeeCode']).toBe(a.employeeCode);
    expect(rows[0]['bank.accountNumber']).not.toMatch(/\*/);
  });

  it('NDJSON: one flat record per employee; --fields picks dot paths', async () => {
    const [a, b, c] = employees;
    const file = join(dir.path, 'refs.txt');
    writeFileSync(file, `# employees\n${a.employeeCode}\n\n${b.id}\n`);
    const r = await runMain(['profile', 'get', '--from-file', file, 'personal', 'address', '-o', 'ndjson', '--fields', 'id,personal.lastName,address.currentAddress.city'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([a.id, b.id]);
    expect(Object.keys(lines[0])).toEqual(['id', 'personal.lastName', 'address.currentAddress.city']);
    const stdin = await runMain(['profile', 'get', '--from-file', '-', 'personal', '-o', 'ndjson'], { env, input: `${c.employeeCode}\n${a.id}\n` });
    expect(stdin.code).toBe(0);
    const recs = stdin.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((l) => l.id)).toEqual([c.id, a.id]);
    expect(recs[0]['personal.firstName']).toEqual(expect.any(String));
  });

  it('-q prints the ids of the employees, one per line', async () => {
    const [a, b] = employees;
    const r = await runMain(['profile', 'get', a.employeeCode, b.employeeCode, 'personal', '-q'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${a.id}\n${b.id}\n`);
  });

  it('an unknown code exits 5 with a clear message; the others are still shown', async () => {
    const r = await runMain(['profile', 'get', 'ACME-99999', 'personal', '-o', 'json'], { env });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    // -o json: the error is one JSON line on stderr.
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'EMPLOYEE_NOT_FOUND', employee: 'ACME-99999', exitCode: 5 });
    expect(JSON.parse(r.stderr).error.message).toContain('No employee with code "ACME-99999"');
    const mixed = await runMain(['profile', 'get', employees[0].employeeCode, 'NOPE-1', 'personal', '-o', 'json'], { env });
    expect(mixed.code).toBe(5);
    expect(JSON.parse(mixed.stdout).map((d: { id: string }) => d.id)).toEqual([employees[0].id]);
    expect(mixed.stderr).toContain('NOPE-1');
  });

  it("another company's employee is not found (404, exit 5)", async () => {
    const other = await runMain(['employees', 'list', '--page-size', '1', '-o', 'json'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.companyB } });
    const b = JSON.parse(other.stdout).data[0];
    // -o table: the text block (piped, the error would be JSON: ).
    const byId = await runMain(['profile', 'get', b.id, '-o', 'table'], { env });
    expect(byId.code).toBe(5);
    expect(byId.stderr).toContain(`No employee with id "${b.id}"`);
    expect(byId.stderr.match(/Error:/g)).toHaveLength(1);
    const byCode = await runMain(['profile', 'get', b.employeeCode, 'personal'], { env });
    expect(byCode.code).toBe(5);
  });

  it('validates sections and arguments before sending anything (exit 2)', async () => {
    const before = sandbox.requests.length;
    for (const args of [['ACME-00001', 'bnk'], ['ACME-00001', 'personal', 'salary'], ['personal'], [], ['--from-file', join(dir.path, 'missing.txt')], ['ACME-00001', '--concurrency', '0'], ['ACME-00001', '-o', 'csv', '--jq', '.']]) {
      const r = await runMain(['profile', 'get', ...args], { env });
      expect(r.code, args.join(' ')).toBe(2);
      // Piped: the error is one JSON object when the data would be JSON, else the text block.
      expect(r.stderr).toMatch(/^Error: |^\{"error":\{"code":"\w+"/m);
    }
    const r = await runMain(['profile', 'get', 'ACME-00001', 'bnk'], { env });
    expect(r.stderr).toContain('did you mean bank?');
    expect(r.stderr).toContain('personal, contact, address, bank, education, employment, compensation');
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('profile get with a failing section', () => {
  let faulty: Sandbox;
  beforeAll(async () => {
    faulty = await startSandbox({});
    faulty.setFaults({ retryAfterSeconds: 0 });
    faulty.injectFault({ kind: '503', times: Infinity, path: /\/compensation$/ });
  });
  afterAll(() => faulty.close());

  it('still shows the other sections, reports the failure per section on stderr, and exits 1', async () => {
    const fenv = { ...env, PARTNER_BASE_URL: faulty.url };
    const e = employees[0];
    const r = await runMain(['profile', 'get', e.employeeCode, '-o', 'json'], { env: fenv });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['id', 'personal', 'contact', 'address', 'bank', 'education', 'employment']);
    // -o json: one JSON line per failed section, naming employee and section.
    expect(JSON.parse(r.stderr).error).toMatchObject({ employee: e.employeeCode, section: 'compensation', status: 503 });
    const table = await runMain(['profile', 'get', e.employeeCode, '-o', 'table'], { env: fenv });
    expect(table.code).toBe(1);
    expect(table.stderr).toContain(`${e.employeeCode}: section compensation`);
    expect(table.stderr).toContain('503');
    expect(table.stdout).toMatch(/^employment$/m);
    expect(table.stdout).not.toMatch(/^compensation$/m);
  });
});
