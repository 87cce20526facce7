// the local audit log of every write. Each write command runs
// (built CLI, or the MCP server over stdio) against the sandbox or a recording
// server; its records are checked against the requests the server received,
// and the log file for what it must never hold (the token, form values, query
// strings). A CLI killed with -9 between request and answer leaves a write
// whose outcome is unknown.
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { AuditEntryView as Entry } from '../../src/audit/read.js';
import { BIN, expectCode, isolatedEnv, ROOT, runOnTerminal, sandboxEnv, spawnCli, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { waitFor } from '../helpers/wait-for.js';

const DEU = 'Acme Deutschland GmbH';
const SWE = 'Acme Sverige AB';
const valuesPath = join(ROOT, 'test/fixtures/forms/deu-values.json');
const USER = userInfo().username;
const server = scriptedServer();

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, env, dir, close } = await sandboxEnv());
});
afterAll(async () => {
  await close?.();
});

const logFile = (e: NodeJS.ProcessEnv = env) => join(e.PARTNER_STATE_DIR!, 'audit.ndjson');
const logText = (e: NodeJS.ProcessEnv = env) => readFileSync(logFile(e), 'utf8');

async function entries(e: NodeJS.ProcessEnv = env, extra: string[] = []): Promise<Entry[]> {
  const r = await runMain(['audit', 'list', '-o', 'json', ...extra], { env: e });
  expectCode(r, 0);
  return JSON.parse(r.stdout) as Entry[];
}

/** The entries written since `before` entries were in the log. */
async function since(before: number, e: NodeJS.ProcessEnv = env): Promise<Entry[]> {
  return (await entries(e)).slice(before);
}

/** The values file with a work e-mail of its own (the sandbox refuses a second employee with the same). */
function freshValues(tag: string): string {
  const v = JSON.parse(readFileSync(valuesPath, 'utf8')) as { employment: { workEmail: string } };
  v.employment.workEmail = `audit.${tag}@acme.example`;
  const p = join(dir, `values-${tag}.json`);
  writeFileSync(p, JSON.stringify(v));
  return p;
}

/** The sandbox's answers to writes from request index `from` on, as method, path and status. */
const writesFrom = (from: number) => sandbox.requests.slice(from).filter((q) => q.method !== 'GET').map((q) => ({ method: q.method, path: q.path, status: q.status }));

function expectClean(text: string, secrets: string[]): void {
  expect(text).not.toContain(env.PARTNER_TOKEN!);
  for (const s of secrets) expect(text, s).not.toContain(s);
  expect(text).not.toContain('?');
}

