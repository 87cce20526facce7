// On a real pseudo-terminal 40 columns wide: after Ctrl-C in the
// wizard the command to continue stands whole on its own line (the entity's
// name was wrapped and indented inside its quotes), and pasting it back runs
// the wizard again from the saved draft.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TOKENS, startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CTRL_C, ENTER, hasScript, ptySessions } from '../helpers/pty.js';

const DEU = 'Acme Deutschland GmbH';
let sandbox: Sandbox;
const sessions = ptySessions(() => sandbox.url, SANDBOX_TOKENS.companyA);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  sessions.close();
  await sandbox.close();
});

/** Words as a POSIX shell splits them (double quotes). */
const words = (line: string) => [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!));

describe.skipIf(!hasScript)('a command partner suggests, at 40 columns', () => {
  it('after Ctrl-C in the wizard: the whole command on its own line; pasted back, it continues the draft', async () => {
    const { start } = sessions.session();
    const first = start(['gp', 'create', '--entity', DEU], { columns: 40, rows: 30 });
    await first.answer(/\? First name/, `Kurt${ENTER}`);
    await first.answer(/\? Middle name \(optional\)/, CTRL_C);
    expect(await first.done).toBe(130);
    const lines = first.out.split('\n');
    const at = lines.findIndex((l) => /^\s*partner gp create /.test(l));
    expect(at, first.out).toBeGreaterThan(0);
    const line = lines[at]!.trim();
    expect(line).toBe(`partner gp create --entity "${DEU}" --resume`);
    expect(lines[at - 1]).toMatch(/Continue with:$/);

    const args = words(line).slice(1);
    expect(args).toEqual(['gp', 'create', '--entity', DEU, '--resume']);
    const again = start(args, { columns: 40, rows: 30 });
    // The draft's first answer is there: the wizard goes on at the question after it.
    await again.expect(/\? Middle name \(optional\)/);
    again.send(CTRL_C);
    expect(await again.done).toBe(130);
  });
});
