// `partner help -o json --jq EXPR`: the filter applies to the command tree
// (it was ignored: the text help came back, exit 0); `help` refuses flags it
// does not have instead of answering with the overview. Runs in-process
// (runMain): only arguments and rendering are checked.
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const run = (args: string[]) => runMain(args, { env: isolatedEnv(dir.path), timeoutMs: 15_000 });

describe('partner help -o json --jq', () => {
  it('filters the document of the whole tree', async () => {
    const [whole, filtered] = await Promise.all([run(['help', '-o', 'json']), run(['help', '-o', 'json', '--jq', '[.commands[].name]'])]);
    expect(filtered.stderr).toBe('');
    expect(filtered.code).toBe(0);
    expect(JSON.parse(filtered.stdout)).toEqual(JSON.parse(whole.stdout).commands.map((c: { name: string }) => c.name));
  });

  it('filters the commands under a group, strings unquoted, one result per line', async () => {
    const r = await run(['help', 'trackers', '--jq', '.commands[].name', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('trackers onboarding\ntrackers offboarding\n');
  });

  it('--jq alone implies JSON, as on every other command', async () => {
    const r = await run(['help', 'employees', '--jq', '.commands | length']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\n');
  });

  it('an invalid filter, another format, an unknown flag or command: exit 2, nothing on stdout', async () => {
    const cases = await Promise.all([
      run(['help', '-o', 'json', '--jq', '.[']),
      run(['help', '-o', 'table']),
      run(['help', '--bogus']),
      run(['help', 'nothing', '-o', 'json', '--jq', '.']),
    ]);
    for (const r of cases) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(cases[0]!.stderr).toMatch(/Invalid --jq filter/);
    expect(cases[1]!.stderr).toMatch(/help -o takes json only \(got 'table'\)/);
    expect(cases[2]!.stderr).toMatch(/unknown option '--bogus'/);
    expect(cases[3]!.stderr).toMatch(/unknown command 'nothing'/);
  });
});
