// --body-file --dry-run prints the body as it would be sent: its secret fields
// masked (unless --reveal) when the entity's form can be read, as every other
// view of form values is. Nothing is POSTed or PATCHed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../src/forms/secrets.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const ACCOUNT = '123456789012';
const PAN = 'PQRST6789K';
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, env, dir, close } = await sandboxEnv());
});

afterAll(async () => {
  await close();
});

const writes = () => sandbox.requests.filter((q) => q.method !== 'GET').length;

describe('gp create --body-file --dry-run', () => {
  const body = { entity: 'Acme India Pvt Ltd', personal: { firstName: 'Hand' }, bank: { accountHolderName: 'Hand', accountNumber: ACCOUNT, ifsc: 'HDFC0001234' } };

  it("masks the form's secret fields and says how to see them; --reveal shows them", async () => {
    const file = join(dir, 'create.json');
    writeFileSync(file, JSON.stringify(body));
    const before = writes();
    const r = await runMain(['gp', 'create', '--body-file', file, '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(ACCOUNT);
    expect(JSON.parse(r.stdout)).toEqual({ ...body, bank: { ...body.bank, accountNumber: SECRET_MASK } });
    expect(r.stderr).toMatch(/Dry run: nothing was sent\. Secret values \(Account number\) are shown as \*{8}; --reveal shows them\./);
    const shown = await runMain(['gp', 'create', '--body-file', file, '--dry-run', '--reveal'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(body);
    expect(writes()).toBe(before);
  });

  it('without credentials (no form to read) shows the body as written and says nothing was masked', async () => {
    const file = join(dir, 'create-offline.json');
    writeFileSync(file, JSON.stringify(body));
    const r = await runMain(['gp', 'create', '--body-file', file, '--dry-run'], { env: { ...env, PARTNER_TOKEN: undefined, PARTNER_BASE_URL: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(body);
    expect(r.stderr).toMatch(/Dry run: nothing was sent\. The entity's form could not be read, so no field is masked\./);
  });
});

describe('dynamic-details submit --body-file --dry-run', () => {
  it('masks PAN (maskSecret) in the PATCH body shown; nothing is sent', async () => {
    const page = (await (await fetch(`${sandbox.url}/v1/employees?pageSize=100`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } })).json()) as { data: { employeeCode: string; entity: string }[] };
    const employee = page.data.find((e) => e.entity === 'Acme India Pvt Ltd')!;
    const file = join(dir, 'patch.json');
    const patch = { legal: { pan: PAN, taxRegime: 'NEW', pfOptIn: false } };
    writeFileSync(file, JSON.stringify(patch));
    const before = writes();
    const r = await runMain(['dynamic-details', 'submit', employee.employeeCode, '--body-file', file, '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(PAN);
    expect(JSON.parse(r.stdout)).toEqual({ legal: { ...patch.legal, pan: SECRET_MASK } });
    expect(r.stderr).toMatch(/Secret values \(PAN\) are shown as \*{8}; --reveal shows them\./);
    expect(writes()).toBe(before);
  });
});
