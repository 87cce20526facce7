// Colour is decided per stream: with stdout on a terminal and stderr sent to
// a file, the file gets no escape codes; FORCE_COLOR colours a pipe; CI draws
// no progress bar.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, sandboxEnv } from '../helpers/cli.js';

let env: NodeJS.ProcessEnv;
let dirPath: string;
let close: () => Promise<void>;
let sandbox: import('../../src/sandbox/server.js').Sandbox;

beforeAll(async () => {
  ({ sandbox, env, dir: dirPath, close } = await sandboxEnv({ NO_COLOR: undefined, TERM: 'xterm-256color' }));
});

afterAll(async () => {
  await close?.();
});

const ID = '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a';

/** Runs a shell command under `script` (a pseudo-terminal); async, since the sandbox serves from this process. */
function underPty(cmd: string, e: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { env: e, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout });
    });
  });
}
const ESC = '\u001b[';

describe('colour per stream', () => {
  it('stdout on a terminal, stderr to a file: the warning in the file has no escape codes', async () => {
    const errFile = join(dirPath, 'err.txt');
    const cmd = `stty cols 120 rows 40; exec ${process.execPath} ${BIN} employees list --employee-id ${ID} --employee-code ACME-00001 2>${errFile}`;
    const r = await underPty(cmd, env);
    expect(r.status).toBe(0);
    // stdout was the terminal: a table with its footer (a pipe would get JSON).
    expect(r.stdout).toMatch(/Page 1 of 1/);
    const err = readFileSync(errFile, 'utf8');
    expect(err).toMatch(/warning: Both --employee-id and --employee-code were given/);
    expect(err).not.toContain(ESC);
  });

  it('FORCE_COLOR colours the warning on a pipe; a non-empty NO_COLOR wins over it', async () => {
    const args = ['employees', 'list', '--employee-id', ID, '--employee-code', 'ACME-00001'];
    const forced = await runCli(args, { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain(`${ESC}33mwarning:`);
    const off = await runCli(args, { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(off.stderr).not.toContain(ESC);
    const empty = await runCli(args, { env: { ...env, NO_COLOR: '' } });
    expect(empty.stderr).not.toContain(ESC); // a pipe: no colour anyway
  });

  it('CI draws no progress bar on a terminal', async () => {
    const run = (ci: boolean) => {
      const cmd = `stty cols 120 rows 40; exec ${process.execPath} ${BIN} employees list --all -o ndjson --page-size 5 >/dev/null`;
      return underPty(cmd, { ...env, ...(ci ? { CI: 'true' } : {}) });
    };
    // The same export on a terminal without CI draws the bar (the check can fail), with CI it does not.
    // Latency, so the export outlasts the half second before the bar is first drawn.
    sandbox.setFaults({ latencyMs: 400 });
    const plain = await run(false).finally(() => sandbox.setFaults({ latencyMs: 0 }));
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/Exporting \[/);
    const ci = await run(true);
    expect(ci.status).toBe(0);
    expect(ci.stdout).not.toMatch(/Exporting/);
  });

  it('draws no progress bar when the rows go down a pipe (the reader may be drawing on the terminal: | less, | head)', async () => {
    sandbox.setFaults({ latencyMs: 400 });
    const cmd = `stty cols 120 rows 40; ${process.execPath} ${BIN} employees list --all -o ndjson --page-size 5 | wc -l`;
    const piped = await underPty(cmd, env).finally(() => sandbox.setFaults({ latencyMs: 0 }));
    expect(piped.status).toBe(0);
    expect(piped.stdout).toMatch(/\b45\b/);
    expect(piped.stdout).not.toMatch(/Exporting/);
  });
});
