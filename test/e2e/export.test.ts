import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';

const EMPLOYEES = 3000;
let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: EMPLOYEES });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});

afterAll(async () => {
  await sandbox?.close();
  dir?.cleanup();
});


describe('employees list --all at scale', () => {
  it('prints the same bytes in the same order with --concurrency 1 and 8', async () => {
    const one = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--concurrency', '1'], { env, timeoutMs: 60_000 });
    const eight = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--concurrency', '8'], { env, timeoutMs: 60_000 });
    expect(one.code).toBe(0);
    expect(eight.code).toBe(0);
    const lines = eight.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(EMPLOYEES);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(EMPLOYEES);
    expect(eight.stdout).toBe(one.stdout);
    // Not a terminal: no progress bar, nothing at all on stderr.
    expect(eight.stderr).toBe('');
  });

  it('keeps CSV identical across concurrency too', async () => {
    const one = await runMain(['employees', 'list', '--all', '-o', 'csv', '--concurrency', '1', '--page-size', '37'], { env, timeoutMs: 60_000 });
    const many = await runMain(['employees', 'list', '--all', '-o', 'csv', '--concurrency', '32', '--page-size', '37'], { env, timeoutMs: 60_000 });
    expect(one.code).toBe(0);
    expect(many.stdout).toBe(one.stdout);
    expect(parse(many.stdout)).toHaveLength(EMPLOYEES + 1);
  });
});

