import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('trackers', () => {
  it('onboarding: JSON array of the server, table, and --employee-code and --employee-id combined', async () => {
    const r = await runMain(['trackers', 'onboarding', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout);
    expect(items.length).toBeGreaterThan(0);
    expect(Object.keys(items[0])).toEqual(expect.arrayContaining(['id', 'employeeCode', 'stage']));
    const one = items[0];
    const both = await runMain(['trackers', 'onboarding', '--employee-code', one.employeeCode, '--employee-id', one.id, '-o', 'json'], { env });
    expect(JSON.parse(both.stdout)).toEqual([one]);
    const last = sandbox.requests.at(-1)!;
    expect(last.query).toMatchObject({ employeeCode: one.employeeCode, employeeId: one.id });
    const table = await runMain(['trackers', 'onboarding', '-o', 'table'], { env });
    expect(table.stdout).toMatch(/^CODE +STAGE +ID\n/); // no box borders
    expect(table.stdout).toContain(`${items.length} employee`);
  });

  it('offboarding: pending documents as count and names in the table, an array in JSON, joined with "; " in CSV', async () => {
    const json = JSON.parse((await runMain(['trackers', 'offboarding', '-o', 'json'], { env })).stdout);
    const withDocs = json.find((i: { pendingDocuments: string[] }) => i.pendingDocuments.length >= 2);
    expect(withDocs).toBeDefined();
    const table = await runMain(['trackers', 'offboarding', '-o', 'table'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`${withDocs.pendingDocuments.length}: ${withDocs.pendingDocuments.join(', ')}`);
    const csv = await runMain(['trackers', 'offboarding', '-o', 'csv'], { env });
    const rows: Record<string, string>[] = parseCsv(csv.stdout, { columns: true });
    expect(Object.keys(rows[0])).toEqual(['id', 'employeeCode', 'stage', 'pendingDocuments']);
    expect(rows.find((x) => x.id === withDocs.id)!.pendingDocuments).toBe(withDocs.pendingDocuments.join('; '));
  });

  it('--fields, -q, and invalid flags (exit 2, nothing sent)', async () => {
    const json = JSON.parse((await runMain(['trackers', 'offboarding', '-o', 'json'], { env })).stdout);
    const fields = await runMain(['trackers', 'offboarding', '-o', 'ndjson', '--fields', 'employeeCode,stage'], { env });
    expect(fields.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(json.map((i: { employeeCode: string; stage: string }) => ({ employeeCode: i.employeeCode, stage: i.stage })));
    const quiet = await runMain(['trackers', 'offboarding', '-q'], { env });
    expect(quiet.stdout).toBe(json.map((i: { id: string }) => `${i.id}\n`).join(''));
    const before = sandbox.requests.length;
    const bad = await runMain(['trackers', 'onboarding', '--employee-id', 'not-a-uuid'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--employee-id must be a UUID');
    expect(sandbox.requests.length).toBe(before);
  });

  it('an empty result is an empty array, and "No results." in a table', async () => {
    const r = await runMain(['trackers', 'onboarding', '--employee-code', 'ACME-99999', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const t = await runMain(['trackers', 'onboarding', '--employee-code', 'ACME-99999', '-o', 'table'], { env });
    expect(t.stdout).toContain('No results.');
  });
});
