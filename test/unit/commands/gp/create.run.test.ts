import { describe, expect, it } from 'vitest';
import { create } from '../../../../src/commands/gp/create.js';
import { createRun } from '../../../../src/commands/gp/create.run.js';
import { parserFor } from '../../../helpers/parse.js';

/** Options as the command line gives them (the definition's own parsing). */
const options = (raw: Record<string, unknown>) => parserFor(create)([], raw);
import { scripted } from '../../forms/scripted.js';
import { answerWith, ctxFor, drafts, ID, requests, writes } from '../form-server.js';

describe('gp create with a scripted prompter', () => {
  it('a 422 is mapped to its question, asked again, and the corrected bodies are sent exactly', async () => {
    answerWith([
      { status: 422, body: { code: 'VALIDATION_ERROR', message: 'Request validation failed', error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details: [{ field: 'a.detail', message: 'is already used by another employee' }] } } },
      { status: 201, body: { id: ID, employeeCode: 'FX-0001', status: 'ONBOARDING' } },
      { status: 204 },
    ]);
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'dynamic note'],
      [/^Mode$/, 'Mode Y'],
      [/^Has a pet/, false],
      [/^Detail for Y$/, 'first try'],
      [/^Weekly/, ''],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^Detail for Y$/, 'second try'],
      [/^What next/, 'Submit'],
    ]);
    const { io, ctx } = ctxFor();
    const code = await createRun(options({ entity: 'Fixture Ltd', output: 'json' }), ctx, p);
    await ctx.cleanup();
    expect(p.left()).toEqual([]);
    expect(code).toBe(0);
    expect(p.notes.join('\n')).toContain('✗ Detail for Y is already used by another employee');
    expect(writes()).toEqual([
      { method: 'POST', url: '/v1/employees/gp-employments', body: { entity: 'Fixture Ltd', a: { mode: 'y', hasPet: false, detail: 'first try' } } },
      { method: 'POST', url: '/v1/employees/gp-employments', body: { entity: 'Fixture Ltd', a: { mode: 'y', hasPet: false, detail: 'second try' } } },
      { method: 'PATCH', url: `/v1/employees/${ID}/dynamic-details`, body: { b: { note: 'dynamic note' } } },
    ]);
    expect(requests()[0]!.url).toBe('/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=Fixture+Ltd');
    expect(JSON.parse(io.out())).toEqual({ id: ID, employeeCode: 'FX-0001', status: 'ONBOARDING' });
    expect(io.err()).toContain('Created FX-0001 (ONBOARDING)');
    expect(drafts()).toEqual([]);
  });

  it('a 409 is explained and the review comes back; quitting keeps the draft', async () => {
    answerWith([{ status: 409, body: { code: 'CONFLICT', message: 'resource already exists or state conflict' } }]);
    const p = scripted([
      [/^Fill in Section B/, false],
      [/^Mode$/, 'Mode X'],
      [/^Has a pet/, false],
      [/^Weekly/, '10'],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^What next/, 'Save the draft and quit'],
    ]);
    const { io, ctx } = ctxFor();
    const code = await createRun(options({ entity: 'Fixture Ltd' }), ctx, p);
    await ctx.cleanup();
    expect(code).toBe(130);
    expect(p.notes.join('\n')).toContain('An employee with these details already exists');
    expect(writes()).toHaveLength(1);
    expect(io.err()).toContain('partner gp create --entity "Fixture Ltd" --resume');
    expect(drafts()).toHaveLength(1);
  });

  it('when the PATCH is refused after the POST, only the dynamic questions are asked again', async () => {
    answerWith([
      { status: 201, body: { id: ID, employeeCode: 'FX-0002', status: 'ONBOARDING' } },
      { status: 422, body: { error: { details: [{ field: 'b.note', message: 'is too rude' }] } } },
      { status: 204 },
    ]);
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'rude'],
      [/^Mode$/, 'Mode X'],
      [/^Has a pet/, false],
      [/^Weekly/, ''],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^Note/, 'polite'],
      [/^What next/, 'Submit the dynamic details'],
    ]);
    const { ctx } = ctxFor();
    expect(await createRun(options({ entity: 'Fixture Ltd', output: 'json' }), ctx, p)).toBe(0);
    await ctx.cleanup();
    expect(p.left()).toEqual([]);
    expect(writes().map((w) => [w.method, w.body])).toEqual([
      ['POST', { entity: 'Fixture Ltd', a: { mode: 'x', hasPet: false } }],
      ['PATCH', { b: { note: 'rude' } }],
      ['PATCH', { b: { note: 'polite' } }],
    ]);
    expect(drafts()).toEqual([]);
  });
});


describe('the legal-entity picker', () => {
  it('offers the entities in collation order (lower case and accented names with their letter), not by code point', async () => {
    const entities = ['Zeta GmbH', 'acme Ltd', '\u00c9mile SA', 'beta AG', 'Delta Co', 'acme Ltd'];
    answerWith([{ status: 200, body: { data: entities.map((entity, i) => ({ id: `id-${i}`, entity })), pagination: { page: 1, pageSize: 100, total: entities.length } } }]);
    const p = scripted([[/^Legal entity$/, new Error('stop after the picker')]]);
    const offered: string[][] = [];
    const select = p.select.bind(p);
    p.select = (o) => {
      offered.push(o.choices.map((c) => c.name));
      return select(o);
    };
    const { ctx } = ctxFor();
    await expect(createRun(options({}), ctx, p)).rejects.toThrow('stop after the picker');
    await ctx.cleanup();
    // Code points would give Delta, Zeta, acme, beta, Émile.
    expect(offered).toEqual([['acme Ltd', 'beta AG', 'Delta Co', '\u00c9mile SA', 'Zeta GmbH', 'Another entity…']]);
  });
});
