import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 250 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('--jq', () => {
  it('applies the filter to every page of --all as one document', async () => {
    const r = await runMain(['employees', 'list', '--all', '--page-size', '20', '--jq', '.data | length'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('250\n');
    const ids = await runMain(['employees', 'list', '--all', '--jq', '.data[].id'], { env });
    const lines = ids.stdout.trim().split('\n');
    expect(lines).toHaveLength(250);
    expect(lines[0]).toMatch(/^[0-9a-f-]{36}$/); // strings are printed raw, one per line
  });

  it('sees one page as the {data, pagination} document', async () => {
    const r = await runMain(['employees', 'list', '--page-size', '7', '--jq', '{n: (.data | length), total: .pagination.totalItems}'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ n: 7, total: 250 });
  });

  it('works on trackers and profiles', async () => {
    const t = await runMain(['trackers', 'offboarding', '--jq', 'map(.employeeCode) | join(",")'], { env });
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^ACME-\d+(,ACME-\d+)*\n$/);
    const code = (await runMain(['employees', 'list', '--page-size', '1', '--jq', '.data[0].employeeCode'], { env })).stdout.trim();
    const p = await runMain(['profile', 'get', code, '--jq', '.employment.employeeCode, (keys | length)'], { env });
    expect(p.code).toBe(0);
    expect(p.stdout).toBe(`${code}\n8\n`);
  });

  it('a syntax error is a usage error (exit 2) with jq\'s message, before any request', async () => {
    const before = sandbox.requests.length;
    for (const args of [['employees', 'list', '--all'], ['trackers', 'onboarding'], ['profile', 'get', 'ACME-00001']]) {
      const r = await runMain([...args, '--jq', '.[] | select(.x == '], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('Invalid --jq filter: syntax error');
      expect(r.stdout).toBe('');
    }
    expect(sandbox.requests.length).toBe(before);
  });

  it('conflicts with --quiet and with formats other than json (exit 2); a run-time error exits 1', async () => {
    expect((await runMain(['employees', 'list', '--jq', '.', '-q'], { env })).code).toBe(2);
    const csv = await runMain(['trackers', 'onboarding', '--jq', '.', '-o', 'csv'], { env });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('cannot be used with -o csv');
    expect((await runMain(['trackers', 'onboarding', '--jq', '.', '-o', 'json'], { env })).code).toBe(0);
    const rt = await runMain(['trackers', 'onboarding', '--jq', '.[0].stage + 1'], { env });
    expect(rt.code).toBe(1);
    expect(rt.stderr).toContain('--jq failed');
  });
});
