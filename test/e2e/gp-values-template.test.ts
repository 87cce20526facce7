// a values file to start from. `gp template --values` writes
// the form as a JSON skeleton; filled in, `gp create --from-file` takes it
// (choices by title too, the value sent); left unfilled, it fails field by
// field; a values file that does not exist says how to make one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectCode, runCli } from '../helpers/cli.js';
import { recorderEnv, type GpRecorder } from '../helpers/gp-recorder.js';

const ENTITY = 'Acme Deutschland GmbH';
const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'), 'utf8')) as Record<string, Record<string, unknown>>;

let rec: GpRecorder;
let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;
let skeleton: Record<string, unknown>;

beforeAll(async () => {
  ({ rec, env, dir, close } = await recorderEnv(ENTITY));
  const r = await runCli(['gp', 'template', '--entity', ENTITY, '--values'], { env, timeoutMs: 20_000 });
  expectCode(r, 0);
  skeleton = JSON.parse(r.stdout);
}, 30_000);
afterAll(async () => close?.());

/** The skeleton with the fixture's values put in its placeholders (the rest left as placeholders), plus `edit`. */
function filled(edit: (v: Record<string, Record<string, unknown>>) => void): string {
  const v = structuredClone(skeleton) as Record<string, Record<string, unknown>>;
  for (const [section, fields] of Object.entries(FIXTURE)) for (const [k, x] of Object.entries(fields)) v[section]![k] = x;
  edit(v);
  const file = join(dir, `values-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(v, null, 2));
  return file;
}

const sent = (from: number) => rec.requests.slice(from).filter((q) => q.method !== 'GET');

describe('gp template --values', () => {
  it('writes every field of the form at its place, with its kind, choices and whether it is required', () => {
    expect(skeleton.entity).toBe(ENTITY);
    const legal = skeleton.legal as Record<string, unknown>;
    expect(legal.taxClass).toMatch(/^<fill in: Tax class \(Steuerklasse\): required; select; one of: 1 \(I — single\), 2 \(II — single parent\)/);
    expect(legal.healthInsurance).toMatch(/^<fill in: Health insurance: optional; select; one of: TK, AOK/);
    expect(legal.children).toEqual([{ firstName: expect.stringMatching(/^<fill in: /), dateOfBirth: expect.stringMatching(/date/) }]);
    for (const section of Object.keys(FIXTURE)) expect(skeleton).toHaveProperty(section);
  });

  it('refuses -o csv with --values', async () => {
    const r = await runCli(['gp', 'template', '--entity', ENTITY, '--values', '-o', 'csv'], { env, timeoutMs: 20_000 });
    expectCode(r, 2);
    expect(r.stderr).toContain('--values writes JSON');
  });

  it('left unfilled, gp create fails naming each required field; nothing is sent', async () => {
    const file = join(dir, 'unfilled.json');
    writeFileSync(file, JSON.stringify(skeleton));
    const before = rec.requests.length;
    const r = await runCli(['gp', 'create', '--entity', ENTITY, '--from-file', file], { env, timeoutMs: 20_000 });
    expectCode(r, 2);
    // stderr is not a terminal: the error is JSON, one entry per field.
    const details = (JSON.parse(r.stderr) as { error: { details: { field: string; message: string }[] } }).error.details;
    expect(details).toContainEqual({ field: 'legal.taxClass', message: 'Tax class (Steuerklasse) is required' });
    expect(details).toContainEqual({ field: 'personal.firstName', message: 'First name is required' });
    expect(details.some((d) => d.field.startsWith('address.') || d.field === 'legal.healthInsurance')).toBe(false);
    expect(r.stderr).not.toMatch(/<fill in/);
    expect(sent(before)).toEqual([]);
  });

  it('filled in (choices by title, optional placeholders left), it sends exactly what the plain values file sends', async () => {
    let before = rec.requests.length;
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(FIXTURE));
    expectCode(await runCli(['gp', 'create', '--entity', ENTITY, '--from-file', plain], { env, timeoutMs: 20_000 }), 0);
    const expected = sent(before).map((q) => ({ method: q.method, body: q.body }));
    expect(expected.map((q) => q.method)).toEqual(['POST', 'PATCH']);

    before = rec.requests.length;
    const file = filled((v) => {
      v.legal!.taxClass = 'I';
      v.legal!.denomination = 'Protestant';
      v.employment!.type = 'Employee';
    });
    const r = await runCli(['gp', 'create', '--entity', ENTITY, '--from-file', file], { env, timeoutMs: 20_000 });
    expectCode(r, 0);
    const got = sent(before).map((q) => ({ method: q.method, body: q.body }));
    expect(got).toEqual(expected);
    expect(JSON.stringify(got)).toContain('"taxClass":1');
    expect(JSON.stringify(got)).not.toMatch(/fill in|Protestant/);
  });

  it('a choice by its full title in JSON is taken too, the value sent', async () => {
    const before = rec.requests.length;
    const file = filled((v) => {
      v.legal!.taxClass = 'III — married, higher earner';
      v.employment!.workEmail = 'ada.title@acme.example';
    });
    expectCode(await runCli(['gp', 'create', '--entity', ENTITY, '--from-file', file], { env, timeoutMs: 20_000 }), 0);
    const bodies = JSON.stringify(sent(before).map((q) => q.body));
    expect(bodies).toContain('"taxClass":3');
  });
});

describe('gp create --from-file FILE that does not exist', () => {
  it('hints at gp template --values', async () => {
    const r = await runCli(['gp', 'create', '--entity', ENTITY, '--from-file', join(dir, 'values.json')], { env, timeoutMs: 20_000 });
    expectCode(r, 2);
    expect(r.stderr).toContain('no such file');
    expect(r.stderr).toContain(`partner gp template --entity NAME --values > ${join(dir, 'values.json')}`);
  });
});
