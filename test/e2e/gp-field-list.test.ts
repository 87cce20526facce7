// The second form format for real: the sandbox serves "Acme Sverige AB"'s
// form as a field-definition list. gp schema (verbatim JSON, outline),
// gp create --from-file (exact POST and PATCH bodies), dynamic-details
// submit, and --body-file (shown, confirmed or --yes, sent as written). A
// small server with a form in no known format: gp schema still shows it,
// gp create says what was expected, --body-file still onboards.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FIELD_LIST_FORM } from '../../src/sandbox/field-list-form.js';
import { type CliResult, expectCode, runCli, sandboxEnv } from '../helpers/cli.js';
import { useLoopbackServer } from '../helpers/loopback-server.js';

const SWE = 'Acme Sverige AB';

let sandbox: Sandbox;
let dir: { path: string };
let close: () => Promise<void>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  let path: string;
  ({ sandbox, env, dir: path, close } = await sandboxEnv());
  dir = { path };
});

afterAll(async () => {
  await close();
});

const write = (name: string, v: unknown) => {
  const p = join(dir.path, name);
  writeFileSync(p, typeof v === 'string' ? v : JSON.stringify(v));
  return p;
};
const writes = () => sandbox.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');

const values = (email: string) => ({
  personal: { firstName: 'Astrid', lastName: 'Lindqvist', dateOfBirth: '1991-04-02', gender: 'FEMALE' },
  contact: { personalEmail: 'astrid@example.org', languages: ['SV', 'EN'] },
  employment: { workEmail: email, startDate: '2025-10-01', designation: 'Data Engineer', department: 'Data', term: 'FIXED_TERM', endDate: '2026-09-30', baseSalary: 52000, remote: true, remoteDays: 2 },
  tax: { personnummer: '19910402-1234', taxTable: 32, churchMember: true, parish: 'Katarina' },
  custom: { costCenter: 'CC-4100', tShirtSize: 'M' },
});

describe('a field-definition-list form from the sandbox', () => {
  it('gp schema -o json prints the server document verbatim; the table outlines it and notes the unknown type', async () => {
    const json = await runCli(['gp', 'schema', '--entity', SWE, '-o', 'json'], { env });
    expectCode(json, 0);
    expect(JSON.parse(json.stdout)).toEqual(FIELD_LIST_FORM);
    const table = await runCli(['gp', 'schema', '--entity', SWE, '-o', 'table'], { env });
    expectCode(table, 0);
    expect(table.stdout).toMatch(/employment\.endDate .*date .*yes, when term = "FIXED_TERM"/);
    expect(table.stdout).toMatch(/tax\.personnummer .*secret .*yes/);
    expect(table.stdout).toMatch(/custom .*section \(dynamic-details\)/);
    // SHORT_TEXT is a name of TEXT: the sandbox's own form draws no warning (unknown types: field-list unit tests).
    expect(table.stderr).not.toContain('unknown field type');
    expect(table.stderr).toContain('The server sent a field-definition list');
  });

  it('gp create --from-file checks every rule first, then POSTs and PATCHes exactly the translated bodies', async () => {
    const bad = values('x');
    (bad.employment as Record<string, unknown>).term = 'PERMANENT';
    (bad.tax as Record<string, unknown>).taxTable = 50;
    (bad.custom as Record<string, unknown>).costCenter = 'cc';
    const before = writes().length;
    const refused = await runCli(['gp', 'create', '--entity', SWE, '--from-file', write('bad.json', bad), '-o', 'table'], { env });
    expectCode(refused, 2);
    expect(refused.stderr).toContain('Invalid values (4):');
    expect(refused.stderr).toContain('employment.workEmail: Work e-mail must be an e-mail address');
    // dependsOn: the end date exists only for a fixed term.
    expect(refused.stderr).toContain('employment.endDate: Contract end date is not allowed here (its condition does not hold)');
    expect(refused.stderr).toContain('tax.taxTable: Tax table must be at most 42');
    expect(refused.stderr).toMatch(/custom\.costCenter: Cost center /);
    expect(writes().length).toBe(before);

    const v = values('astrid.lindqvist@acme.example');
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-file', write('ok.json', v)], { env });
    expectCode(r, 0);
    const created = JSON.parse(r.stdout);
    const sent = writes().slice(before);
    expect(sent.map((q) => [q.method, q.path, q.status])).toEqual([
      ['POST', '/v1/employees/gp-employments', 201],
      ['PATCH', `/v1/employees/${created.id}/dynamic-details`, 204],
    ]);
    expect(sent[0].body).toEqual({ entity: SWE, personal: v.personal, contact: v.contact, employment: v.employment });
    expect(sent[1].body).toEqual({ tax: v.tax, custom: v.custom });
    expect(r.stderr).not.toContain('19910402-1234');
  });

  it('--body-file: shown with secrets masked, refused without a terminal unless --yes, then sent exactly as written', async () => {
    const v = values('sven.holm@acme.example');
    const post = { personal: v.personal, contact: v.contact, employment: v.employment };
    const file = write('post.json', post);
    const before = writes().length;
    const ask = await runCli(['gp', 'create', '--entity', SWE, '--body-file', file], { env });
    expectCode(ask, 2);
    expect(ask.stderr).toContain('POST /v1/employees/gp-employments:');
    expect(ask.stderr).toContain('"workEmail": "sven.holm@acme.example"');
    expect(ask.stderr).toContain('Not sent: confirm the body with --yes');
    expect(writes().length).toBe(before);

    const r = await runCli(['gp', 'create', '--entity', SWE, '--body-file', file, '--yes', '-o', 'json'], { env });
    expectCode(r, 0);
    const created = JSON.parse(r.stdout);
    expect(r.stderr).toContain(`Next: send its dynamic details (tax, custom) with \`partner dynamic-details submit ${created.employeeCode} --body-file patch.json\``);
    expect(writes().slice(before).map((q) => q.body)).toEqual([{ entity: SWE, ...post }]);

    const patch = { tax: v.tax, custom: v.custom };
    const p = await runCli(['dynamic-details', 'submit', created.employeeCode, '--body-file', write('patch.json', patch), '--yes'], { env });
    expectCode(p, 0);
    expect(p.stderr).toContain(`PATCH /v1/employees/${created.id}/dynamic-details:`);
    expect(p.stderr).toContain('"personnummer": "********"');
    expect(p.stderr).not.toContain('19910402-1234');
    expect(p.stderr).toContain(`Dynamic details saved for ${created.employeeCode}`);
    const last = writes().at(-1)!;
    expect([last.method, last.status, last.body]).toEqual(['PATCH', 204, patch]);
  });

  it('--body-file cannot be mixed with --from-file; the entity in the body must agree with --entity', async () => {
    const file = write('e.json', { entity: 'Other AB', personal: {} });
    const mixed = await runCli(['gp', 'create', '--entity', SWE, '--body-file', file, '--from-file', file, '-o', 'table'], { env }); // text errors (piped, errors are JSON)
    expectCode(mixed, 2);
    expect(mixed.stderr).toContain('cannot be combined with --from-file');
    const other = await runCli(['gp', 'create', '--entity', SWE, '--body-file', file, '--yes', '-o', 'table'], { env });
    expectCode(other, 2);
    expect(other.stderr).toContain('names entity "Other AB" but --entity is "Acme Sverige AB"');
  });
});

