// a draft is
// never lost by declining it. Answering "No" to "A draft … exists. Continue
// it?" and pressing Ctrl-C at the first question keeps the earlier draft (and
// says so, not "Your answers are saved"); since a new answer
// starts a draft of its own beside it (it used to replace it).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { screenOf } from '../helpers/screen.js';
import { CTRL_C, ENTER, hasScript, Pty } from '../helpers/pty.js';

const IND = 'Acme India Pvt Ltd';
const ESC = '\x1b';

let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
const ptys: Pty[] = [];
const pty = (args: string[]) => {
  const p = new Pty(args, env);
  ptys.push(p);
  return p;
};
const draftsDir = () => join(dir.path, 'config', 'drafts');
const onlyDraft = () => {
  const files = readdirSync(draftsDir());
  expect(files).toHaveLength(1);
  return JSON.parse(readFileSync(join(draftsDir(), files[0]), 'utf8')) as { answers: unknown; savedAt: string };
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm' });
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await sandbox.close();
  dir.cleanup();
});

describe.skipIf(!hasScript)('declining a draft through a pseudo-terminal', () => {
  it('"No", then Ctrl-C at the first question: the earlier draft is kept and the message says so; a new answer starts a second draft', async () => {
    const first = pty(['gp', 'create', '--entity', IND]);
    await first.answer(/\? First name/, `Meera${ENTER}`);
    await first.answer(/\? Middle name \(optional\)/, CTRL_C);
    expect(await first.done).toBe(130);
    const earlier = onlyDraft();
    expect(earlier.answers).toEqual({ personal: { firstName: 'Meera' } });

    const declined = pty(['gp', 'create', '--entity', IND]);
    await declined.answer(new RegExp(`A draft for ${IND} \\(saved (just now|\\d+ min ago), \\d\\d:\\d\\d\\) exists\\. Continue it\\?`), `n${ENTER}`);
    await declined.expect(/Starting a new draft\. The draft saved (just now|\d+ min ago), \d\d:\d\d is kept/);
    await declined.answer(/\? First name/, CTRL_C);
    expect(await declined.done).toBe(130);
    // when, for a person (local time, how long ago), of that draft.
    const at = new Date(earlier.savedAt);
    const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    expect(declined.out).toMatch(new RegExp(`Nothing new was answered: the draft saved (just now|\\d+ min ago), ${hhmm} is kept\\.`));
    expect(declined.out).not.toMatch(/\d{4}-\d\d-\d\dT\d\d/);
    expect(declined.out).not.toContain('Your answers are saved');
    expect(onlyDraft()).toEqual(earlier);

    const replaced = pty(['gp', 'create', '--entity', IND]);
    await replaced.answer(/Continue it\?/, `n${ENTER}`);
    await replaced.answer(/\? First name/, `Ravi${ENTER}`);
    await replaced.answer(/\? Middle name \(optional\)/, CTRL_C);
    expect(await replaced.done).toBe(130);
    expect(replaced.out).toContain('Your answers are saved.');
    const both = readdirSync(draftsDir()).map((f) => JSON.parse(readFileSync(join(draftsDir(), f), 'utf8')) as { answers: unknown; savedAt: string });
    expect(both.map((d) => d.answers)).toEqual(expect.arrayContaining([{ personal: { firstName: 'Meera' } }, { personal: { firstName: 'Ravi' } }]));
    expect(both).toHaveLength(2);
    expect(both).toContainEqual(earlier);
  }, 60_000);
});

describe.skipIf(!hasScript)('Esc in the wizard, on screen', () => {
  it('the abandoned choice list is erased, and the answer asked again shows once', async () => {
    const fresh = tempDir();
    const e = isolatedEnv(fresh.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm' });
    const p = new Pty(['gp', 'create', '--entity', IND], e);
    ptys.push(p);
    try {
      await p.answer(/\? First name/, `Meera${ENTER}`);
      await p.answer(/\? Middle name \(optional\)/, ENTER);
      await p.answer(/\? Last name/, `Iyer${ENTER}`);
      await p.answer(/\? Date of birth/, `1988-08-08${ENTER}`);
      await p.answer(/\? Gender/, ENTER);
      await p.expect(/\? Marital status/);
      const choices = /\? Marital status[^\n]*\n((?:.*\n){2})/.exec(p.out.slice(p.out.lastIndexOf('? Marital status')));
      expect(choices).not.toBeNull();
      await new Promise((r) => setTimeout(r, 50));
      p.send(ESC);
      await p.answer(/\? Gender/, ENTER);
      await p.expect(/\? Marital status/);
      await new Promise((r) => setTimeout(r, 100));
      const screen = screenOf(p.raw).join('\n');
      expect(screen.match(/✔ Gender/g)).toHaveLength(1);
      expect(screen.match(/\? Marital status/g)).toHaveLength(1);
      expect(screen).toMatch(/✔ Date of birth[^\n]*1988-08-08\n(.*\n)?✔ Gender/);
      p.send(CTRL_C);
      expect(await p.done).toBe(130);
    } finally {
      fresh.cleanup();
    }
  }, 60_000);
});