describe('the audit log records every write, before it is sent and when it is answered', () => {
  it('gp create: the POST (201, the new employee) and its PATCH (204), with who, where and which command', async () => {
    const before = (await entries().catch(() => [])).length;
    const reqs = sandbox.requests.length;
    const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('first'), '-o', 'json'], { env });
    expectCode(r, 0);
    const created = JSON.parse(r.stdout) as { id: string };
    const got = await since(before);
    expect(got.map((e) => ({ method: e.method, path: e.path, status: e.status }))).toEqual(writesFrom(reqs));
    expect(got.map((e) => [e.method, e.path, e.status, e.outcome, e.employee])).toEqual([
      ['POST', '/v1/employees/gp-employments', 201, 'answered', created.id],
      ['PATCH', `/v1/employees/${created.id}/dynamic-details`, 204, 'answered', created.id],
    ]);
    for (const e of got) {
      expect(e).toMatchObject({ profile: 'default', baseUrl: sandbox.url, command: 'partner gp create', user: USER, error: null });
      expect(typeof e.pid).toBe('number');
      expect(Date.parse(e.answeredAt!)).toBeGreaterThanOrEqual(Date.parse(e.time));
    }
    // Never a form value: the names and tax numbers of the values file are nowhere in the log.
    const v = JSON.parse(readFileSync(valuesPath, 'utf8')) as { personal: { firstName: string; lastName: string }; legal: { taxId: unknown } };
    expectClean(logText(), [v.personal.firstName, v.personal.lastName, String(v.legal.taxId)]);
    expect(statSync(logFile()).mode & 0o777).toBe(0o600);
    expect(statSync(env.PARTNER_STATE_DIR!).mode & 0o777).toBe(0o700);
  });

  it('dynamic-details submit: the PATCH, the employee it concerns', async () => {
    const made = JSON.parse((await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('dyn'), '-o', 'json'], { env })).stdout) as { id: string };
    const v = JSON.parse(readFileSync(valuesPath, 'utf8')) as { legal: unknown; customFields: unknown };
    const body = join(dir, 'dyn.json');
    writeFileSync(body, JSON.stringify({ legal: v.legal, customFields: v.customFields }));
    const before = (await entries()).length;
    const reqs = sandbox.requests.length;
    const r = await runMain(['dynamic-details', 'submit', made.id, '--body-file', body, '--yes'], { env });
    expectCode(r, 0);
    const got = await since(before);
    expect(got.map((e) => ({ method: e.method, path: e.path, status: e.status }))).toEqual(writesFrom(reqs));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ method: 'PATCH', employee: made.id, status: 204, outcome: 'answered', command: 'partner dynamic-details submit' });
  });

  it('gp create --from-csv: one POST and one PATCH per row, each row its own employee', async () => {
    const t = await runMain(['gp', 'template', '--entity', SWE, '-o', 'csv'], { env });
    const header = (parseCsv(t.stdout) as string[][])[0]!;
    const row = (i: number): Record<string, string> => ({
      'personal.firstName': `Audit${i}`, 'personal.lastName': 'Bulkrow', 'personal.dateOfBirth': '1990-01-01', 'personal.gender': 'Female',
      'contact.personalEmail': `a${i}.audit@example.org`, 'contact.languages': 'SV', 'employment.workEmail': `audit${i}@acme.example`,
      'employment.startDate': '2025-11-01', 'employment.designation': 'Engineer', 'employment.department': 'Data', 'employment.term': 'PERMANENT',
      'employment.baseSalary': '52000', 'tax.personnummer': `19900101-${2000 + i}`, 'tax.taxTable': '32', 'custom.costCenter': 'CC-4100',
    });
    const lines = [header.join(','), ...[1, 2, 3].map((i) => header.map((c) => row(i)[c] ?? '').join(','))];
    const file = join(dir, 'audit-bulk.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const before = (await entries()).length;
    const reqs = sandbox.requests.length;
    const r = await runMain(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 0);
    const got = await since(before);
    const sent = writesFrom(reqs);
    expect(sent).toHaveLength(6);
    const key = (x: { method: string; path: string; status: number | null }) => `${x.method} ${x.path} ${x.status}`;
    expect(got.map(key).sort()).toEqual(sent.map(key).sort());
    const created = new Set(got.filter((e) => e.method === 'POST').map((e) => e.employee));
    expect(created.size).toBe(3);
    for (const e of got.filter((x) => x.method === 'PATCH')) expect(created.has(e.employee)).toBe(true);
    expectClean(logText(), ['Bulkrow', '19900101-2001', 'audit1@acme.example']);
  });

  it('partner api -X POST: the path without its query string, the status and correlation id; a GET is not recorded', async () => {
    const e = isolatedEnv(dir, { PARTNER_BASE_URL: server.url, PARTNER_TOKEN: 'pk_test_AuditApi9Zx2WmR4tLc8' , PARTNER_STATE_DIR: join(dir, 'state-api') });
    server.queue.push((_q, res) => res.writeHead(422, { 'content-type': 'application/json', 'x-correlation-id': 'corr-42' }).end('{"message":"no"}'));
    const r = await runMain(['api', '-X', 'POST', '/v1/things?secretQuery=v1', '-F', 'name=Zoé Private'], { env: e });
    expect(r.code).not.toBe(0);
    server.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    expectCode(await runMain(['api', '/v1/employees'], { env: e }), 0);
    const got = await entries(e);
    expect(got.map((x) => [x.method, x.path, x.status, x.correlationId, x.outcome, x.command])).toEqual([['POST', '/v1/things', 422, 'corr-42', 'answered', 'partner api']]);
    const text = logText(e);
    expect(text).not.toContain('secretQuery');
    expect(text).not.toContain('Zoé');
    expect(text).not.toContain(e.PARTNER_TOKEN!);
  });

  it('the MCP write tools (create_gp_employee with confirm: true)', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-write'], env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'audit-test', version: '1.0.0' });
    await client.connect(transport);
    const before = (await entries()).length;
    const reqs = sandbox.requests.length;
    try {
      const values = JSON.parse(readFileSync(valuesPath, 'utf8')) as { employment: { workEmail: string } };
      values.employment.workEmail = 'mcp.audit@acme.example';
      const r = await client.callTool({ name: 'create_gp_employee', arguments: { entity: DEU, values, confirm: true } });
      expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
    } finally {
      await client.close();
    }
    const got = await since(before);
    expect(got.map((e) => ({ method: e.method, path: e.path, status: e.status }))).toEqual(writesFrom(reqs));
    expect(got.map((e) => [e.method, e.outcome, e.command])).toEqual([
      ['POST', 'answered', 'partner mcp'],
      ['PATCH', 'answered', 'partner mcp'],
    ]);
  });

  it('kill -9 between the request and its answer: the write is in the log, its outcome unknown', async () => {
    const e = isolatedEnv(dir, { PARTNER_BASE_URL: server.url, PARTNER_TOKEN: 'pk_test_AuditKill9Zx2WmR4tLc8', PARTNER_STATE_DIR: join(dir, 'state-kill') });
    // The server takes the request and never answers.
    server.queue.push(() => undefined);
    const cli = spawnCli(['api', '-X', 'DELETE', '/v1/employees/3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a', '--timeout', '60'], { env: e, timeoutMs: 30_000 });
    await waitFor(() => server.seen.length === 1);
    cli.child.kill('SIGKILL');
    const done = await cli.done;
    expect(done.signal).toBe('SIGKILL');
    const got = await entries(e);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ method: 'DELETE', path: '/v1/employees/3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a', employee: '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a', outcome: 'unknown', status: null, answeredAt: null, command: 'partner api' });
    // The table says so too.
    const table = await runMain(['audit', 'list', '-o', 'table'], { env: e });
    expect(table.stdout).toMatch(/ unknown +DELETE +3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a +api +- /);
  });
});