describe('a form in no known format', () => {
  const doc = { formVersion: 3, questions: [{ id: 'q1', text: 'First name' }], meta: { locale: 'sv' } };
  const server = useLoopbackServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && req.url!.startsWith('/v1/employees/dynamic-details/schema')) return res.end(JSON.stringify(doc));
    if (req.method === 'POST') {
      res.statusCode = 201;
      return res.end(JSON.stringify({ id: '11111111-2222-4333-8444-555555555555', employeeCode: 'X-1', status: 'ONBOARDING' }));
    }
    res.statusCode = 500;
    res.end('{}');
  });
  const seen = () => server.requests.map((r) => ({ method: r.method, url: r.url, body: r.body ? JSON.parse(r.body) : undefined }));

  it('gp schema shows it (verbatim JSON; a table of what is there and what is not understood); gp create explains; --body-file still works', async () => {
    const e = { ...env, PARTNER_BASE_URL: server.url, PARTNER_TOKEN: 'tok' };
    const json = await runCli(['gp', 'schema', '--entity', 'X', '-o', 'json'], { env: e });
    expectCode(json, 0);
    expect(JSON.parse(json.stdout)).toEqual(doc);
    const table = await runCli(['gp', 'schema', '--entity', 'X', '-o', 'table'], { env: e });
    expectCode(table, 0);
    expect(table.stdout).toMatch(/formVersion .*number/);
    expect(table.stdout).toMatch(/questions .*array .*1 item/);
    expect(table.stderr).toContain('neither JSON Schema (an object with top-level "properties", one per section) nor a field-definition list');
    expect(table.stderr).toContain('--body-file');

    const create = await runCli(['gp', 'create', '--entity', 'X', '--from-file', write('v.json', { a: {} }), '-o', 'table'], { env: e });
    expectCode(create, 1);
    expect(create.stderr).toContain('it is an object with "formVersion", "questions", "meta"');
    expect(create.stderr).toContain('partner gp create --entity NAME --body-file post.json');
    expect(seen().filter((s) => s.method === 'POST')).toEqual([]);

    const body = await runCli(['gp', 'create', '--entity', 'X', '--body-file', write('b.json', { q1: 'Astrid' }), '--yes', '-o', 'json'], { env: e });
    expectCode(body, 0);
    expect(seen().filter((s) => s.method === 'POST').map((s) => s.body)).toEqual([{ entity: 'X', q1: 'Astrid' }]);
  });
});
