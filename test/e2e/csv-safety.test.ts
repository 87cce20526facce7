// CSV that is safe on every screen and in every spreadsheet:
// on a pseudo-terminal no control character reaches the screen; in a file or
// a pipe the data is kept, and no cell is a live formula whatever its type.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 300 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox?.close();
  dir?.cleanup();
});

/** Stdout and stderr on one pseudo-terminal (util-linux `script`), 120 columns. */
function runInTty(args: string[]): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolvePromise, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], { env: { ...env, COLUMNS: '120' }, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
    child.stdin.end();
  });
}

// Everything a terminal may act on, but the CR LF line ends a pty writes (and tabs).
const CONTROL = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

describe.skipIf(!existsSync('/usr/bin/script'))('CSV on a terminal', () => {
  it('has no escape sequence or control character, although the data holds them', async () => {
    const piped = await runMain(['employees', 'list', '--page-size', '20', '-o', 'csv'], { env });
    // Piped, the escapes are shown as Control Pictures: visible, and harmless when printed.
    expect(piped.stdout).toContain('\u241b[31mEngineering\u241b[0m');
    expect(piped.stdout.match(CONTROL) ?? []).toEqual([]);
    const res = await runInTty(['employees', 'list', '--page-size', '20', '-o', 'csv']);
    expect(res.code).toBe(0);
    expect(res.output.match(CONTROL) ?? []).toEqual([]);
    expect(res.output).toContain('Engineering');
    expect(res.output).toContain('Product Designer');
    expect(res.output).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it('--all with --csv-raw: still nothing raw on the screen', async () => {
    const res = await runInTty(['employees', 'list', '--all', '--no-progress', '-o', 'csv', '--csv-raw']);
    expect(res.code).toBe(0);
    expect(res.output.match(CONTROL) ?? []).toEqual([]);
    expect(parse(res.output)).toHaveLength(301);
  });
});

describe('CSV in a file', () => {
  it('keeps the text with its control characters made visible (a grep of it must not clear the screen), and no live formula in any cell', async () => {
    const out = join(dir.path, 'employees.csv');
    const res = await runMain(['employees', 'list', '--all', '-o', 'csv', '--output-file', out], { env });
    expect(res.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('Product Designer\u241b[2J');
    expect(text.match(CONTROL) ?? []).toEqual([]);
    const rows = parse(text) as string[][];
    expect(rows).toHaveLength(301);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('--csv-raw keeps the data byte for byte', async () => {
    const out = join(dir.path, 'employees-raw.csv');
    const res = await runMain(['employees', 'list', '--all', '-o', 'csv', '--csv-raw', '--output-file', out], { env });
    expect(res.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('Product Designer\u001b[2J');
  });
});