describe('partner audit list', () => {
  it('JSON, NDJSON, CSV and a table on a terminal; --since; -q the ids', async () => {
    const all = await entries();
    expect(all.length).toBeGreaterThan(0);
    const nd = await runMain(['audit', 'list', '-o', 'ndjson'], { env });
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as Entry)).toEqual(all);
    const csv = parseCsv((await runMain(['audit', 'list', '-o', 'csv'], { env })).stdout, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.id)).toEqual(all.map((e) => e.id));
    expect(Object.keys(csv[0]!)).toEqual(['time', 'outcome', 'method', 'path', 'employee', 'employeeCode', 'status', 'correlationId', 'error', 'profile', 'baseUrl', 'command', 'user', 'pid', 'id', 'answeredAt']);
    const q = await runMain(['audit', 'list', '-q'], { env });
    expect(q.stdout.trim().split('\n')).toEqual(all.map((e) => e.id));
    expect(await entries(env, ['--since', '1h'])).toEqual(all);
    expect(await entries(env, ['--since', '2999-01-01'])).toEqual([]);
    const bad = await runMain(['audit', 'list', '--since', 'yesterday'], { env });
    expectCode(bad, 2);
    expect(bad.stderr).toMatch(/--since must be a duration like 24h/);
    // Who, what, whom: the employee's code (a create's answer names it), the command, the status; the path when there is room.
    const created = all.find((e) => e.method === 'POST' && e.path === '/v1/employees/gp-employments' && e.employeeCode)!;
    expect(created.employeeCode).toMatch(/^\S+$/);
    const shown = await runOnTerminal(['audit', 'list'], { env, columns: 160 });
    expect(shown).toMatch(/TIME +OUTCOME +METHOD +EMPLOYEE +COMMAND +STATUS +PATH/);
    expect(shown).toContain(`POST    ${created.employeeCode}`);
    expect(shown).toMatch(/ gp create +201 +\/v1\/employees\/gp-employments/);
    expect(shown).toMatch(/\d+ writes · log: /);
    // At 80 columns the time reads in the local zone with how long ago, not as an ISO stamp; JSON keeps ISO 8601 UTC.
    const narrow = await runOnTerminal(['audit', 'list'], { env: { ...env, TZ: 'Asia/Kolkata' }, columns: 80 });
    expect(narrow).toMatch(/^TIME +OUTCOME +METHOD +EMPLOYEE +COMMAND +STATUS/m);
    expect(narrow).toMatch(new RegExp(`^(just now|\\d+ min ago), \\d\\d:\\d\\d +answered +POST +${created.employeeCode} +gp create +201\\s*$`, 'm'));
    expect(narrow).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const json = await runMain(['audit', 'list', '-o', 'json'], { env: { ...env, TZ: 'Asia/Kolkata' } });
    for (const e of JSON.parse(json.stdout) as Entry[]) expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('an empty log is an empty list', async () => {
    const d = tempDir();
    try {
      expect(await entries(isolatedEnv(d.path))).toEqual([]);
    } finally {
      d.cleanup();
    }
  });
});

