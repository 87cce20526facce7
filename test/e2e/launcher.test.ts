// The launcher, bin/partner.js, spawned: a bare --version and help are answered
// before the CLI proper loads, everything else goes to main. The tests that
// check arguments, usage errors and rendering run the CLI in-process
// (test/helpers/main-in-process.ts follows the launcher's steps); here both
// paths must answer alike, byte for byte, so those tests say what a person gets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
});

afterAll(async () => {
  await close?.();
});

describe('bin/partner.js', () => {
  it('--version and -V print the version of package.json, alone on a line', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it.concurrent.each([
    [['--version']],
    [[]],
    [['--help']],
    [['employees']],
    [['employees', 'list', '--help']],
    [['help', 'gp', 'create']],
    [['help', 'globals']],
    [['help', '-o', 'json']],
    [['help', 'employes']],
    [['employes', 'list']],
    [['employees', 'list', '--page', '0']],
    [['employees', 'list', '--page-size', '2', '-o', 'json']],
    [['--no-color', 'trackers', 'onboarding', '--fields', 'nope']],
  ])('partner %j answers as the in-process harness does', async (args) => {
    const [spawned, inProcess] = await Promise.all([runCli(args, { env }), runMain(args, { env })]);
    expect(spawned.signal).toBeNull();
    expect(inProcess).toEqual(spawned);
  });
});
