// Errors for people when a person is reading: with stderr
// a terminal, errors are text whatever stdout is (piped, JSON, --jq), flag
// parser errors included; JSON errors only when stderr is not a terminal and
// the output is JSON or NDJSON (errors-json.test.ts). stderr is a real
// pseudo-terminal (util-linux script); stdout goes through `| cat`. The cases
// without a terminal run the CLI in-process (test/helpers/main-in-process.ts).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { hasScript, strip } from '../helpers/pty.js';

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
});

afterAll(async () => {
  await close?.();
});

/** Runs `partner ARGS | cat` with stderr (and cat's stdout) a terminal; what the terminal showed, and partner's exit code. */
function pipedOnTerminal(args: string[], extraEnv: Record<string, string> = {}): Promise<{ shown: string; code: number }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', `stty cols 200 rows 50; { ${quoted}; echo "exit=$?" >&2; } | cat`, '/dev/null'], { env: { ...env, ...extraEnv }, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const shown = strip(out);
      const m = /exit=(\d+)/.exec(shown);
      resolve({ shown: shown.replace(/exit=\d+\n?/, ''), code: m ? Number(m[1]) : -1 });
    });
    child.stdin!.end();
  });
}

describe.runIf(hasScript)('stderr a terminal, stdout piped', () => {
  it('employees list --page-size 500 | cat: a usage error is text, not JSON (exit 2)', async () => {
    const r = await pipedOnTerminal(['employees', 'list', '--page-size', '500']);
    expect(r.code).toBe(2);
    expect(r.shown).toMatch(/Error: --page-size must be a whole number from 1 to 100/);
    expect(r.shown).not.toMatch(/"error"/);
  });

  it('--bogus | cat: commander\'s own error is text (the README said so; it was JSON)', async () => {
    const r = await pipedOnTerminal(['employees', 'list', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.shown).toMatch(/Error: unknown option '--bogus'/);
    expect(r.shown).not.toMatch(/"error"/);
  });

  it('--jq .x -o csv on a terminal: text', async () => {
    const r = await pipedOnTerminal(['employees', 'list', '--jq', '.x', '-o', 'csv']);
    expect(r.code).toBe(2);
    expect(r.shown).toMatch(/Error: --jq works on JSON and cannot be used with -o csv/);
    expect(r.shown).not.toMatch(/"error"/);
  });

  it('a server error (401) with -o json is text for the person at stderr; stdout carries no error', async () => {
    const r = await pipedOnTerminal(['employees', 'list', '-o', 'json'], { PARTNER_TOKEN: 'wrong-token-123' });
    expect(r.code).toBe(3);
    expect(r.shown).toMatch(/Error: /);
    expect(r.shown).not.toMatch(/"error"/);
  });
});

describe('stderr not a terminal', () => {
  it('the same usage errors are one JSON object when the output is JSON, text with -o csv', async () => {
    const json = await runMain(['employees', 'list', '--page-size', '500'], { env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'INVALID_OPTION', exitCode: 2 } });
    const bogus = await runMain(['employees', 'list', '--bogus'], { env });
    expect(JSON.parse(bogus.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 2 } });
    const csv = await runMain(['employees', 'list', '--bogus', '-o', 'csv'], { env });
    expect(csv.stderr).toMatch(/^Error: unknown option '--bogus'/);
  });
});
