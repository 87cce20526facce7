import { describe, expect, it } from 'vitest';
import { template } from '../../../../src/commands/gp/template.js';
import { runInProcess } from '../../../helpers/command.js';

// A hostile schema: a title that is a formula, one carrying escape sequences.
const doc = {
  type: 'object',
  properties: {
    personal: {
      type: 'object',
      title: 'Personal',
      properties: {
        firstName: { type: 'string', title: '=HYPERLINK("http://x")' },
        nick: { type: 'string', title: 'Nick\u001b]52;c;Zm9v\u0007name\u001b[2J' },
      },
      required: ['firstName'],
    },
  },
};
const stub = (api: import('nock').Scope) => api.get('/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=Acme+GmbH').reply(200, doc);

describe('gp template (in-process, stubbed HTTP)', () => {
  it('a header of dot paths and a "#" row describing each; a title that is a formula is not live in the file', async () => {
    const r = await runInProcess(template, [], { entity: 'Acme GmbH' }, { stub });
    const [header, described] = r.out.split('\r\n');
    expect(header).toBe('personal.firstName,personal.nick');
    expect(described).toMatch(/^"# =HYPERLINK\(""http:\/\/x""\): required; text",/);
    expect(r.err).toMatch(/2 columns\. Fill one row per employee/);
  });

  it('the description cells: formulas neutralised unless --csv-raw; on a terminal no escape sequence is written', async () => {
    const noHash = { ...doc, properties: { personal: { ...doc.properties.personal, properties: { a: { type: 'string', title: 'A' }, b: { type: 'string', title: '=1+1' } } } } };
    const stub2 = (api: import('nock').Scope) => api.get(/dynamic-details\/schema/).reply(200, noHash);
    expect((await runInProcess(template, [], { entity: 'Acme GmbH' }, { stub: stub2 })).out).toContain(",'=1+1: optional; text");
    expect((await runInProcess(template, [], { entity: 'Acme GmbH', csvRaw: true }, { stub: stub2 })).out).toContain(',=1+1: optional; text');
    const tty = await runInProcess(template, [], { entity: 'Acme GmbH' }, { stub, tty: true });
    expect(tty.out).not.toMatch(/\u001b/);
    expect(tty.out).toContain('Nickname');
  });

  it('-o json lists the columns and their descriptions', async () => {
    const r = await runInProcess(template, [], { entity: 'Acme GmbH', output: 'json' }, { stub });
    expect(JSON.parse(r.out).map((c: { column: string }) => c.column)).toEqual(['personal.firstName', 'personal.nick']);
  });
});
