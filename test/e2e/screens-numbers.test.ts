// #32 item 4 on a real terminal at 80 columns: numbers in human text are
// grouped one way ("Page 1 of 3,346 · 3,346 employees"), while JSON keeps
// the plain numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { hasScript } from '../helpers/pty.js';
import { isolatedEnv, runCli, runOnTerminal, tempDir } from '../helpers/cli.js';

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
    const json = await runCli(['employees', 'list', '--page-size', '1', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout).pagination).toMatchObject({ totalPages: 3346, totalItems: 3346 });
  });

  it('past the last page, the figures are grouped too', async () => {
    const shown = await runOnTerminal(['employees', 'list', '--page-size', '1', '--page', '5000', '--no-pager'], { env, columns: 80 });
    expect(shown).toMatch(/No employees on page 5,000; the last page is 3,346 \(3,346 employees\)\./);
  });
});
