// The bulk sheet edited between runs: a row is known by
// what it is, not by its place. Against a recording server that does NOT
// keep work e-mails unique (a second POST of one person is a second
// employee) and against the sandbox (a second POST is a 409): deleting a
// refused row never sends a created one again and its id stays in the
// results; a sent row that changed stops the run before anything is sent
// (BULK_ROWS_CHANGED, exit 2); two rows of one employee are one too many.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, runCli, sandboxEnv } from '../helpers/cli.js';
import { recorderEnv, type GpRecorder } from '../helpers/gp-recorder.js';
import { BLANK, COMMENT, csvText, person, SWE, workEmail } from '../helpers/bulk-sheet.js';

const results = (path: string) => (parseCsv(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => [r.row, r.outcome, r.employeeId, r.employeeCode]);
const mailOf = (body: unknown) => (body as { employment?: { workEmail?: string } }).employment?.workEmail;

describe('against a server without e-mail uniqueness', () => {
  let rec: GpRecorder;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ rec, env, dir, close } = await recorderEnv(SWE));
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(() => {
    rec.refuse = () => undefined;
  });
  const create = (file: string, ...more: string[]) => runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, ...more], { env });
  const writes = () => rec.requests.filter((r) => r.method !== 'GET').length;
  const employeesOf = (mail: string) => rec.employees.filter((e) => e.workEmail === mail);

  it('the issue: row 2 refused (422), row 3 Bob created; row 2 deleted: Bob is not POSTed again and keeps his id (exit 0)', async () => {
    const refused = person('issue', 1);
    const bob = person('issue', 2, 'Bob');
    rec.refuse = (body) => (mailOf(body) === refused['employment.workEmail'] ? 422 : undefined);
    const file = join(dir, 'issue.csv');
    writeFileSync(file, csvText([refused, bob]));
    const first = await create(file);
    expectCode(first, 1);
    const created = employeesOf(bob['employment.workEmail']);
    expect(created).toHaveLength(1);
    expect(results(join(dir, 'issue.results.csv'))).toEqual([
      ['2', 'rejected', '', ''],
      ['3', 'created', created[0].id, created[0].employeeCode],
    ]);

    writeFileSync(file, csvText([bob]));
    const before = writes();
    const again = await create(file);
    expectCode(again, 0);
    expect(again.stderr).toContain('0 created, 1 created by an earlier run (of 1 rows).');
    expect(writes()).toBe(before);
    expect(employeesOf(bob['employment.workEmail'])).toHaveLength(1);
    expect(results(join(dir, 'issue.results.csv'))).toEqual([['2', 'already-created', created[0].id, created[0].employeeCode]]);
  });

  it('rows deleted, inserted, moved, blank and "#" rows between runs: each employee is created once, each row keeps its own outcome', async () => {
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map((i) => person('move', i));
    rec.refuse = (body) => (mailOf(body) === b['employment.workEmail'] ? 422 : undefined);
    const file = join(dir, 'move.csv');
    writeFileSync(file, csvText([a, b, c, d]));
    expectCode(await create(file), 1);
    const ids = new Map(rec.employees.map((x) => [x.workEmail, [x.id, x.employeeCode]]));
    const id = (r: Record<string, string>) => ids.get(r['employment.workEmail'])!;

    // B (refused) now accepted; D deleted; C moved up past a blank and a "#" row; E new, between them.
    rec.refuse = () => undefined;
    writeFileSync(file, csvText([c, BLANK, e, COMMENT, b, a]));
    const again = await create(file);
    expectCode(again, 0);
    expect(again.stderr).toContain('2 created, 2 created by an earlier run (of 4 rows).');
    for (const x of [a, b, c, d, e]) expect(employeesOf(x['employment.workEmail']), x['employment.workEmail']).toHaveLength(1);
    expect(results(join(dir, 'move.results.csv'))).toEqual([
      ['2', 'already-created', ...id(c)],
      ['4', 'created', ...employeeIds(e)],
      ['6', 'created', ...employeeIds(b)],
      ['7', 'already-created', ...id(a)],
    ]);
  });

  function employeeIds(r: Record<string, string>): string[] {
    const [x] = employeesOf(r['employment.workEmail']);
    return [x.id, x.employeeCode];
  }

  it('a sent row that changed stops the run before anything is sent: BULK_ROWS_CHANGED naming the rows, exit 2; put back, the run goes on', async () => {
    const [a, b, c] = [1, 2, 3].map((i) => person('chg', i));
    const file = join(dir, 'chg.csv');
    const journal = join(dir, 'chg.results.csv.journal');
    writeFileSync(file, csvText([a, b, c]));
    expectCode(await create(file), 0);

    // A deleted; B (row 3 when sent) now row 2 with another designation; C (row 4) row 3 with another work e-mail; D new.
    const d = person('chg', 4);
    const changedB = { ...b, 'employment.designation': 'Architect' };
    const changedC = { ...c, 'employment.workEmail': 'someone.else.chg@acme.example' };
    writeFileSync(file, csvText([changedB, changedC, d]));
    const before = writes();
    const r = await create(file, '-o', 'json');
    expectCode(r, 2);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string; hint: string } };
    expect(err.error.code).toBe('BULK_ROWS_CHANGED');
    expect(err.error.message).toBe(`2 rows of ${file} changed after the run recorded in ${journal} sent them: row 2 (employment.designation; row 3 when sent), row 3 (its work e-mail; row 4 when sent); nothing was sent`);
    expect(err.error.hint).toContain('put the row back as it was, or delete it from the sheet');
    expect(err.error.hint).toContain('pass another --results path');
    expect(writes()).toBe(before);

    // Put back (and moved): D is created, B and C are not sent again.
    writeFileSync(file, csvText([d, c, b]));
    const again = await create(file);
    expectCode(again, 0);
    expect(again.stderr).toContain('1 created, 2 created by an earlier run (of 3 rows).');
    for (const x of [a, b, c, d]) expect(employeesOf(x['employment.workEmail'])).toHaveLength(1);
    expect(employeesOf('someone.else.chg@acme.example')).toEqual([]);
  });

  it('two rows of one employee (one work e-mail, any case): the later one is invalid, never sent', async () => {
    const a = person('dup', 1);
    const again = { ...a, 'employment.workEmail': a['employment.workEmail'].toUpperCase(), 'personal.firstName': 'Other' };
    const file = join(dir, 'dup.csv');
    writeFileSync(file, csvText([a, person('dup', 2), a, again]));
    const r = await create(file);
    expectCode(r, 2);
    expect(r.stderr).toContain('Invalid rows (2 of 4; 2 problems):');
    expect(r.stderr).toContain('row 4, employment.workEmail: the same employee as row 2 (the same work e-mail): one row per employee');
    expect(r.stderr).toContain('row 5, employment.workEmail: the same employee as row 2 (the same work e-mail): one row per employee');
    const skip = await create(file, '--skip-invalid');
    expectCode(skip, 0);
    expect(employeesOf(workEmail('dup', 1))).toHaveLength(1);
    expect(results(join(dir, 'dup.results.csv')).map((x) => x.slice(0, 2))).toEqual([
      ['2', 'created'],
      ['3', 'created'],
      ['4', 'invalid'],
      ['5', 'invalid'],
    ]);
  });
});

