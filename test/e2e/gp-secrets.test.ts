// Secrets through a real pseudo-terminal: the India form marks PAN with
// maskSecret: true and Aadhaar with maskSecret: 2 (a number, as reference
// forms do). Neither is echoed while typing, shown on the review or in the
// change list, nor stored in the draft; a resume says so and asks them again,
// and the PATCH the sandbox receives carries them. Then the wizard over the
// sandbox's field-definition-list form (Acme Sverige AB), and --body-file's
// question on a terminal.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv } from '../helpers/cli.js';
import { DOWN, ENTER, hasScript, Pty } from '../helpers/pty.js';

const PAN = 'PQRST6789K';
const AADHAAR = '987654321098';

let sandbox: Sandbox;
let dir: { path: string };
let close: () => Promise<void>;
let env: NodeJS.ProcessEnv;
const ptys: Pty[] = [];
const pty = (args: string[]) => {
  const p = new Pty(args, env);
  ptys.push(p);
  return p;
};

beforeAll(async () => {
  let path: string;
  ({ sandbox, env, dir: path, close } = await sandboxEnv({ TERM: 'xterm' }));
  dir = { path };
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await close();
});

const draftsDir = () => join(dir.path, 'config', 'drafts');

/** The n-th employee of Acme India Pvt Ltd, whose form has the two secrets (each test takes its own). */
async function indiaEmployee(n: number): Promise<{ id: string; employeeCode: string }> {
  const page = await fetch(`${sandbox.url}/v1/employees?pageSize=100`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } });
  return ((await page.json()) as { data: { id: string; employeeCode: string; entity: string }[] }).data.filter((e) => e.entity === 'Acme India Pvt Ltd')[n]!;
}

/** Types PAN and the Aadhaar number at their masked prompts, a key at a time. */
async function typeSecrets(p: Pty): Promise<void> {
  await p.expect(/\? PAN/);
  await p.type(PAN);
  await p.expect(/\? Aadhaar number \(optional\)/);
  await p.type(AADHAAR);
}