describe('--output-file', () => {
  it('writes the file (0600) and nothing to stdout, leaving no temp file', async () => {
    const out = join(dir.path, 'ok', 'employees.ndjson');
    const d = join(dir.path, 'ok');
    await import('node:fs').then((fs) => fs.mkdirSync(d));
    const piped = await runMain(['employees', 'list', '--all', '-o', 'ndjson'], { env, timeoutMs: 60_000 });
    const res = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--output-file', out], { env, timeoutMs: 60_000 });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`Wrote 3,000 employees to ${out}\n`);
    expect(readFileSync(out, 'utf8')).toBe(piped.stdout);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(d)).toEqual(['employees.ndjson']);
  });

  it('says nothing on stderr with -q', async () => {
    const out = join(dir.path, 'ids.txt');
    const res = await runMain(['employees', 'list', '--all', '-q', '--limit', '250', '--output-file', out], { env });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(250);
  });

  it('defaults to JSON in a file, as when piped', async () => {
    const out = join(dir.path, 'page.json');
    const res = await runMain(['employees', 'list', '--page-size', '3', '--output-file', out], { env });
    expect(res.code).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { data: unknown[] };
    expect(doc.data).toHaveLength(3);
  });

  it('refuses a missing directory before sending anything (exit 2)', async () => {
    const before = sandbox.requests.length;
    const res = await runMain(['employees', 'list', '--all', '--output-file', join(dir.path, 'nope', 'x.csv')], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Cannot write --output-file');
    expect(res.stderr).toContain('the directory does not exist');
    expect(sandbox.requests.length).toBe(before);
  });

  it('leaves the previous file untouched and no temp file when the server goes down mid-walk', async () => {
    const down = await startSandbox({ employees: EMPLOYEES, latencyMs: 30 });
    const d = join(dir.path, 'down');
    await import('node:fs').then((fs) => fs.mkdirSync(d));
    const out = join(d, 'employees.csv');
    writeFileSync(out, 'the previous export\n');
    try {
      const run = runMain(['employees', 'list', '--all', '-o', 'csv', '--concurrency', '1', '--output-file', out], {
        env: { ...env, PARTNER_BASE_URL: down.url },
        timeoutMs: 60_000,
      });
      await waitFor(() => down.requests.length >= 4, { what: '4 requests to the failing server' });
      expect(readdirSync(d).some((f) => f.endsWith('.tmp'))).toBe(true);
      await down.close();
      const res = await run;
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('Could not reach');
      expect(readFileSync(out, 'utf8')).toBe('the previous export\n');
      expect(readdirSync(d)).toEqual(['employees.csv']);
    } finally {
      await down.close();
    }
  });

  it('leaves the previous file untouched on a bad answer', async () => {
    const out = join(dir.path, 'bad.ndjson');
    writeFileSync(out, 'kept\n');
    sandbox.injectFault({ kind: 'badjson', times: 1, path: '/v1/employees' });
    const res = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--output-file', out], { env });
    expect(res.code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('kept\n');
    expect(readdirSync(dir.path).filter((f) => f.startsWith('.bad.ndjson'))).toEqual([]);
  });

  it('on Ctrl-C: exit 130, previous file untouched, temp file removed', async () => {
    const slow = await startSandbox({ employees: EMPLOYEES, latencyMs: 100 });
    const d = join(dir.path, 'sigint');
    await import('node:fs').then((fs) => fs.mkdirSync(d));
    const out = join(d, 'employees.ndjson');
    writeFileSync(out, 'before\n');
    try {
      const child = spawn(process.execPath, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--concurrency', '1', '--output-file', out], {
        env: { ...env, PARTNER_BASE_URL: slow.url },
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await waitFor(() => slow.requests.length >= 3 && readdirSync(d).some((f) => f.endsWith('.tmp')), { what: '3 requests and a .tmp file' });
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toContain('Interrupted');
      // How far it got, and that the file was not replaced.
      const stopped = new RegExp(`Stopped after ([\\d,]+) employees; ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was left untouched\\.`).exec(stderr);
      expect(stopped).not.toBeNull();
      expect(Number(stopped![1]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(100);
      expect(readFileSync(out, 'utf8')).toBe('before\n');
      expect(readdirSync(d)).toEqual(['employees.ndjson']);
    } finally {
      await slow.close();
    }
  });
});

/** Runs the CLI with a pseudo-terminal (util-linux `script`): stdout and stderr are both the TTY. */
function runInTty(args: string[], ttyEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolvePromise, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], { env: { ...ttyEnv, COLUMNS: '120' }, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
    child.stdin.end();
  });
}

describe.skipIf(!existsSync('/usr/bin/script'))('progress bar', () => {
  it('is not drawn for an export shorter than half a second', async () => {
    const res = await runInTty(['employees', 'list', '--all', '--limit', '50', '-o', 'ndjson', '--output-file', join(dir.path, 'quick.ndjson')], env);
    expect(res.code).toBe(0);
    expect(res.output).not.toContain('Exporting');
    expect(res.output).toContain('Wrote 50 employees');
  });

  it('is drawn on a terminal and erased at the end', async () => {
    const out = join(dir.path, 'tty.ndjson');
    // Latency, so the export outlasts the half second before the bar is first drawn.
    const slow = await startSandbox({ employees: EMPLOYEES, latencyMs: 200 });
    const res = await runInTty(['employees', 'list', '--all', '-o', 'ndjson', '--output-file', out], { ...env, PARTNER_BASE_URL: slow.url }).finally(() => slow.close());
    expect(res.code).toBe(0);
    expect(res.output).toMatch(/Exporting .*\/30 pages · [\d,]+\/3,000 employees · [\d,]+\/s/);
    // Erased at the end, before the closing line: nothing of the bar is left behind it.
    expect(res.output.endsWith(`\r\x1b[2KWrote 3,000 employees to ${out}\r\n`)).toBe(true);
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(EMPLOYEES);
  });

  it('is not drawn with --no-progress', async () => {
    const res = await runInTty(['employees', 'list', '--all', '-o', 'ndjson', '--no-progress', '--output-file', join(dir.path, 'tty2.ndjson')], env);
    expect(res.code).toBe(0);
    expect(res.output).not.toContain('Exporting');
    expect(res.output).not.toContain('\x1b[2K');
  });
});
