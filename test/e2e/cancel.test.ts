// Cancel means cancel: Ctrl-C and Ctrl-D at every kind of prompt
// print "Cancelled." and exit 130; nothing half-done is saved, except the
// wizard's draft, whose resume command is printed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { CTRL_C, ENTER, hasScript, Pty } from '../helpers/pty.js';

const CTRL_D = '\x04';
let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;
const ptys: Pty[] = [];
const pty = (args: string[], e: NodeJS.ProcessEnv = env) => {
  const p = new Pty(args, { ...e, TERM: 'xterm' });
  ptys.push(p);
  return p;
};

beforeAll(async () => {
  ({ env, dir, close } = await sandboxEnv());
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await close?.();
});

describe.skipIf(!hasScript)('Ctrl-C and Ctrl-D at a prompt', () => {
  it.each([
    ['Ctrl-C', CTRL_C],
    ['Ctrl-D', CTRL_D],
  ])('%s at the token prompt of auth login: Cancelled., exit 130, nothing saved', async (_name, key) => {
    const e = { ...env, PARTNER_TOKEN: undefined, PARTNER_CONFIG_DIR: join(dir, `login-${key.charCodeAt(0)}`) };
    delete e.PARTNER_TOKEN;
    // --insecure-storage: no keyring runs here, and login finds that out before it prompts.
    const p = pty(['auth', 'login', '--base-url', 'https://api.example.com', '--insecure-storage'], e);
    await p.expect(/Token for api\.example\.com/);
    p.send(key);
    expect(await p.done).toBe(130);
    expect(p.out).toMatch(/Cancelled\.\n/);
    expect(p.out).not.toMatch(/bug in partner|unexpected failure/);
    // No profile and no token were saved (the config file may exist, empty).
    const file = join(e.PARTNER_CONFIG_DIR!, 'config.json');
    if (existsSync(file)) expect(JSON.parse(readFileSync(file, 'utf8')).profiles ?? {}).toEqual({});
  });

  it.each([
    ['Ctrl-C', CTRL_C],
    ['Ctrl-D', CTRL_D],
  ])('%s at the entity picker of gp create: Cancelled., exit 130', async (_name, key) => {
    const p = pty(['gp', 'create']);
    await p.expect(/Legal entity/);
    p.send(key);
    expect(await p.done).toBe(130);
    expect(p.out).toMatch(/Cancelled\.\n/);
  });

  it('Ctrl-D in the wizard keeps the draft and prints how to resume (exit 130)', async () => {
    const e = { ...env, PARTNER_CONFIG_DIR: join(dir, 'wizard') };
    const p = pty(['gp', 'create', '--entity', 'Acme Deutschland GmbH'], e);
    await p.answer(/\? First name/, `Ada${ENTER}`);
    await p.expect(/\? Middle name/);
    p.send(CTRL_D);
    expect(await p.done).toBe(130);
    expect(p.out).toMatch(/Continue with:\n {2}partner gp create --entity "Acme Deutschland GmbH" --resume/);
    expect(p.out).toMatch(/Cancelled\.\n/);
    expect(readdirSync(join(e.PARTNER_CONFIG_DIR, 'drafts')).length).toBe(1);
  });

  it('the resume command it prints keeps the flag that chose the server (--sandbox), and resumes', async () => {
    const e = { ...env, PARTNER_CONFIG_DIR: join(dir, 'wizard-sandbox'), PARTNER_BASE_URL: undefined, PARTNER_TOKEN: undefined };
    const p = pty(['--sandbox', 'gp', 'create', '--entity', 'Acme Deutschland GmbH'], e);
    await p.answer(/\? First name/, `Ada${ENTER}`);
    await p.expect(/\? Middle name/);
    p.send(CTRL_D);
    expect(await p.done).toBe(130);
    const printed = /Continue with:\n {2}partner (.+) --resume/.exec(p.out)?.[1];
    expect(printed).toBe('--sandbox gp create --entity "Acme Deutschland GmbH"');
    const r = pty(['--sandbox', 'gp', 'create', '--entity', 'Acme Deutschland GmbH', '--resume'], e);
    await r.expect(/Resuming the draft saved (just now|\d+ min ago), \d\d:\d\d \(/);
    await r.expect(/\? Middle name/);
    r.send(CTRL_D);
    expect(await r.done).toBe(130);
  });

  it.each([
    ['Ctrl-C', CTRL_C],
    ['Ctrl-D', CTRL_D],
  ])('%s at the webhook paste prompt: Cancelled., exit 130', async (_name, key) => {
    const p = pty(['webhook', 'verify', '-o', 'table']);
    await p.expect(/Paste the webhook JWS/);
    p.send(key);
    expect(await p.done).toBe(130);
    expect(p.out).toMatch(/Cancelled\.\n/);
    // On a line of its own, not after the prompt.
    expect(p.out).not.toMatch(/Paste the webhook JWS: [^\n]*Cancelled/);
  });
});
