// On a real terminal at 80 columns: times read locally (HH:MM:SS
// on a listener line), and numbers in human text are
// grouped one way ("Page 1 of 3,346 · 3,346 employees"), while JSON keeps
// the plain numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CTRL_C, hasScript, Pty } from '../helpers/pty.js';
import { isolatedEnv, runOnTerminal, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 3346 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe.skipIf(!hasScript)('numbers for people', () => {
  it('the employees list footer groups its figures at 80 columns; JSON keeps the numbers', async () => {
    const shown = await runOnTerminal(['employees', 'list', '--page-size', '1', '--no-pager'], { env, columns: 80 });
    expect(shown).toMatch(/Page 1 of 3,346 · 3,346 employees · next: --page 2, or --all/);
    const json = await runMain(['employees', 'list', '--page-size', '1', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout).pagination).toMatchObject({ totalPages: 3346, totalItems: 3346 });
  });

  it('past the last page, the figures are grouped too', async () => {
    const shown = await runOnTerminal(['employees', 'list', '--page-size', '1', '--page', '5000', '--no-pager'], { env, columns: 80 });
    expect(shown).toMatch(/No employees on page 5,000; the last page is 3,346 \(3,346 employees\)\./);
  });
});

describe.skipIf(!hasScript)('times for people', () => {
  it('webhook listen on an 80-column terminal spends 8 columns on the local time; piped NDJSON keeps ISO 8601 UTC', async () => {
    const pty = new Pty(['webhook', 'listen', '--port', '0'], { ...env, TZ: 'Asia/Kolkata' }, { columns: 80, rows: 24 });
    try {
      await pty.expect(/Listening for webhooks on (\S+)/);
      const url = /Listening for webhooks on (\S+)/.exec(pty.out)![1]!;
      const emit = await runMain(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', url, '--data', '{"employeeCode":"TIME-0001"}', '-o', 'json'], { env });
      expect(emit.code, emit.stderr).toBe(0);
      await pty.expect(/TIME-0001/);
      const line = pty.out.split('\n').find((l) => l.includes('TIME-0001'))!;
      expect(line).toMatch(/^\d\d:\d\d:\d\d {2}200 {2}EMPLOYEE_CREATED {2}TIME-0001/);
      expect(line).not.toMatch(/\d{4}-\d\d-\d\dT/);
      pty.send(CTRL_C);
      expect(await pty.done).toBe(130);
    } finally {
      pty.kill();
    }
  });
});
