// an export to stdout never exits 0 with the file cut. stdout on a
// file that cannot take the whole output (the file-size limit of `ulimit -f`,
// a full device) makes the command fail with one line naming the cause, for
// every command and for the launcher's own answers (--help, --version); a
// reader that went away (`| head`) stays a quiet exit 0.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, sandboxEnv } from '../helpers/cli.js';

let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ env, dir, close } = await sandboxEnv());
});

afterAll(async () => {
  await close?.();
});

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** Runs `partner ARGS` from a shell line (`ulimit`, redirections in `shell`); async: the sandbox serves from this process. */
function sh(shell: (cmd: string) => string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const cmd = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', shell(cmd)], { env, cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** `ulimit -f` counts 512-byte blocks: the largest limit below `bytes`, so that the last write is cut. */
const blocksBelow = (bytes: number) => Math.floor((bytes - 1) / 512);

function expectOneErrorLine(stderr: string, cause: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Error: Could not write the output to stdout: /);
  expect(lines[0]).toMatch(cause);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('stdout on a file that cannot take it all', () => {
  it.each([
    ['csv', ['-o', 'csv']],
    ['ndjson', ['-o', 'ndjson']],
  ])('employees list --all %s > FILE, the file-size limit reached inside the last write: exit 1 naming EFBIG', async (name, format) => {
    const whole = join(dir, `whole.${name}`);
    const args = ['employees', 'list', '--all', ...format];
    const full = await sh((cmd) => `exec ${cmd} > ${quote(whole)}`, args);
    expect(full.code, full.stderr).toBe(0);
    const size = statSync(whole).size;
    const cutPath = join(dir, `cut.${name}`);
    const limit = blocksBelow(size);
    const r = await sh((cmd) => `ulimit -f ${limit}; exec ${cmd} > ${quote(cutPath)}`, args);
    // The file holds what fitted, and the command says the output is incomplete.
    expect(statSync(cutPath).size).toBe(limit * 512);
    expect(statSync(cutPath).size).toBeLessThan(size);
    expect(r.code, r.stderr).toBe(1);
    if (name === 'csv') expectOneErrorLine(r.stderr, /EFBIG/);
    else {
      // -o ndjson: the error is one line of JSON (errors follow the data).
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      const doc = JSON.parse(r.stderr) as { error: { code: string; message: string; exitCode: number } };
      expect(doc.error.code).toBe('OUTPUT_WRITE');
      expect(doc.error.message).toMatch(/EFBIG/);
      expect(doc.error.exitCode).toBe(1);
    }
  });

  it('a limit far below the export (cut in an early write): exit 1, the walk stopped', async () => {
    const cutPath = join(dir, 'early.csv');
    const r = await sh((cmd) => `ulimit -f 2; exec ${cmd} > ${quote(cutPath)}`, ['employees', 'list', '--all', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(1);
    expectOneErrorLine(r.stderr, /EFBIG/);
    expect(readFileSync(cutPath).length).toBe(1024);
  });

  it.each([
    [['employees', 'list', '-o', 'csv']],
    [['--help']],
    [['employees', '--help']],
    [['help', 'employees', 'list']],
    [['--version']],
    [['version', '-o', 'table']],
    [['auth', 'status', '-o', 'table']],
    [['profile', 'get', 'ACME-00001', '-o', 'table']],
  ])('partner %j > /dev/full: one Error line naming ENOSPC, exit 1, no stack', async (args) => {
    const r = await sh((cmd) => `exec ${cmd} > /dev/full`, args);
    expect(r.code, r.stderr).toBe(1);
    expectOneErrorLine(r.stderr, /ENOSPC/);
  });

  it('a reader that goes away (| head) is still a quiet exit 0', async () => {
    // sh reports the last command of a pipe: the CLI's own status is written to a file.
    const status = join(dir, 'status');
    const r2 = await sh((cmd) => `{ ${cmd}; echo $? > ${quote(status)}; } | head -c 10 >/dev/null`, ['employees', 'list', '--all', '-o', 'csv']);
    expect(r2.stderr).toBe('');
    expect(readFileSync(status, 'utf8').trim()).toBe('0');
  });
});
