import { describe, expect, it } from 'vitest';
import { schema } from '../../../../src/commands/gp/schema.js';
import { runInProcess } from '../../../helpers/command.js';

const doc = { type: 'object', properties: { personal: { type: 'object', title: 'Personal', properties: { firstName: { type: 'string', title: 'First name' } }, required: ['firstName'] } } };

describe('gp schema (in-process, stubbed HTTP)', () => {
  const stub = (api: import('nock').Scope) => api.get('/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=Acme+GmbH').reply(200, doc);

  it('-o json prints what the server sent, byte for byte the same document', async () => {
    const r = await runInProcess(schema, [], { entity: 'Acme GmbH', output: 'json' }, { stub });
    expect(JSON.parse(r.out)).toEqual(doc);
  });

  it('the table lists each field with its section path', async () => {
    const r = await runInProcess(schema, [], { entity: 'Acme GmbH', output: 'table' }, { stub, tty: true });
    expect(r.out).toMatch(/personal\.firstName/);
  });

  it('--entity is required, before any request', async () => {
    await expect(runInProcess(schema, [], {})).rejects.toThrow(/--entity/);
  });
});