describe.skipIf(!hasScript)('secret answers through a pseudo-terminal', () => {
  it('masks PAN and Aadhaar (maskSecret: 2) while typing, on the review and in the change list; the draft never holds them; resume asks them again', async () => {
    const employee = await indiaEmployee(0);

    const p = pty(['dynamic-details', 'submit', employee.employeeCode]);
    await typeSecrets(p);
    await p.answer(/\? Income tax regime/, ENTER);
    await p.expect(/\? Enrol in Provident Fund/);
    process.kill(p.cliPid(), 'SIGINT');
    await p.expect(/Your answers are saved\. Continue with:\n {2}partner dynamic-details submit \S+ --resume/);
    expect(await p.done).toBe(130);
    expect(p.raw).not.toContain(PAN);
    expect(p.raw).not.toContain(AADHAAR);
    expect(p.out).toMatch(/Aadhaar number \(optional\) \*{12}/); // one * per typed character, nothing else

    const files = readdirSync(draftsDir());
    expect(files).toHaveLength(1);
    const text = readFileSync(join(draftsDir(), files[0]), 'utf8');
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(AADHAAR);
    const draft = JSON.parse(text);
    expect(draft.answers).toEqual({ legal: { taxRegime: 'NEW' } });
    expect(draft.asked).not.toContain('legal.pan');
    expect(draft.asked).not.toContain('legal.aadhaar');

    const r = pty(['dynamic-details', 'submit', employee.employeeCode, '--resume']);
    await r.expect(/Secret answers \(PAN, Aadhaar number\) are never stored in drafts; they are asked again\./);
    await typeSecrets(r);
    await r.answer(/\? Enrol in Provident Fund/, `n${ENTER}`);
    await r.answer(/\? Add nominee\?/, ENTER);
    await r.answer(/\? Cost center/, `CC-4242${ENTER}`);
    await r.answer(/\? Laptop \(optional\)/, ENTER);
    await r.answer(/\? Working languages \(optional\)/, ENTER);
    await r.answer(/\? T-shirt size \(optional\)/, ENTER);
    await r.expect(/Review your answers/);
    await r.expect(/PAN: \*{8}/);
    await r.expect(/Aadhaar number: \*{8}/);
    await r.answer(/\? What next\?/, `${DOWN}${ENTER}`); // Change an answer
    await r.expect(/\? Which answer\?/);
    await r.expect(/PAN: \*{8}/);
    await new Promise((res) => setTimeout(res, 50));
    r.send(ENTER); // PAN
    await r.expect(/Press Enter to keep the current value/);
    await r.answer(/\? PAN/, ENTER);
    await r.expect(/Review your answers/);
    await r.answer(/\? What next\?/, ENTER); // Submit
    await r.expect(/Dynamic details saved for/);
    expect(await r.done).toBe(0);
    expect(r.raw).not.toContain(PAN);
    expect(r.raw).not.toContain(AADHAAR);

    const patch = sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/v1/employees/${employee.id}/dynamic-details`);
    expect(patch.map((q) => q.status)).toEqual([204]);
    expect(patch[0].body).toEqual({ legal: { pan: PAN, aadhaar: AADHAAR, taxRegime: 'NEW', pfOptIn: false }, customFields: { costCenter: 'CC-4242' } }); // Enter on an optional select leaves it empty: not sent
    expect(readdirSync(draftsDir())).toEqual([]);
  }, 60_000);
});

describe.skipIf(!hasScript)('dynamic-details submit: Esc after --resume', () => {
  it('goes back past the resume point to answers of the first session, and the PATCH carries what was kept and changed', async () => {
    const employee = await indiaEmployee(1); // not the one the test above uses
    const ESC = '\x1b';

    const p = pty(['dynamic-details', 'submit', employee.employeeCode]);
    await typeSecrets(p);
    await p.answer(/\? Income tax regime/, ENTER);
    await p.answer(/\? Enrol in Provident Fund/, `n${ENTER}`);
    await p.expect(/\? Add nominee\?/);
    process.kill(p.cliPid(), 'SIGINT');
    expect(await p.done).toBe(130);
    const draft = JSON.parse(readFileSync(join(draftsDir(), readdirSync(draftsDir())[0]!), 'utf8'));
    expect(draft.history).toEqual(['legal.taxRegime', 'legal.pfOptIn']);

    const r = pty(['dynamic-details', 'submit', employee.employeeCode, '--resume']);
    await typeSecrets(r);
    await r.answer(/\? Add nominee\?/, ESC); // back to the question answered just before
    await r.answer(/\? Aadhaar number \(optional\)/, ESC);
    await r.answer(/\? PAN/, ESC); // past the resume point: answered before the SIGINT
    await r.answer(/\? Enrol in Provident Fund/, ESC);
    await r.expect(/\? Income tax regime/);
    r.send(`${DOWN}${ENTER}`); // change it
    // Then forward in form order through what Esc left unanswered, each offering its current value.
    await r.expect(/Press Enter to keep the current value\./);
    await r.answer(/\? PAN/, ENTER); // keeps the PAN typed in this session (memory only)
    await r.answer(/\? Aadhaar number \(optional\)/, ENTER);
    await r.answer(/\? Enrol in Provident Fund/, ENTER); // keeps "no", answered before the SIGINT
    await r.answer(/\? Add nominee\?/, ENTER);
    await r.answer(/\? Cost center/, `CC-7007${ENTER}`);
    await r.answer(/\? Laptop \(optional\)/, ENTER);
    await r.answer(/\? Working languages \(optional\)/, ENTER);
    await r.answer(/\? T-shirt size \(optional\)/, ENTER);
    await r.answer(/\? What next\?/, ENTER); // Submit
    await r.expect(/Dynamic details saved for/);
    expect(await r.done).toBe(0);
    expect(r.raw).not.toContain(PAN);

    const patch = sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/v1/employees/${employee.id}/dynamic-details`);
    expect(patch.map((q) => q.status)).toEqual([204]);
    expect(patch[0].body).toEqual({ legal: { pan: PAN, aadhaar: AADHAAR, taxRegime: 'OLD', pfOptIn: false }, customFields: { costCenter: 'CC-7007' } });
  }, 60_000);
});

