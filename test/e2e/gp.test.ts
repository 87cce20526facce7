// gp create / gp schema / dynamic-details submit, non-interactive, against the sandbox over real HTTP.
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { type CliResult, expectCode, isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const DEU = 'Acme Deutschland GmbH';
const IND = 'Acme India Pvt Ltd';
const valuesPath = join(ROOT, 'test/fixtures/forms/deu-values.json');
const invalidPath = join(ROOT, 'test/fixtures/forms/deu-invalid.json');
const values = () => JSON.parse(readFileSync(valuesPath, 'utf8')) as Record<string, Record<string, unknown>>;


let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

const posts = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/employees/gp-employments').length;
const patches = () => sandbox.requests.filter((r) => r.method === 'PATCH').length;
const draftsDir = () => join(dir.path, 'config', 'drafts');
const drafts = () => {
  try {
    return readdirSync(draftsDir());
  } catch {
    return [];
  }
};

function writeValues(name: string, v: unknown): string {
  const p = join(dir.path, name);
  writeFileSync(p, JSON.stringify(v));
  return p;
}

describe('gp schema', () => {
  it('prints the schema as JSON and an outline as a table', async () => {
    const json = await runMain(['gp', 'schema', '--entity', IND, '-o', 'json'], { env });
    expectCode(json, 0);
    const schema = JSON.parse(json.stdout);
    expect(schema['x-dynamic-sections']).toEqual(['legal', 'customFields']);
    const table = await runMain(['gp', 'schema', '--entity', DEU, '-o', 'table'], { env });
    expectCode(table, 0);
    expect(table.stdout).toMatch(/employment\.endDate .*date .*yes, when term = "FIXED_TERM"/);
    expect(table.stdout).toMatch(/legal .*section \(dynamic-details\)/);
    expect(table.stdout).toMatch(/customFields\.languages .*multiselect/);
  });

  it('an unknown entity is the server\'s 422 (exit 7)', async () => {
    const r = await runMain(['gp', 'schema', '--entity', 'Nope GmbH'], { env });
    expectCode(r, 7);
    expect(r.stderr).toContain('unknown legal entity');
  });
});

describe('gp create --from-file / --set', () => {
  it('--dry-run validates and prints both bodies without sending, secret fields masked', async () => {
    const before = posts();
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', valuesPath, '--dry-run'], { env });
    expectCode(r, 0);
    const out = JSON.parse(r.stdout);
    const v = values();
    const masked = (o: Record<string, unknown>, keys: string[]) => ({ ...o, ...Object.fromEntries(keys.map((k) => [k, '********'])) });
    expect(out.create).toEqual({ entity: DEU, personal: v.personal, contact: v.contact, address: v.address, employment: v.employment, compensation: v.compensation, bank: masked(v.bank, ['iban']) });
    expect(out.dynamicDetails).toEqual({ legal: masked(v.legal, ['taxId', 'socialSecurityNumber']), customFields: v.customFields });
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).toContain('--reveal shows them');
    const shown = await runMain(['gp', 'create', '--entity', DEU, '--from-file', valuesPath, '--dry-run', '--reveal'], { env });
    expectCode(shown, 0);
    expect(JSON.parse(shown.stdout)).toEqual({ create: { entity: DEU, personal: v.personal, contact: v.contact, address: v.address, employment: v.employment, compensation: v.compensation, bank: v.bank }, dynamicDetails: { legal: v.legal, customFields: v.customFields } });
    expect(posts()).toBe(before);
  });

  it('an invalid file lists every error with its path and exits 2; nothing is sent', async () => {
    const before = posts();
    // -o table: the text form (piped, the error is one JSON object with the fields as details).
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', invalidPath, '-o', 'table'], { env });
    expectCode(r, 2);
    for (const line of [
      'personal.lastName: Last name is required',
      // 1990-13-01 is refused for having no month 13, not for its format.
      'personal.dateOfBirth: Date of birth has no month 13 (months run from 01 to 12)',
      'contact.personalEmail: Personal e-mail must be an e-mail address',
      'employment.endDate: Contract end date is required',
      'employment.weeklyHours: Weekly working hours must be at most 48',
      'compensation.signingBonusAmount: Signing bonus amount is not allowed here',
      'legal.denomination: Denomination is required',
      'customFields.shoeSize: shoeSize is not a field of this form',
    ]) {
      expect(r.stderr).toContain(line);
    }
    expect(r.stderr).toMatch(/15 values are missing or invalid; nothing was sent/);
    expect(r.stdout).toBe('');
    expect(posts()).toBe(before);
  });

  it('bad JSON and a missing file are usage errors', async () => {
    const bad = writeValues('bad.json', '{');
    writeFileSync(bad, '{ not json');
    expectCode(await runMain(['gp', 'create', '--entity', DEU, '--from-file', bad], { env }), 2);
    const missing = await runMain(['gp', 'create', '--entity', DEU, '--from-file', join(dir.path, 'none.json')], { env });
    expectCode(missing, 2);
    expect(missing.stderr).toContain('Cannot read');
    expectCode(await runMain(['gp', 'create', '--entity', DEU, '--set', 'oops'], { env }), 2);
  });

  it('a --set value that cannot be sent is its field\'s one problem, not also "is required"', async () => {
    const before = posts();
    const r = await runMain(['gp', 'create', '--entity', DEU, '--set', 'compensation.baseSalary=12345678901234567890', '-o', 'json'], { env });
    expectCode(r, 2);
    const salary = (JSON.parse(r.stderr) as { error: { details: { field: string; message: string }[] } }).error.details.filter((d) => d.field === 'compensation.baseSalary');
    expect(salary.map((d) => d.message)).toEqual(['Annual gross base salary has more digits than can be sent exactly: a number has at most 15 to 17 significant digits, and partner never sends one rounded']);
    expect(posts()).toBe(before);
  });

  it('a --set naming a section the form does not have is refused by name, and nothing is sent', async () => {
    const before = posts();
    const r = await runMain(['gp', 'create', '--entity', IND, '--set', 'compensaton.baseSalary=5', '-o', 'table'], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain('compensaton: compensaton is not a field of this form');
    expect(posts()).toBe(before);
  });

  it('without a terminal and without values it fails naming --from-file and --set', async () => {
    const r = await runMain(['gp', 'create', '--entity', IND, '-o', 'table'], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain('personal.firstName: First name is required');
    expect(r.stderr).toMatch(/--from-file values\.json or --set section\.field=value/);
    const noEntity = await runMain(['gp', 'create'], { env });
    expectCode(noEntity, 2);
    expect(noEntity.stderr).toContain('--entity');
  });

  it('creates the employee (POST then PATCH), prints id, code and status; it shows in the list and the tracker', async () => {
    const v = values();
    v.employment.workEmail = 'grace.hopper@acme.example';
    const file = writeValues('grace.json', v);
    const p0 = posts();
    const q0 = patches();
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', file, '--set', 'personal.firstName=Grace', '--set', 'employment.weeklyHours=38.5', '--set', 'customFields.languages=EN,DE'], { env });
    expect(r.stderr).toContain('Next:');
    expectCode(r, 0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ status: 'ONBOARDING', firstName: 'Grace', workEmail: 'grace.hopper@acme.example', entity: DEU });
    expect(posts()).toBe(p0 + 1);
    expect(patches()).toBe(q0 + 1);
    const list = await runMain(['employees', 'list', '--employee-code', created.employeeCode, '-o', 'json'], { env });
    expect(JSON.parse(list.stdout).data.map((e: { id: string }) => e.id)).toEqual([created.id]);
    const employment = await fetch(`${sandbox.url}/v1/employees/${created.id}/employment`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } });
    expect(await employment.json()).toMatchObject({ workEmail: 'grace.hopper@acme.example', entity: DEU, term: 'FIXED_TERM' });
    expect(drafts()).toEqual([]);
  });

  it('reads values from stdin with --from-file -; a duplicate work e-mail is a 409 explained (exit 6)', async () => {
    const v = values();
    v.employment.workEmail = 'grace.hopper@acme.example';
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', '-'], { env, input: JSON.stringify(v) });
    expectCode(r, 6);
    expect(r.stderr).toContain('An employee with these details already exists (work e-mail grace.hopper@acme.example)');
    expect(r.stderr).toContain('Nothing was created');
    // The rejected values are kept as a private draft that --resume continues.
    expect(r.stderr).toContain(`partner gp create --entity "${DEU}" --resume`);
    const files = drafts();
    expect(files).toHaveLength(1);
    const draftFile = join(draftsDir(), files[0]);
    expect(statSync(draftFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(draftFile, 'utf8')).answers.employment.workEmail).toBe('grace.hopper@acme.example');
    rmSync(draftFile);
  });

  it('when the PATCH fails after the POST: says so, keeps the dynamic part, and dynamic-details submit --resume finishes it', async () => {
    const v = values();
    v.employment.workEmail = 'katherine.johnson@acme.example';
    const file = writeValues('kj.json', v);
    sandbox.injectFault({ kind: '500', times: 1, method: 'PATCH', path: /\/dynamic-details$/ });
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', file], { env });
    expect(r.stderr).toContain('was created');
    expectCode(r, 1);
    const created = JSON.parse(r.stdout);
    expect(created.status).toBe('ONBOARDING');
    expect(r.stderr).toContain(`was created, but its dynamic details (legal, customFields) were not saved`);
    expect(r.stderr).toContain(`partner dynamic-details submit ${created.id} --resume`);
    // Secrets are never written to the draft; the message says how to give them again.
    expect(r.stderr).toContain('Secret values are not kept in drafts: give them again when asked, or with --set legal.taxId=… --set legal.socialSecurityNumber=…');
    const files = drafts();
    expect(files.length).toBe(1);
    const draftFile = join(draftsDir(), files[0]);
    expect(statSync(draftFile).mode & 0o777).toBe(0o600);
    expect(statSync(draftsDir()).mode & 0o777).toBe(0o700);
    const draft = JSON.parse(readFileSync(draftFile, 'utf8'));
    const { taxId, socialSecurityNumber, ...legalKept } = v.legal;
    expect(draft).toMatchObject({ kind: 'dynamic-details', employeeId: created.id, answers: { legal: legalKept, customFields: v.customFields } });
    expect(draft.answers.personal).toBeUndefined();
    expect(draft.answers.legal.taxId).toBeUndefined();
    expect(readFileSync(draftFile, 'utf8')).not.toMatch(/12345678901|12345678A123/);

    // Without the secrets the resume refuses to send (they are required), and says why.
    const before = patches();
    const missing = await runMain(['dynamic-details', 'submit', created.employeeCode, '--resume'], { env });
    expectCode(missing, 2);
    expect(missing.stderr).toContain('Secret answers (Tax identification number (Steuer-ID), Social security number) are never stored in drafts; they are asked again.');
    expect(missing.stderr).toMatch(/legal\.taxId: .*is required/);
    expect(patches()).toBe(before);
    const done = await runMain(['dynamic-details', 'submit', created.employeeCode, '--resume', '--set', `legal.taxId=${String(taxId)}`, '--set', `legal.socialSecurityNumber=${String(socialSecurityNumber)}`], { env });
    expect(done.stderr).toContain(`Dynamic details saved for ${created.employeeCode}`);
    expectCode(done, 0);
    expect(patches()).toBe(before + 1);
    const patch = sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/v1/employees/${created.id}/dynamic-details`).at(-1)!;
    expect(patch.body).toEqual({ legal: v.legal, customFields: v.customFields });
    expect(drafts()).toEqual([]);
  });
});

describe('dynamic-details submit', () => {
  let code: string;
  let id: string;
  beforeAll(async () => {
    const page = await fetch(`${sandbox.url}/v1/employees?pageSize=100`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } });
    const hit = ((await page.json()) as { data: { id: string; employeeCode: string; entity: string }[] }).data.find((e) => e.entity === IND)!;
    code = hit.employeeCode;
    id = hit.id;
  });

  it('finds the entity from the employment section and validates only the dynamic sections', async () => {
    const bad = await runMain(['dynamic-details', 'submit', code, '--set', 'legal.pan=abc', '--set', 'legal.pfOptIn=yes', '--set', 'legal.taxRegime=NEW'], { env });
    expectCode(bad, 2);
    expect(bad.stderr).toContain('legal.pan: PAN does not have the expected format');
    expect(bad.stderr).toContain('legal.uan: Universal Account Number (UAN) is required');
    expect(bad.stderr).toContain('customFields.costCenter: Cost center is required');
    expect(bad.stderr).not.toContain('personal');
  });

  it('--dry-run prints the PATCH body; a real submit answers 204', async () => {
    const sets = ['legal.pan=ABCDE1234F', 'legal.taxRegime=Old regime', 'legal.pfOptIn=false', 'customFields.costCenter=CC-0001', 'legal.nominees=[{"name":"Ravi","relationship":"PARENT","sharePercent":100}]'].flatMap((s) => ['--set', s]);
    const dry = await runMain(['dynamic-details', 'submit', id, ...sets, '--dry-run'], { env });
    expect(dry.stderr).toContain('nothing was sent');
    expectCode(dry, 0);
    // The PAN is a secret field: masked unless --reveal.
    expect(JSON.parse(dry.stdout)).toEqual({
      dynamicDetails: { legal: { pan: '********', taxRegime: 'OLD', pfOptIn: false, nominees: [{ name: 'Ravi', relationship: 'PARENT', sharePercent: 100 }] }, customFields: { costCenter: 'CC-0001' } },
    });
    const revealed = await runMain(['dynamic-details', 'submit', id, ...sets, '--dry-run', '--reveal'], { env });
    expect(JSON.parse(revealed.stdout).dynamicDetails.legal.pan).toBe('ABCDE1234F');
    const before = patches();
    const r = await runMain(['dynamic-details', 'submit', code, ...sets], { env });
    expectCode(r, 0);
    expect(patches()).toBe(before + 1);
  });

  it('an unknown code is not found (exit 5); sections that belong to the POST are refused', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'NOPE-999', '--set', 'customFields.costCenter=CC-0001'], { env });
    expectCode(r, 5);
    const wrong = await runMain(['dynamic-details', 'submit', code, '--set', 'personal.firstName=X', '--set', 'legal.pan=ABCDE1234F', '--set', 'legal.taxRegime=NEW', '--set', 'legal.pfOptIn=no', '--set', 'customFields.costCenter=CC-0001'], { env });
    expectCode(wrong, 2);
    expect(wrong.stderr).toContain('personal: personal is not a dynamic section');
    expectCode(await runMain(['dynamic-details', 'submit', code, '--resume'], { env }), 2);
  });
});
