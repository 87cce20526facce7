// The launcher, bin/partner.js, spawned: a bare --version and help are answered
// before the CLI proper loads, everything else goes to main. The tests that
// check arguments, usage errors and rendering run the CLI in-process
// (test/helpers/main-in-process.ts follows the launcher's steps); here both
// paths must answer alike, byte for byte, so those tests say what a person gets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, sandboxEnv, waitFor } from '../helpers/cli.js';
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

describe('the in-process harness leaves nothing behind', () => {
  it('no signal handler, no listening server (--sandbox starts one in-process), no exit code', async () => {
    const listeners = () => ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = { listeners: listeners(), servers: servers(), exitCode: process.exitCode };
    for (const args of [['--sandbox', 'employees', 'list', '--page-size', '2'], ['employees', 'list', '--page', '0'], ['--sandbox', 'employees', 'list', '--jq', '.data[0].id']]) {
      const r = await runMain(args, { env });
      expect(r.code === 0 || r.code === 2, r.stderr).toBe(true);
      expect(r.stdout + r.stderr).not.toBe('');
    }
    expect(listeners()).toEqual(before.listeners);
    // A closed server's handle is released on the next turns of the event loop.
    await waitFor(() => servers() === before.servers, 2000);
    expect(process.exitCode).toBe(before.exitCode);
  });
});