describe.skipIf(!hasScript)('the wizard over a field-definition list, through a pseudo-terminal', () => {
  it('asks every field of Acme Sverige AB in order, follows dependsOn/visibleWhen, masks the SECRET personnummer, and sends the exact bodies', async () => {
    const p = pty(['gp', 'create', '--entity', 'Acme Sverige AB']);
    await p.answer(/\? First name/, `Ingrid${ENTER}`);
    await p.answer(/\? Last name/, `Sjöberg${ENTER}`);
    await p.answer(/\? Date of birth \[YYYY-MM-DD\]/, `1985-06-30${ENTER}`);
    await p.answer(/\? Gender/, `${DOWN}${DOWN}${DOWN}${ENTER}`); // Prefer not to say
    await p.answer(/\? Personal e-mail/, `ingrid@example.org${ENTER}`);
    await p.answer(/\? Mobile phone \(optional\)/, `0701234567${ENTER}`);
    await p.expect(/Mobile phone does not have the expected format/);
    p.send(`${'\x7f'.repeat(10)}+46 70 123 45 67${ENTER}`);
    await p.answer(/\? Working languages \(optional\)/, ` ${DOWN} ${ENTER}`); // SV, EN
    await p.answer(/\? Work e-mail/, `ingrid.sjoberg@acme.example${ENTER}`);
    await p.answer(/\? Start date/, `2025-12-01${ENTER}`);
    await p.answer(/\? Job title/, `Payroll Specialist${ENTER}`);
    await p.answer(/\? Department/, `${DOWN}${DOWN}${DOWN}${ENTER}`); // Finance
    await p.answer(/\? Contract term/, `${DOWN}${ENTER}`); // Fixed term -> end date
    await p.answer(/\? Contract end date \[YYYY-MM-DD\]/, `2026-11-30${ENTER}`);
    await p.answer(/\? Weekly hours \(optional\)/, ENTER); // default 40
    await p.answer(/\? Monthly gross salary \(SEK\)/, `48000${ENTER}`);
    await p.answer(/\? Works remotely \(optional\)/, `y${ENTER}`); // -> remote days
    await p.answer(/\? Remote days a week \(optional\)/, `2${ENTER}`);
    await p.answer(/\? Notes for payroll \(optional\)/, ENTER);
    await p.answer(/\? Name on badge \(optional\)/, `Ingrid S.${ENTER}`);
    await p.expect(/\? Personnummer/);
    await p.type('19850630-2468');
    await p.answer(/\? Tax table/, `33${ENTER}`);
    await p.answer(/\? Member of the Church of Sweden \(optional\)/, `y${ENTER}`); // -> parish
    await p.answer(/\? Parish/, `Katarina${ENTER}`);
    await p.answer(/\? Cost center/, `CC-2001${ENTER}`);
    await p.answer(/\? T-shirt size \(optional\)/, `${DOWN}${DOWN}${ENTER}`); // S (after "(leave empty)" and XS)
    await p.expect(/Review your answers/);
    await p.expect(/Personnummer: \*{8}/);
    await p.answer(/\? What next\?/, ENTER);
    await p.expect(/Created (ACME-\d+) \(ONBOARDING\)/);
    expect(await p.done).toBe(0);
    expect(p.raw).not.toContain('19850630-2468');
    const post = sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/v1/employees/gp-employments').at(-1)!;
    expect([post.status, post.body]).toEqual([
      201,
      {
        entity: 'Acme Sverige AB',
        personal: { firstName: 'Ingrid', lastName: 'Sjöberg', dateOfBirth: '1985-06-30', gender: 'UNDISCLOSED' },
        contact: { personalEmail: 'ingrid@example.org', personalPhoneNumber: '+46 70 123 45 67', languages: ['SV', 'EN'] },
        employment: { workEmail: 'ingrid.sjoberg@acme.example', startDate: '2025-12-01', designation: 'Payroll Specialist', department: 'Finance', term: 'FIXED_TERM', endDate: '2026-11-30', baseSalary: 48000, remote: true, remoteDays: 2, badgeName: 'Ingrid S.' },
      },
    ]);
    const patch = sandbox.requests.filter((q) => q.method === 'PATCH').at(-1)!;
    expect([patch.status, patch.body]).toEqual([204, { tax: { personnummer: '19850630-2468', taxTable: 33, churchMember: true, parish: 'Katarina' }, custom: { costCenter: 'CC-2001', tShirtSize: 'S' } }]);
  }, 60_000);
});

describe.skipIf(!hasScript)('--body-file on a terminal', () => {
  it('shows the body and asks; "no" sends nothing (exit 130)', async () => {
    const file = join(dir.path, 'hand.json');
    writeFileSync(file, JSON.stringify({ personal: { firstName: 'Hand' }, employment: { workEmail: 'hand@acme.example' } }));
    const before = sandbox.requests.filter((q) => q.method === 'POST').length;
    const p = pty(['gp', 'create', '--entity', 'Acme Sverige AB', '--body-file', file]);
    await p.expect(/POST \/v1\/employees\/gp-employments:/);
    await p.expect(/"workEmail": "hand@acme\.example"/);
    await p.answer(/\? Send it\?/, `n${ENTER}`);
    await p.expect(/Nothing was sent\./);
    expect(await p.done).toBe(130);
    expect(sandbox.requests.filter((q) => q.method === 'POST').length).toBe(before);
  }, 30_000);
});
