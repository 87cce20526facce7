import { describe, expect, it } from 'vitest';
import { submit } from '../../../../src/commands/dynamic-details/submit.js';
import { submitRun } from '../../../../src/commands/dynamic-details/submit.run.js';
import { parserFor } from '../../../helpers/parse.js';
import { scripted } from '../../forms/scripted.js';
import { answerWith, ctxFor, ID, writes } from '../form-server.js';

describe('dynamic-details submit with a scripted prompter', () => {
  it('asks only the dynamic sections and PATCHes them', async () => {
    answerWith([{ status: 204 }]);
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'later note'],
      [/^What next/, 'Submit'],
    ]);
    const { io, ctx } = ctxFor();
    expect(await submitRun(parserFor(submit)([ID], {}), ctx, p)).toBe(0);
    await ctx.cleanup();
    expect(p.asked).toEqual(['Fill in Section B? (optional)', 'Note (optional)', 'What next?']);
    expect(writes()).toEqual([{ method: 'PATCH', url: `/v1/employees/${ID}/dynamic-details`, body: { b: { note: 'later note' } } }]);
    expect(io.err()).toContain('Dynamic details saved for X-1');
  });
});