describe('against the sandbox (work e-mails unique: a second POST is a 409)', () => {
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

  it('row 2 in conflict, row 3 Bob created; row 2 deleted: Bob is not POSTed again, his id stays in the results (exit 0)', async () => {
    const taken = { ...person('sbx', 1), 'employment.workEmail': 'priya.singh1@acme.example' }; // a seeded employee
    const bob = person('sbx', 2, 'Bob');
    const file = join(dir, 'sbx.csv');
    writeFileSync(file, csvText([taken, bob]));
    const first = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(first, 1);
    const [conflict, created] = results(join(dir, 'sbx.results.csv'));
    expect(conflict.slice(0, 2)).toEqual(['2', 'conflict']);
    expect(created.slice(0, 2)).toEqual(['3', 'created']);
    expect(created[2]).toMatch(/^[0-9a-f-]{36}$/);

    writeFileSync(file, csvText([bob]));
    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(again, 0);
    expect(again.stderr).not.toContain('conflict');
    expect(results(join(dir, 'sbx.results.csv'))).toEqual([['2', 'already-created', created[2], created[3]]]);
    expect(sandbox.requests.filter((q) => q.method === 'POST' && mailOf(q.body) === bob['employment.workEmail']).map((q) => q.status)).toEqual([201]);
  });
});