describe('turned off per profile', () => {
  it('"audit": false in the profile: its writes are not recorded', async () => {
    const d = tempDir();
    try {
      const e = isolatedEnv(d.path);
      mkdirSync(e.PARTNER_CONFIG_DIR!, { mode: 0o700 });
      writeFileSync(join(e.PARTNER_CONFIG_DIR!, 'config.json'), JSON.stringify({ activeProfile: 'quiet', profiles: { quiet: { baseUrl: sandbox.url, token: sandbox.tokens.companyA, audit: false } } }), { mode: 0o600 });
      const reqs = sandbox.requests.length;
      expectCode(await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('off')], { env: e }), 0);
      expect(writesFrom(reqs).length).toBe(2);
      expect(readdirSync(d.path)).not.toContain('state');
      // The same profile with the log on records them.
      writeFileSync(join(e.PARTNER_CONFIG_DIR!, 'config.json'), JSON.stringify({ activeProfile: 'quiet', profiles: { quiet: { baseUrl: sandbox.url, token: sandbox.tokens.companyA } } }), { mode: 0o600 });
      expectCode(await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('on')], { env: e }), 0);
      expect((await entries(e)).map((x) => [x.method, x.profile])).toEqual([['POST', 'quiet'], ['PATCH', 'quiet']]);
    } finally {
      d.cleanup();
    }
  });

  it('a record a full disk cut short (the disk freed since): set aside before the next write, which is listed whole; audit list says so', async () => {
    const d = tempDir();
    try {
      const e = isolatedEnv(d.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
      expectCode(await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('cut-1')], { env: e }), 0);
      // What a full disk leaves: a "sent" record without its end and without a newline.
      const cut = '{"v":1,"id":"0123456789abcdef","event":"sent","time":"2026-11-28T01:0';
      writeFileSync(logFile(e), cut, { flag: 'a' });
      expectCode(await runMain(['gp', 'create', '--entity', DEU, '--from-file', freshValues('cut-2')], { env: e }), 0);
      // The log holds whole lines only; the cut record is kept aside.
      for (const l of logText(e).trimEnd().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
      const aside = readFileSync(join(e.PARTNER_STATE_DIR!, 'audit.cut.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { bytes: string });
      expect(aside.map((a) => Buffer.from(a.bytes, 'base64').toString())).toEqual([cut]);
      const r = await runMain(['audit', 'list', '-o', 'json'], { env: e });
      expectCode(r, 0);
      expect((JSON.parse(r.stdout) as Entry[]).map((x) => [x.method, x.outcome])).toEqual([['POST', 'answered'], ['PATCH', 'answered'], ['POST', 'answered'], ['PATCH', 'answered']]);
      expect(r.stderr).toMatch(/1 cut record was set aside in .*audit\.cut\.ndjson/);
      // A damaged line in the log itself: every whole record still listed, and the count said.
      writeFileSync(logFile(e), 'not a record\n', { flag: 'a' });
      const damaged = await runMain(['audit', 'list', '-o', 'json'], { env: e });
      expect(JSON.parse(damaged.stdout)).toHaveLength(4);
      expect(damaged.stderr).toMatch(/1 line of the audit log could not be read/);
    } finally {
      d.cleanup();
    }
  });

  it('a log that cannot be written stops the write before it is sent', async () => {
    const d = tempDir();
    try {
      const e = isolatedEnv(d.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
      // A file where the state directory should be.
      writeFileSync(join(d.path, 'state'), '');
      const reqs = sandbox.requests.length;
      const r = await runMain(['gp', 'create', '--entity', DEU, '--from-file', valuesPath], { env: e });
      expectCode(r, 1);
      expect(r.stderr).toMatch(/Cannot write the audit log .*the request was not sent/);
      expect(writesFrom(reqs)).toEqual([]);
    } finally {
      d.cleanup();
    }
  });
});
