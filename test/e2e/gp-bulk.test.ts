// Bulk onboarding from a spreadsheet, end to end against the sandbox: the
// template, a valid file (exact POST and PATCH bodies per row), an invalid
// row (nothing sent; --skip-invalid), a 409 row, SIGINT and SIGKILL mid-run
// then a re-run that finishes with every employee created exactly once, and
// a PATCH failure finished by a re-run. Secret cells are never echoed.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, runCli, sandboxEnv, spawnCli } from '../helpers/cli.js';
import { hasScript, Pty } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait-for.js';

const SWE = 'Acme Sverige AB';
const IND = 'Acme India Pvt Ltd';

let sandbox: Sandbox;
let dir: string;
let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let header: string[];

beforeAll(async () => {
  ({ sandbox, env, dir, close } = await sandboxEnv());
  const t = await runCli(['gp', 'template', '--entity', SWE, '-o', 'csv'], { env });
  header = (parseCsv(t.stdout) as string[][])[0];
});

afterAll(async () => {
  await close?.();
});

const pnr = (i: number) => `19900101-${String(1000 + i)}`;

/** One valid row for employee i of a batch, as cells by column. */
function person(tag: string, i: number): Record<string, string> {
  return {
    'personal.firstName': `Test${i}`,
    'personal.lastName': `Bulk ${tag}`,
    'personal.dateOfBirth': '1990-01-01',
    'personal.gender': 'Female',
    'contact.personalEmail': `p${i}.${tag}@example.org`,
    'contact.languages': 'SV, EN',
    'employment.workEmail': `bulk${i}.${tag}@acme.example`,
    'employment.startDate': '2025-11-01',
    'employment.designation': 'Engineer',
    'employment.department': 'Data',
    'employment.term': 'PERMANENT',
    'employment.baseSalary': '52000',
    'tax.personnummer': pnr(i),
    'tax.taxTable': '32',
    'custom.costCenter': 'CC-4100',
  };
}

/** The bodies the sandbox must receive for person(tag, i). */
function bodies(tag: string, i: number) {
  return {
    post: {
      entity: SWE,
      personal: { firstName: `Test${i}`, lastName: `Bulk ${tag}`, dateOfBirth: '1990-01-01', gender: 'FEMALE' },
      contact: { personalEmail: `p${i}.${tag}@example.org`, languages: ['SV', 'EN'] },
      employment: { workEmail: `bulk${i}.${tag}@acme.example`, startDate: '2025-11-01', designation: 'Engineer', department: 'Data', term: 'PERMANENT', baseSalary: 52000 },
    },
    patch: { tax: { personnummer: pnr(i), taxTable: 32 }, custom: { costCenter: 'CC-4100' } },
  };
}

function writeCsv(name: string, rows: Record<string, string>[]): string {
  const esc = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [header.join(','), `# the description row is ignored,${header.slice(1).map(() => '').join(',')}`, ...rows.map((r) => header.map((c) => esc(r[c] ?? '')).join(','))];
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\r\n')}\r\n`);
  return p;
}

const posts = (email: string) => sandbox.requests.filter((q) => q.method === 'POST' && (q.body as { employment?: { workEmail?: string } } | undefined)?.employment?.workEmail === email);
const writes = () => sandbox.requests.filter((q) => q.method === 'POST' || q.method === 'PATCH').length;
const results = (path: string) => parseCsv(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

async function employeeByEmail(email: string): Promise<{ id: string; employeeCode: string }[]> {
  const out: { id: string; employeeCode: string; workEmail: string }[] = [];
  for (let page = 1; ; page++) {
    const r = (await (await fetch(`${sandbox.url}/v1/employees?pageSize=100&page=${page}`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } })).json()) as { data: typeof out; pagination: { hasNextPage: boolean } };
    out.push(...r.data);
    if (!r.pagination.hasNextPage) break;
  }
  return out.filter((e) => e.workEmail === email);
}

