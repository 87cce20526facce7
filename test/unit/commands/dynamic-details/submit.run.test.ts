import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../../src/errors.js';
import { submit } from '../../../../src/commands/dynamic-details/submit.js';
import { submitRun } from '../../../../src/commands/dynamic-details/submit.run.js';
import { parserFor } from '../../../helpers/parse.js';
import { scripted } from '../../forms/scripted.js';
import { answerWith, auditRecords, ctxFor, drafts, ID, writes } from '../form-server.js';

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
    // The write's audit record went into the test's own state dir (HOME too is the test's: never the account's).
    expect(auditRecords().length).toBeGreaterThan(0);
    expect(auditRecords().join('\n')).toContain(ID);
    expect(io.err()).toContain('Dynamic details saved for X-1');
  });
});

describe('dynamic-details submit and an existing draft', () => {
  it('offers the draft; "No" then Ctrl-C at the first question keeps it as it was and says so', async () => {
    const first = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'kept note'],
      [/^What next/, 'Save the draft and quit'],
    ]);
    const a = ctxFor();
    expect(await submitRun(parserFor(submit)([ID], {}), a.ctx, first)).toBe(130);
    await a.ctx.cleanup();
    expect(drafts()).toHaveLength(1);
    const dir = join(a.ctx.env.PARTNER_CONFIG_DIR!, 'drafts');
    const before = readFileSync(join(dir, drafts()[0]), 'utf8');
    expect(JSON.parse(before).answers).toEqual({ b: { note: 'kept note' } });

    const declined = scripted([
      [/^A draft of X-1 \(saved (just now|\d+ min ago), \d\d:\d\d\) exists\. Continue it\?/, false],
      [/^Fill in Section B/, new InterruptedError()],
    ]);
    const b = ctxFor();
    await expect(submitRun(parserFor(submit)([ID], {}), b.ctx, declined)).rejects.toBeInstanceOf(InterruptedError);
    await b.ctx.cleanup();
    expect(declined.notes.join('\n')).toMatch(/Starting a new draft\. The draft saved (just now|\d+ min ago), \d\d:\d\d is kept/);
    // the command to see them stands on its own line.
    expect(declined.notes.join('\n')).toContain('is kept; see them with:\n  partner drafts list');
    expect(b.io.err()).toMatch(/Nothing new was answered: the draft saved (just now|\d+ min ago), \d\d:\d\d is kept/);
    expect(b.io.err()).not.toContain('Your answers are saved');
    expect(readFileSync(join(dir, drafts()[0]), 'utf8')).toBe(before);
    expect(writes()).toEqual([]);

    const resumed = scripted([
      [/Continue it\?/, true],
      [/^What next/, 'Submit'],
    ]);
    answerWith([{ status: 204 }]);
    const c = ctxFor();
    expect(await submitRun(parserFor(submit)([ID], {}), c.ctx, resumed)).toBe(0);
    await c.ctx.cleanup();
    expect(writes()).toEqual([{ method: 'PATCH', url: `/v1/employees/${ID}/dynamic-details`, body: { b: { note: 'kept note' } } }]);
    expect(drafts()).toEqual([]);
  });
});
