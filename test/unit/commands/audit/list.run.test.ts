// `audit list` as a table: who, what, whom at 80 columns (time, outcome,
// method, the employee's code else its id, the command, the status), the path
// when there is room; and what could not be read, said on stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { list } from '../../../../src/commands/audit/list.js';
import { AuditLog } from '../../../../src/audit/log.js';
import { runInProcess } from '../../../helpers/command.js';

const CREATED = '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a';
const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const SCOPE = { profile: 'production', baseUrl: 'https://api.example.com', command: 'partner gp create', user: 'zoe' };
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-audit-list-'));
  const log = new AuditLog({ dir: join(dir, 'state'), now: () => Date.now() - 5 * 60_000 });
  // A create (its 201 names the new employee's id and code), then its PATCH; a submit of another employee; one unanswered.
  log.sent(SCOPE, 'POST', '/v1/employees/gp-employments').answered(201, 'c-1', Buffer.from(JSON.stringify({ id: CREATED, employeeCode: 'ACME-00046' })));
  log.sent(SCOPE, 'PATCH', `/v1/employees/${CREATED}/dynamic-details`).answered(204, 'c-2', undefined);
  log.sent({ ...SCOPE, command: 'partner dynamic-details submit' }, 'PATCH', `/v1/employees/${OTHER}/dynamic-details`).failed(Object.assign(new Error('x'), { code: 'TIMEOUT' }));
  log.sent({ ...SCOPE, command: 'partner api' }, 'DELETE', '/v1/things/1');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const table = async (columns: number) => (await runInProcess(list, [], {}, { dir, tty: true, columns })).out;
const rows = (out: string) => out.split('\n').filter((l) => /^(just now|\d+ min ago)/.test(l));

describe('audit list (in-process)', () => {
  it('at 80 columns: time, outcome, method, employee (code, else id), command, status; no line wider than 80', async () => {
    const out = await table(80);
    const header = out.split('\n')[0]!;
    expect(header).toMatch(/^TIME +OUTCOME +METHOD +EMPLOYEE +COMMAND +STATUS\s*$/);
    const r = rows(out);
    expect(r).toHaveLength(4);
    expect(r[0]).toMatch(/ answered +POST +ACME-00046 +gp create +201$/);
    // The PATCH after the create is about the same employee: its code too.
    expect(r[1]).toMatch(/ answered +PATCH +ACME-00046 +gp create +204$/);
    // No code known: the id (cut to fit, from its start).
    expect(r[2]).toMatch(new RegExp(` failed +PATCH +${OTHER.slice(0, 8)}\\S* +dynamic-details \\S* *TIMEOUT$`));
    expect(r[3]).toMatch(/ unknown +DELETE +- +api +-$/);
    for (const l of out.split('\n')) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('wider: the path (then the user and the profile) when there is room', async () => {
    const out = await table(140);
    expect(out.split('\n')[0]).toMatch(/^TIME +OUTCOME +METHOD +EMPLOYEE +COMMAND +STATUS +PATH/);
    expect(rows(out)[0]).toMatch(/ 201 +\/v1\/employees\/gp-empl/);
    for (const l of out.split('\n')) expect(l.length).toBeLessThanOrEqual(140);
    const wide = await table(220);
    expect(wide.split('\n')[0]).toMatch(/STATUS +PATH +USER +PROFILE\s*$/);
    expect(rows(wide)[2]).toContain(`${OTHER}  `);
    expect(rows(wide)[2]).toContain(`/v1/employees/${OTHER}/dynamic-details`);
    expect(rows(wide)[0]).toMatch(/ zoe +production$/);
  });

  it('JSON keeps every field: the employee id and its code', async () => {
    const r = await runInProcess(list, [], { output: 'json' }, { dir });
    const entries = JSON.parse(r.out) as { employee: string | null; employeeCode: string | null; outcome: string }[];
    expect(entries.map((e) => [e.employee, e.employeeCode, e.outcome])).toEqual([
      [CREATED, 'ACME-00046', 'answered'],
      [CREATED, 'ACME-00046', 'answered'],
      [OTHER, null, 'failed'],
      [null, null, 'unknown'],
    ]);
    expect(r.err).toBe('');
  });
});
