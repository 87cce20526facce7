// The gp create wizard driven through a real pseudo-terminal (util-linux
// `script`) with keystrokes, against the sandbox: typing, arrow keys, Enter,
// space in a multi-select, a refused date, SIGINT mid-wizard and --resume.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { BACKSPACE, DOWN, ENTER, hasScript, Pty, SPACE } from '../helpers/pty.js';

const IND = 'Acme India Pvt Ltd';
const ESC = '\x1b';

let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
/** A second config home, so no draft of another test is offered. */
let dir2: { path: string; cleanup: () => void };
let env2: NodeJS.ProcessEnv;
const ptys: Pty[] = [];
const pty = (args: string[], e: NodeJS.ProcessEnv = env) => {
  const p = new Pty(args, e);
  ptys.push(p);
  return p;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm' });
  dir2 = tempDir();
  env2 = isolatedEnv(dir2.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm' });
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await sandbox.close();
  dir.cleanup();
  dir2.cleanup();
});

const draftsDir = () => join(dir.path, 'config', 'drafts');

describe.skipIf(!hasScript)('gp create wizard through a pseudo-terminal', () => {
  it('walks every section with keystrokes, refuses a bad date, honours conditionals, masks secrets, and creates the employee', async () => {
    const p = pty(['gp', 'create', '--entity', IND]);
    await p.answer(/\? First name/, `Priya${ENTER}`);
    await p.answer(/\? Middle name \(optional\)/, ENTER);
    await p.answer(/\? Last name/, `Sharma${ENTER}`);
    await p.answer(/\? Date of birth \[YYYY-MM-DD\]/, `1992-02-30${ENTER}`);
    await p.expect(/Date of birth has no day 30: February 1992 has 29 days/);
    p.send(`${BACKSPACE.repeat(2)}15${ENTER}`);
    await p.answer(/\? Gender/, `${DOWN}${DOWN}${ENTER}`); // Non-binary
    await p.answer(/\? Marital status \(optional\)/, ENTER);
    await p.answer(/\? Nationality/, `IND${ENTER}`);
    await p.answer(/\? Personal e-mail/, `priya@example.org${ENTER}`);
    await p.answer(/\? Personal phone number/, `+91 98765 43210${ENTER}`);
    await p.answer(/\? Emergency contact name \(optional\)/, ENTER);
    await p.answer(/\? Emergency contact phone \(optional\)/, ENTER);
    await p.answer(/\? Relationship to the emergency contact \(optional\)/, ENTER);
    await p.answer(/\? Fill in Home address\? \(optional\)/, `n${ENTER}`);
    await p.answer(/\? Work e-mail/, `priya.sharma@acme.example${ENTER}`);
    await p.answer(/\? Start date/, `2025-10-01${ENTER}`);
    await p.answer(/\? Job title/, `Data Scientist${ENTER}`);
    await p.answer(/\? Department/, `${DOWN}${DOWN}${ENTER}`); // Data
    await p.answer(/\? Employee type/, ENTER);
    await p.answer(/\? Contract term/, `${DOWN}${ENTER}`); // Fixed term -> end date appears
    await p.answer(/\? Contract end date \[YYYY-MM-DD\]/, `2026-09-30${ENTER}`);
    await p.answer(/\? Weekly working hours \(optional\)/, ENTER); // left empty: not sent (40 is only suggested)
    await p.answer(/\? Probation period \(months\) \(optional\)/, `9${ENTER}`);
    await p.expect(/must be at most 6/);
    p.send(`${BACKSPACE}3${ENTER}`);
    await p.answer(/\? Works remotely \(optional\)/, `y${ENTER}`); // typing jumps to "Yes"
    await p.answer(/\? Fill in Relocation support\? \(optional\)/, `n${ENTER}`);
    await p.answer(/\? Annual gross base salary \[INR\]/, `1800000${ENTER}`);
    await p.answer(/\? Currency/, ENTER);
    await p.answer(/\? Pay frequency/, ENTER);
    await p.answer(/\? Signing bonus \(optional\)/, ENTER); // left empty -> amount never asked
    await p.answer(/\? Fill in Salary bank account\? \(optional\)/, ENTER);
    await p.answer(/\? Account holder/, `Priya Sharma${ENTER}`);
    await p.answer(/\? Account number/, `123456789012${ENTER}`);
    await p.answer(/\? IFSC/, `HDFC0001234${ENTER}`);
    await p.answer(/\? Bank name \(optional\)/, ENTER);
    await p.answer(/\? Account type \(optional\)/, `${DOWN}${DOWN}${ENTER}`); // Current (below "(leave empty)")
    await p.answer(/\? PAN/, `PQRST6789K${ENTER}`);
    await p.answer(/\? Aadhaar number \(optional\)/, ENTER);
    await p.answer(/\? Income tax regime/, `${DOWN}${ENTER}`); // Old
    await p.answer(/\? Enrol in Provident Fund \(EPF\)/, `y${ENTER}`); // -> UAN required
    await p.answer(/\? Universal Account Number \(UAN\)/, `100200300400${ENTER}`);
    await p.answer(/\? Add nominee\?/, `y${ENTER}`);
    await p.answer(/\? Nominee name/, `Ravi Sharma${ENTER}`);
    await p.answer(/\? Relationship/, `${DOWN}${ENTER}`); // PARENT
    await p.answer(/\? Share \(%\)/, `100${ENTER}`);
    await p.answer(/\? Add another entry to EPF nominees\?/, ENTER);
    await p.answer(/\? Cost center/, `CC-7777${ENTER}`);
    await p.answer(/\? Laptop \(optional\)/, `${DOWN}${DOWN}${DOWN}${ENTER}`); // Linux
    await p.answer(/\? Working languages \(optional\)/, `${SPACE}${DOWN}${DOWN}${DOWN}${DOWN}${SPACE}${ENTER}`); // EN, HI
    await p.answer(/\? T-shirt size \(optional\)/, `${DOWN}${DOWN}${DOWN}${ENTER}`); // M
    await p.expect(/Review your answers/);
    await p.expect(/Account number: \*{8}/);
    await p.answer(/\? What next\?/, ENTER); // Submit
    await p.expect(/Created (ACME-\d+) \(ONBOARDING\)/);
    const code = await p.done;
    expect(code).toBe(0);
    expect(p.out).not.toContain('PQRST6789K');
    expect(p.out).not.toContain('123456789012');
    const employeeCode = /Created (ACME-\d+)/.exec(p.out)![1];

    const list = await runCli(['employees', 'list', '--employee-code', employeeCode, '-o', 'json'], { env });
    expect(list.code).toBe(0);
    const [e] = JSON.parse(list.stdout).data;
    expect(e).toMatchObject({ firstName: 'Priya', lastName: 'Sharma', workEmail: 'priya.sharma@acme.example', status: 'ONBOARDING', entity: IND, designation: 'Data Scientist' });
    const employment = (await (await fetch(`${sandbox.url}/v1/employees/${e.id}/employment`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } })).json()) as Record<string, unknown>;
    expect(employment).toMatchObject({ term: 'FIXED_TERM', endDate: '2026-09-30', department: 'Data' });
    // Weekly hours left empty is not sent (its default 40 was only suggested); "Works remotely" answered Yes is.
    const post = sandbox.requests.find((r) => r.method === 'POST' && r.status === 201 && (r.body as { employment?: { workEmail?: string } }).employment?.workEmail === 'priya.sharma@acme.example');
    expect((post?.body as { employment: object }).employment).toEqual({ workEmail: 'priya.sharma@acme.example', startDate: '2025-10-01', designation: 'Data Scientist', department: 'Data', type: 'EMPLOYEE', term: 'FIXED_TERM', endDate: '2026-09-30', probationMonths: 3, remoteWork: true });
    expect((post?.body as { compensation: object }).compensation).toEqual({ baseSalary: 1800000, currency: 'INR', payFrequency: 'MONTHLY' });
    expect(sandbox.requests.filter((r) => r.method === 'PATCH' && r.path === `/v1/employees/${e.id}/dynamic-details`).map((r) => r.status)).toEqual([204]);
    expect(existsSync(draftsDir()) ? readdirSync(draftsDir()) : []).toEqual([]);
  }, 60_000);

  it('SIGINT mid-wizard keeps the draft (exit 130); --resume continues at the next question; Ctrl-C there keeps it too', async () => {
    const p = pty(['gp', 'create', '--entity', IND]);
    await p.answer(/\? First name/, `Meera${ENTER}`);
    await p.answer(/\? Middle name \(optional\)/, ENTER);
    await p.answer(/\? Last name/, `Iyer${ENTER}`);
    await p.expect(/\? Date of birth/);
    process.kill(p.cliPid(), 'SIGINT');
    await p.expect(/Your answers are saved\. Continue with:\n {2}partner gp create --entity "Acme India Pvt Ltd" --resume/);
    expect(await p.done).toBe(130);
    const files = readdirSync(draftsDir());
    expect(files).toHaveLength(1);
    const draft = JSON.parse(readFileSync(join(draftsDir(), files[0]), 'utf8'));
    expect(draft.answers).toEqual({ personal: { firstName: 'Meera', lastName: 'Iyer' } });

    const r = pty(['gp', 'create', '--entity', IND, '--resume']);
    await r.expect(/Resuming the draft/);
    await r.answer(/\? Date of birth/, `1988-08-08${ENTER}`);
    expect(r.out).not.toMatch(/\? First name/);
    await r.answer(/\? Gender/, ENTER);
    await r.expect(/\? Marital status/);
    r.send('\x03'); // Ctrl-C as a keystroke
    expect(await r.done).toBe(130);
    const after = JSON.parse(readFileSync(join(draftsDir(), files[0]), 'utf8'));
    expect(after.answers).toEqual({ personal: { firstName: 'Meera', lastName: 'Iyer', dateOfBirth: '1988-08-08', gender: 'FEMALE' } });
  }, 60_000);

  it('an optional object left empty, Esc back, a grouped salary, removing a list entry and filtering the change list: exact POST and PATCH bodies', async () => {
    const p = pty(['gp', 'create', '--entity', IND], env2);
    await p.answer(/\? First name/, `Asha${ENTER}`);
    await p.answer(/\? Middle name \(optional\)/, ENTER);
    await p.answer(/\? Last name/, `Rao${ENTER}`);
    await p.answer(/\? Date of birth/, `1990-05-05${ENTER}`);
    await p.answer(/\? Gender/, ENTER); // Female
    await p.answer(/\? Marital status \(optional\)/, ENTER); // (leave empty)
    await p.answer(/\? Nationality/, ESC); // back one question
    await p.answer(/\? Marital status \(optional\)/, `${DOWN}${DOWN}${ENTER}`); // Married
    await p.answer(/\? Nationality/, `IND${ENTER}`);
    await p.answer(/\? Personal e-mail/, `asha@example.org${ENTER}`);
    await p.answer(/\? Personal phone number/, `+91 98765 43211${ENTER}`);
    await p.answer(/\? Emergency contact name \(optional\)/, ENTER);
    await p.answer(/\? Emergency contact phone \(optional\)/, ENTER);
    await p.answer(/\? Relationship to the emergency contact \(optional\)/, ENTER);
    await p.answer(/\? Fill in Home address\? \(optional\)/, `n${ENTER}`);
    await p.answer(/\? Work e-mail/, `asha.rao@acme.example${ENTER}`);
    await p.answer(/\? Start date/, `2025-11-03${ENTER}`);
    await p.answer(/\? Job title/, `Analyst${ENTER}`);
    await p.answer(/\? Department/, ENTER); // Engineering
    await p.answer(/\? Employee type/, ENTER);
    await p.answer(/\? Contract term/, ENTER); // Permanent
    await p.answer(/\? Weekly working hours \(optional\)/, ENTER);
    await p.answer(/\? Probation period \(months\) \(optional\)/, ENTER);
    await p.answer(/\? Works remotely \(optional\)/, ENTER); // left empty: not sent
    await p.expect(/Relocation support\nOnly when the employee moves city for the job\./);
    await p.answer(/\? Fill in Relocation support\? \(optional\)/, `n${ENTER}`); // the optional object holding a yes/no, left empty
    await p.answer(/\? Annual gross base salary \[INR\]/, `24,00,000${ENTER}`);
    await p.answer(/\? Currency/, ENTER);
    await p.answer(/\? Pay frequency/, ENTER);
    await p.answer(/\? Signing bonus \(optional\)/, ENTER);
    await p.answer(/\? Fill in Salary bank account\? \(optional\)/, `n${ENTER}`);
    await p.answer(/\? PAN/, `FGHIJ5678K${ENTER}`);
    await p.answer(/\? Aadhaar number \(optional\)/, ENTER);
    await p.answer(/\? Income tax regime/, ENTER); // New
    await p.answer(/\? Enrol in Provident Fund \(EPF\)/, `n${ENTER}`);
    await p.answer(/\? Add nominee\?/, `y${ENTER}`);
    await p.answer(/\? Nominee name/, `Arun Rao${ENTER}`);
    await p.answer(/\? Relationship/, ENTER); // SPOUSE
    await p.answer(/\? Share \(%\)/, `50${ENTER}`);
    await p.answer(/\? Add another entry to EPF nominees\? \(1 so far\)/, `${DOWN}${ENTER}`); // Yes, add another
    await p.answer(/\? Nominee name/, `Lata Rao${ENTER}`);
    await p.answer(/\? Relationship/, `${DOWN}${ENTER}`); // PARENT
    await p.answer(/\? Share \(%\)/, `50${ENTER}`);
    await p.answer(/\? Add another entry to EPF nominees\? \(2 so far\)/, `${DOWN}${DOWN}${ENTER}`); // Remove an entry…
    await p.answer(/\? Remove which entry of EPF nominees\?/, ENTER); // #1 Arun Rao, SPOUSE, 50
    await p.expect(/Removed EPF nominees #1; the entries after it moved up\./);
    await p.answer(/\? Add another entry to EPF nominees\? \(1 so far\)/, ENTER); // No, continue
    await p.answer(/\? Cost center/, `CC-4321${ENTER}`);
    await p.answer(/\? Laptop \(optional\)/, ENTER);
    await p.answer(/\? Working languages \(optional\)/, ENTER);
    await p.answer(/\? T-shirt size \(optional\)/, ENTER);
    await p.expect(/Review your answers/);
    await p.expect(/Relocation support: left empty/);
    await p.expect(/Annual gross base salary: 2 400 000 INR/); // grouped by spaces, with the currency
    await p.expect(/EPF nominees #1\n +Nominee name: Lata Rao/);
    await p.answer(/\? What next\?/, `${DOWN}${ENTER}`); // Change an answer
    await p.answer(/\? Which answer\? \(type to filter\)/, 'job title');
    await p.expect(/Employment terms › Job title: Analyst/);
    await new Promise((r) => setTimeout(r, 300));
    p.send(ENTER);
    await p.answer(/\? Job title/, `Senior Analyst${ENTER}`);
    await p.expect(/Job title: Senior Analyst/);
    await p.answer(/\? What next\?/, ENTER); // Submit
    await p.expect(/Created (ACME-\d+) \(ONBOARDING\)/);
    expect(await p.done).toBe(0);

    const posts = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/employees/gp-employments' && r.status === 201);
    const post = posts.find((r) => (r.body as { employment?: { workEmail?: string } }).employment?.workEmail === 'asha.rao@acme.example');
    expect(post?.body).toEqual({
      entity: IND,
      personal: { firstName: 'Asha', lastName: 'Rao', dateOfBirth: '1990-05-05', gender: 'FEMALE', maritalStatus: 'MARRIED', nationality: 'IND' },
      contact: { personalEmail: 'asha@example.org', personalPhoneNumber: '+91 98765 43211' },
      employment: { workEmail: 'asha.rao@acme.example', startDate: '2025-11-03', designation: 'Senior Analyst', department: 'Engineering', type: 'EMPLOYEE', term: 'PERMANENT' },
      compensation: { baseSalary: 2400000, currency: 'INR', payFrequency: 'MONTHLY' },
    });
    const patch = sandbox.requests.find((r) => r.method === 'PATCH' && r.at >= post!.at && /\/dynamic-details$/.test(r.path));
    expect(patch?.status).toBe(204);
    expect(patch?.body).toEqual({ legal: { pan: 'FGHIJ5678K', taxRegime: 'NEW', pfOptIn: false, nominees: [{ name: 'Lata Rao', relationship: 'PARENT', sharePercent: 50 }] }, customFields: { costCenter: 'CC-4321' } });
    expect(p.out).not.toContain('FGHIJ5678K');
  }, 60_000);
});