/** The PATCHes of one employee, by the id the sandbox gave it. */
const patchesOf = (id: string) => sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/v1/employees/${id}/dynamic-details`);

describe('gp template', () => {
  it('writes every field as a dot-path column (list entries numbered) and a "#" description row', async () => {
    const r = await runCli(['gp', 'template', '--entity', IND, '-o', 'csv'], { env });
    expectCode(r, 0);
    const [cols, desc] = parseCsv(r.stdout) as string[][];
    expect(cols.slice(0, 3)).toEqual(['personal.firstName', 'personal.middleName', 'personal.lastName']);
    expect(cols).toContain('legal.aadhaar');
    expect(cols.filter((c) => c.startsWith('legal.nominees.'))).toEqual(['legal.nominees.0.name', 'legal.nominees.0.relationship', 'legal.nominees.0.sharePercent', 'legal.nominees.1.name', 'legal.nominees.1.relationship', 'legal.nominees.1.sharePercent']);
    expect(desc[0]).toMatch(/^# First name: required; text/);
    expect(desc[cols.indexOf('legal.aadhaar')]).toMatch(/^Aadhaar number: optional; secret; never shown/);
    expect(desc[cols.indexOf('legal.uan')]).toMatch(/required when pfOptIn = true/);
    expect(header).toContain('tax.personnummer');
    const json = await runCli(['gp', 'template', '--entity', SWE, '-o', 'json'], { env });
    expect(JSON.parse(json.stdout).map((c: { column: string }) => c.column)).toEqual(header);
  });
});

describe('gp create --from-csv', () => {
  it('creates every row of a valid file: exact POST and PATCH bodies, a results CSV, secrets never echoed', async () => {
    const file = writeCsv('valid.csv', [1, 2, 3].map((i) => person('v', i)));
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 0);
    expect(r.stderr).toContain(`3 created (of 3 rows). Results: ${join(dir, 'valid.results.csv')}`);
    const rows = results(join(dir, 'valid.results.csv'));
    expect(rows.map((x) => [x.row, x.outcome, x.error])).toEqual([['3', 'created', ''], ['4', 'created', ''], ['5', 'created', '']]);
    for (const [n, i] of [1, 2, 3].entries()) {
      const want = bodies('v', i);
      const p = posts(want.post.employment.workEmail);
      expect(p.map((q) => [q.status, q.body])).toEqual([[201, want.post]]);
      expect(rows[n].employeeCode).toMatch(/^ACME-\d+$/);
      expect(patchesOf(rows[n].employeeId).map((q) => [q.status, q.body])).toEqual([[204, want.patch]]);
    }
    expect(`${r.stdout}${r.stderr}`).not.toContain('19900101-');
    expect(readFileSync(join(dir, 'valid.results.csv'), 'utf8')).not.toContain('19900101-');
    expect(readFileSync(join(dir, 'valid.results.csv.journal'), 'utf8')).not.toContain('19900101-');
    expect(statSync(join(dir, 'valid.results.csv.journal')).mode & 0o777).toBe(0o600);

    // Run again: nothing is created twice.
    const before = writes();
    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(again, 0);
    expect(again.stderr).toContain('0 created, 3 created by an earlier run (of 3 rows)');
    expect(writes()).toBe(before);
  });

  it('an invalid row: every problem listed by row and column and nothing sent; --skip-invalid creates the others', async () => {
    const bad = person('i', 2);
    bad['employment.workEmail'] = 'not-an-email';
    bad['tax.taxTable'] = '99';
    bad['tax.personnummer'] = '123-SECRET';
    delete bad['personal.lastName'];
    const file = writeCsv('invalid.csv', [person('i', 1), bad, person('i', 3)]);
    const before = writes();
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain('Invalid rows (1 of 3; 4 problems):');
    expect(r.stderr).toContain('row 4, personal.lastName: Last name is required');
    expect(r.stderr).toContain('row 4, employment.workEmail: Work e-mail must be an e-mail address');
    expect(r.stderr).toContain('row 4, tax.taxTable: Tax table must be at most 42');
    expect(r.stderr).toMatch(/row 4, tax\.personnummer: Personnummer /);
    expect(r.stderr).not.toContain('123-SECRET');
    expect(r.stderr).toContain('1 row is invalid; nothing was sent');
    expect(writes()).toBe(before);
    expect(existsSync(join(dir, 'invalid.results.csv'))).toBe(false);

    const skip = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--skip-invalid'], { env });
    expectCode(skip, 0);
    expect(skip.stderr).toContain('2 created, 1 invalid (of 3 rows)');
    expect(results(join(dir, 'invalid.results.csv')).map((x) => [x.row, x.outcome])).toEqual([['3', 'created'], ['4', 'invalid'], ['5', 'created']]);
    expect(posts('not-an-email')).toEqual([]);
    expect(posts(bodies('i', 3).post.employment.workEmail).map((q) => q.body)).toEqual([bodies('i', 3).post]);
  });

  it('a 409 is reported for its row and the other rows are still created', async () => {
    const dup = person('c', 2);
    dup['employment.workEmail'] = 'priya.singh1@acme.example'; // a seeded employee
    const file = writeCsv('conflict.csv', [person('c', 1), dup, person('c', 3)]);
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 1);
    expect(r.stderr).toMatch(/✗ row 4: conflict: 409 /);
    expect(r.stderr).toContain('2 created, 1 conflict (of 3 rows)');
    const rows = results(join(dir, 'conflict.results.csv'));
    expect(rows.map((x) => [x.row, x.outcome])).toEqual([['3', 'created'], ['4', 'conflict'], ['5', 'created']]);
    expect(rows[1].error).toMatch(/^409 .*already exists/);
    expect(posts(bodies('c', 3).post.employment.workEmail).map((q) => q.status)).toEqual([201]);
  });

  it('a PATCH failure is reported for its row; a re-run PATCHes it without creating it again', async () => {
    const file = writeCsv('patch.csv', [person('p', 1), person('p', 2)]);
    sandbox.injectFault({ kind: '500', times: 1, method: 'PATCH', path: /\/dynamic-details$/ });
    // One row at a time: the first PATCH the server sees (the one that fails) is row 3's.
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '1'], { env });
    expectCode(r, 1);
    const rows = results(join(dir, 'patch.results.csv'));
    expect(rows.map((x) => [x.row, x.outcome])).toEqual([['3', 'patch-failed'], ['4', 'created']]);
    expect(r.stderr).toContain('Rows whose dynamic details failed are finished by running the same command again');
    const id = rows[0].employeeId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(again, 0);
    expect(again.stderr).toContain('0 created, 2 created by an earlier run (of 2 rows)');
    expect(posts(bodies('p', 1).post.employment.workEmail).map((q) => q.status)).toEqual([201]);
    expect(patchesOf(id).map((q) => q.status)).toEqual([500, 204]);
    expect(patchesOf(id).at(-1)!.body).toEqual(bodies('p', 1).patch);
    expect(results(join(dir, 'patch.results.csv')).map((x) => [x.outcome, x.employeeId])).toEqual([['already-created', id], ['already-created', rows[1].employeeId]]);
  });

  it('a JSON Schema form with a list: numbered columns become the list, typed; the bodies are exact', async () => {
    const t = await runCli(['gp', 'template', '--entity', IND, '-o', 'csv'], { env });
    const cols = (parseCsv(t.stdout) as string[][])[0];
    const cells: Record<string, string> = {
      'personal.firstName': 'Meera', 'personal.lastName': 'Iyer', 'personal.dateOfBirth': '1988-08-08', 'personal.gender': 'Female', 'personal.nationality': 'IND',
      'contact.personalEmail': 'meera@example.org', 'contact.personalPhoneNumber': '+91 98765 43210',
      'employment.workEmail': 'meera.iyer.bulk@acme.example', 'employment.startDate': '2025-10-01', 'employment.designation': 'Data Scientist', 'employment.department': 'Data', 'employment.type': 'EMPLOYEE', 'employment.term': 'PERMANENT',
      'compensation.baseSalary': '1800000', 'compensation.currency': 'INR', 'compensation.payFrequency': 'MONTHLY',
      'legal.pan': 'PQRST6789K', 'legal.aadhaar': '987654321098', 'legal.taxRegime': 'NEW', 'legal.pfOptIn': 'yes', 'legal.uan': '100200300400',
      'legal.nominees.0.name': 'Ravi Iyer', 'legal.nominees.0.relationship': 'PARENT', 'legal.nominees.0.sharePercent': '60',
      'legal.nominees.1.name': 'Asha Iyer', 'legal.nominees.1.relationship': 'SIBLING', 'legal.nominees.1.sharePercent': '40',
      'customFields.costCenter': 'CC-7777', 'customFields.languages': 'EN, HI',
    };
    const file = join(dir, 'ind.csv');
    writeFileSync(file, `${cols.join(',')}\n${cols.map((c) => (cells[c] ?? '').replace(/^(.*,.*)$/, '"$1"')).join(',')}\n`);
    const r = await runCli(['gp', 'create', '--entity', IND, '--from-csv', file], { env });
    expectCode(r, 0);
    const [row] = results(join(dir, 'ind.results.csv'));
    const post = posts('meera.iyer.bulk@acme.example');
    expect(post.map((q) => q.status)).toEqual([201]);
    expect(post[0].body).toMatchObject({ entity: IND, personal: { firstName: 'Meera', gender: 'FEMALE' }, compensation: { baseSalary: 1800000, currency: 'INR', payFrequency: 'MONTHLY' } });
    expect((post[0].body as Record<string, unknown>).legal).toBeUndefined();
    expect(patchesOf(row.employeeId).map((q) => [q.status, q.body])).toEqual([
      [
        204,
        {
          legal: { pan: 'PQRST6789K', aadhaar: '987654321098', taxRegime: 'NEW', pfOptIn: true, uan: '100200300400', nominees: [{ name: 'Ravi Iyer', relationship: 'PARENT', sharePercent: 60 }, { name: 'Asha Iyer', relationship: 'SIBLING', sharePercent: 40 }] },
          customFields: { costCenter: 'CC-7777', languages: ['EN', 'HI'] },
        },
      ],
    ]);
    expect(r.stderr).not.toMatch(/PQRST6789K|987654321098/);
  });

  it.skipIf(!hasScript)('shows a progress bar on a terminal', async () => {
    const file = writeCsv('bar.csv', [person('bar', 1), person('bar', 2)]);
    const p = new Pty(['gp', 'create', '--entity', SWE, '--from-csv', file], { ...env, TERM: 'xterm' });
    try {
      expect(await p.done).toBe(0);
      expect(p.raw).toMatch(/Onboarding \[#+\] 100% · 2\/2 rows · 2 created/);
      expect(p.out).toContain('2 created (of 2 rows).');
    } finally {
      p.kill();
    }
  }, 30_000);

  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    it(`${signal} mid-run, then the same command again: every employee created exactly once, every body exact`, async () => {
      const tag = signal.toLowerCase();
      const n = 6;
      const file = writeCsv(`${tag}.csv`, Array.from({ length: n }, (_, i) => person(tag, i + 1)));
      const journal = join(dir, `${tag}.results.csv.journal`);
      sandbox.setFaults({ latencyMs: 120 });
      // One row in flight, so that rows are left to start when it stops (concurrency has its own tests).
      const run = spawnCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '1'], { env, timeoutMs: 30_000 });
      // Stop it once two rows are done and the next POST is in flight.
      await waitFor(
        () => {
          const text = existsSync(journal) ? readFileSync(journal, 'utf8') : '';
          return (text.match(/"state":"done"/g) ?? []).length >= 2 && text.trim().split('\n').at(-1)!.includes('"posting"');
        },
        { what: () => `two rows done and the next POST in flight:\n${run.stderr()}`, intervalMs: 10 },
      );
      await new Promise((r) => setTimeout(r, 40));
      run.child.kill(signal);
      const stopped = await run.done;
      sandbox.setFaults({ latencyMs: 0 });
      if (signal === 'SIGINT') {
        expect(stopped.code).toBe(130);
        expect(stopped.stderr).toContain('Run the same command again to finish; rows already created are not created again');
        const partial = results(join(dir, `${tag}.results.csv`));
        expect(partial.filter((x) => x.outcome === 'created').length).toBeGreaterThanOrEqual(2);
        expect(partial.some((x) => x.outcome === 'not-run')).toBe(true);
      } else expect(stopped.signal).toBe('SIGKILL');
      // A kill leaves the run's lock behind; the re-run takes it over (its process is gone).
      expect(existsSync(`${journal}.lock`)).toBe(signal === 'SIGKILL');

      const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
      expectCode(again, 0);
      expect(again.stderr).not.toContain('conflict');
      expect(existsSync(`${journal}.lock`)).toBe(false);
      const rows = results(join(dir, `${tag}.results.csv`));
      expect(rows.map((x) => x.outcome).every((o) => o === 'created' || o === 'already-created')).toBe(true);
      for (let i = 1; i <= n; i++) {
        const want = bodies(tag, i);
        const found = await employeeByEmail(want.post.employment.workEmail);
        expect(found.length, `employee ${i}`).toBe(1);
        // One POST per row over both runs: the one whose answer the stop lost (status 0) is found, not sent again.
        const sent = posts(want.post.employment.workEmail);
        expect(sent.map((q) => q.body)).toEqual([want.post]);
        expect([0, 201]).toContain(sent[0].status);
        expect(rows[i - 1].employeeId).toBe(found[0].id);
        const ok = patchesOf(found[0].id).filter((q) => q.status === 204);
        expect(ok.length, `PATCHes of employee ${i}`).toBeGreaterThanOrEqual(1);
        for (const q of ok) expect(q.body).toEqual(want.patch);
      }
    }, 60_000);
  }
});
