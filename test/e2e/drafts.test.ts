// a draft belongs to the run that made it. A wizard's draft
// (Kurt, Ctrl-C after the first answer) survives a `--from-file` create for
// another person and a `--from-file` run that fails with 409 (whose values are
// kept as a draft of their own); `--resume` with two drafts asks which one on
// a terminal (newest first, the name typed and when) and is a usage error
// naming `--draft ID` elsewhere; `partner drafts list` and `drafts discard`
// show and remove them. Against the sandbox, through a pseudo-terminal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TOKENS, startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { expectCode } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { CTRL_C, DOWN, ENTER, hasScript, ptySessions, type Pty } from '../helpers/pty.js';

const DEU = 'Acme Deutschland GmbH';
const VALUES = join(import.meta.dirname, '../fixtures/forms/deu-values.json');

let sandbox: Sandbox;
const sessions = ptySessions(() => sandbox.url, SANDBOX_TOKENS.companyA);
let env: NodeJS.ProcessEnv;
let draftsDir: string;
let pty: (args: string[]) => Pty;
const files = () => readdirSync(draftsDir).sort();
const text = (f: string) => readFileSync(join(draftsDir, f), 'utf8');
interface Listed {
  id: string;
  command: string;
  entity: string;
  name: string | null;
  savedAt: string;
  resume: string;
}
const listed = async (): Promise<Listed[]> => {
  const r = await runMain(['drafts', 'list', '-o', 'json'], { env });
  expectCode(r, 0);
  return JSON.parse(r.stdout) as Listed[];
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const s = sessions.session();
  env = s.env;
  draftsDir = s.drafts;
  pty = s.start;
});

afterAll(async () => {
  sessions.close();
  await sandbox.close();
});

describe.skipIf(!hasScript)('a wizard draft next to scripted creates', () => {
  it('is never deleted or overwritten by --from-file; several drafts coexist, are picked, listed and discarded', async () => {
    const wizard = pty(['gp', 'create', '--entity', DEU]);
    await wizard.answer(/\? First name/, `Kurt${ENTER}`);
    await wizard.answer(/\? (Middle|Last) name/, CTRL_C);
    expect(await wizard.done).toBe(130);
    expect(files()).toHaveLength(1);
    const [kurtFile] = files();
    const kurt = text(kurtFile!);
    expect(JSON.parse(kurt).answers).toEqual({ personal: { firstName: 'Kurt' } });

    // Another person from a file: created; the wizard's draft is untouched.
    const created = await runMain(['gp', 'create', '--entity', DEU, '--from-file', VALUES], { env });
    expectCode(created, 0);
    expect(files()).toEqual([kurtFile]);
    expect(text(kurtFile!)).toBe(kurt);

    // The same file again: 409. Its values become a draft of their own; Kurt stays Kurt.
    const conflict = await runMain(['gp', 'create', '--entity', DEU, '--from-file', VALUES], { env });
    expectCode(conflict, 6);
    expect(text(kurtFile!)).toBe(kurt);
    expect(files()).toHaveLength(2);
    const drafts = await listed();
    expect(drafts.map((d) => d.name)).toEqual(['Ada Lovelace', 'Kurt']);
    const [ada, kurtDraft] = drafts as [Listed, Listed];
    // The command on a line of its own.
    expect(conflict.stderr).toContain(`Your values are kept as a draft (or fix the file and run again):\n  partner gp create --draft ${ada.id}\n`);
    expect(kurtDraft).toMatchObject({ command: 'gp create', entity: DEU, resume: `partner gp create --draft ${kurtDraft.id}` });

    // --resume with two drafts and no terminal: which one? Nothing is sent.
    const before = sandbox.requests.length;
    const ambiguous = await runMain(['gp', 'create', '--entity', DEU, '--resume', '--from-file', VALUES], { env });
    expectCode(ambiguous, 2);
    expect(ambiguous.stderr).toContain(`There are 2 drafts for ${DEU}`);
    expect(ambiguous.stderr).toContain('--draft ID');
    expect(ambiguous.stderr).toContain(ada.id);
    expect(ambiguous.stderr).toContain(kurtDraft.id);
    expect(sandbox.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);

    // On a terminal: a picker, newest first, with the name and when.
    const picker = pty(['gp', 'create', '--entity', DEU, '--resume']);
    await picker.expect(/Which draft for Acme Deutschland GmbH do you want to continue\?/);
    await picker.expect(/Kurt/);
    const shown = picker.out.slice(picker.out.lastIndexOf('Which draft'));
    expect(shown.indexOf('Ada Lovelace')).toBeLessThan(shown.indexOf('Kurt'));
    // When, for a person: how long ago and the local time, not an ISO stamp.
    expect(shown).toMatch(/saved (just now|\d+ min ago), \d\d:\d\d {2}Kurt {2}\[[0-9a-f]{8}\]/);
    expect(shown).not.toMatch(/\d{4}-\d\d-\d\dT\d\d/);
    picker.send(DOWN);
    await new Promise((r) => setTimeout(r, 100));
    picker.send(ENTER);
    await picker.expect(new RegExp(`Resuming the draft saved (just now|\\d+ min ago), \\d\\d:\\d\\d \\(${kurtDraft.id}\\)`));
    await picker.answer(/\? (Middle|Last) name/, CTRL_C);
    expect(await picker.done).toBe(130);
    expect(JSON.parse(text(kurtFile!)).answers).toEqual({ personal: { firstName: 'Kurt' } });

    // Discarded by id: only that one goes.
    const gone = await runMain(['drafts', 'discard', ada.id], { env });
    expectCode(gone, 0);
    expect(gone.stderr).toContain(`Discarded draft ${ada.id} (gp create, ${DEU}, Ada Lovelace).`);
    expect(files()).toEqual([kurtFile]);
    expectCode(await runMain(['drafts', 'discard', ada.id], { env }), 2);
    const all = await runMain(['drafts', 'discard', '--all'], { env });
    expectCode(all, 2);
    expect(all.stderr).toContain('pass --yes');
    expectCode(await runMain(['drafts', 'discard', '--all', '--yes'], { env }), 0);
    expect(files()).toEqual([]);

    // The last one gone, on a terminal: one message saying so, not "No results." as well.
    const empty = pty(['drafts', 'list']);
    expect(await empty.done).toBe(0);
    expect(empty.out.match(/No saved drafts\./g)).toHaveLength(1);
    expect(empty.out).not.toContain('No results.');
    expect((await runMain(['drafts', 'list', '-o', 'table'], { env })).stdout).toBe('No saved drafts.\n');
  }, 90_000);
});
