// Local state shared by concurrent processes and a damaged
// config file, against the built CLI: eight logins at once on one
// config keep every profile; a lock holding our own pid (a pid reused through
// exec), or the pid of a live process that is not partner, is taken over; a
// live partner holder is respected; a damaged config is named, exit 1.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, expectCode, isolatedEnv, ROOT, runCli, spawnCli, tempDir, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let n = 0;
/** A fresh isolated environment (its own config and cache dirs) per test. */
const freshEnv = (extra: Record<string, string | undefined> = {}) => isolatedEnv(join(dir.path, `t${++n}`), extra);
const cfgDir = (env: NodeJS.ProcessEnv) => env.PARTNER_CONFIG_DIR!;
const cfgFile = (env: NodeJS.ProcessEnv) => join(cfgDir(env), 'config.json');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

/** The error as a person reads it: the message and hint, also when it was written as JSON (piped output). */
function errorText(stderr: string): string {
  if (!stderr.trimStart().startsWith('{')) return stderr;
  const e = (JSON.parse(stderr) as { error: { message: string; hint?: string } }).error;
  return `${e.message}\n${e.hint ?? ''}`;
}

/** What doctor says about the config file. */
function doctorConfig(stdout: string): string {
  const checks = (JSON.parse(stdout) as { checks: { name: string; message: string; fix?: string }[] }).checks;
  const c = checks.find((x) => x.name === 'config file');
  return `${c?.message}\n${c?.fix}`;
}

/** `sh -c SCRIPT` with the CLI's environment; collects its output (the script exec's partner). */
function sh(script: string, env: NodeJS.ProcessEnv, timeoutMs = 20_000) {
  const child = spawn('sh', ['-c', script], { env: { ...env, BIN, NODE: process.execPath }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stderr: () => stderr, done };
}

describe('concurrent processes on one config (20.4)', () => {
  it('eight `auth login` at once, three rounds: every profile is kept, with its own token', async () => {
    for (let round = 0; round < 3; round++) {
      const env = freshEnv();
      const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
      const runs = await Promise.all(
        names.map((name) => runCli(['--profile', name, 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--no-verify', '--insecure-storage'], { env, input: `token-${name}-${round}-abcdefgh\n`, timeoutMs: 60_000 })),
      );
      for (const r of runs) expectCode(r, 0);
      const saved = JSON.parse(readFileSync(cfgFile(env), 'utf8')) as { activeProfile: string; profiles: Record<string, { token: string }> };
      expect(Object.keys(saved.profiles).sort(), `round ${round}`).toEqual(names);
      for (const name of names) expect(saved.profiles[name]).toEqual({ baseUrl: sandbox.url, token: `token-${name}-${round}-abcdefgh` });
      expect(names).toContain(saved.activeProfile);
      expect(statSync(cfgFile(env)).mode & 0o777).toBe(0o600);
      // No lock, guard or temp file left behind.
      expect(readdirSync(cfgDir(env))).toEqual(['config.json']);
    }
  });

  it('`auth logout` and `auth switch` at once with logins: each change is kept', async () => {
    const env = freshEnv();
    const login = (name: string) => runCli(['--profile', name, 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--no-verify', '--insecure-storage'], { env, input: `token-${name}-abcdefgh\n`, timeoutMs: 60_000 });
    for (const name of ['a', 'b', 'c', 'd']) expectCode(await login(name), 0);
    const runs = await Promise.all([
      runCli(['--profile', 'a', 'auth', 'logout'], { env, timeoutMs: 60_000 }),
      runCli(['--profile', 'b', 'auth', 'logout'], { env, timeoutMs: 60_000 }),
      runCli(['auth', 'switch', 'c'], { env, timeoutMs: 60_000 }),
      login('e'),
      login('f'),
      login('g'),
    ]);
    for (const r of runs) expectCode(r, 0);
    const saved = JSON.parse(readFileSync(cfgFile(env), 'utf8')) as { activeProfile: string; profiles: Record<string, unknown> };
    expect(Object.keys(saved.profiles).sort()).toEqual(['c', 'd', 'e', 'f', 'g']);
    expect(['c', 'e', 'f', 'g']).toContain(saved.activeProfile);
  });

  it('a config lock left by a killed process is taken over; one held by a live partner is waited for, then named (exit 1)', async () => {
    const env = freshEnv({ PARTNER_BASE_URL: sandbox.url });
    mkdirSync(cfgDir(env), { recursive: true, mode: 0o700 });
    const lock = `${cfgFile(env)}.lock`;
    writeFileSync(lock, '2147483646\n'); // no such process
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--no-verify', '--insecure-storage'], { env, input: 'token-after-kill-abcdefgh\n' });
    expectCode(r, 0);
    expect(existsSync(lock)).toBe(false);

    // A live partner process (a webhook receiver) holds the config lock: login waits, then says which file to look at.
    const holder = spawnCli(['webhook', 'listen', '--port', '0'], { env, timeoutMs: 60_000 });
    try {
      await waitFor(() => /Listening for webhooks on/.test(holder.stderr()), { timeoutMs: 15_000 });
      writeFileSync(lock, `${holder.child.pid}\n`);
      const busy = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--no-verify', '--insecure-storage'], { env, input: 'token-busy-abcdefgh\n', timeoutMs: 40_000 });
      expectCode(busy, 1);
      expect(busy.stderr).toContain(`another partner process (pid ${holder.child.pid}) has held its lock ${lock}`);
      expect(busy.stderr).toContain(`If no partner is running, delete ${lock}.`);
      expect(busy.stderr).not.toMatch(/bug in partner|unexpected/i);
      expect(readFileSync(cfgFile(env), 'utf8')).toContain('token-after-kill-abcdefgh');
      expect(readFileSync(cfgFile(env), 'utf8')).not.toContain('token-busy');
    } finally {
      holder.child.kill('SIGTERM');
      await holder.done;
    }
  }, 60_000);
});

describe('stale locks of the spool and the bulk journal (20.4)', () => {
  it('webhook listen --spool: a lock with its own pid (written by a shell that then exec\'d partner) is taken over', async () => {
    const env = freshEnv({ PARTNER_BASE_URL: sandbox.url });
    const spool = join(dir.path, `spool-exec-${n}`);
    mkdirSync(spool, { mode: 0o700 });
    const run = sh(`printf '%s\\n' "$$" > "${spool}/lock"; exec "$NODE" "$BIN" webhook listen --port 0 --spool "${spool}"`, env);
    try {
      await waitFor(() => /Listening for webhooks on/.test(run.stderr()) || run.child.exitCode !== null, { timeoutMs: 15_000 });
      expect(run.stderr()).not.toMatch(/in use by another receiver/);
      expect(run.stderr()).toMatch(/Listening for webhooks on/);
      expect(readFileSync(join(spool, 'lock'), 'utf8').split('\n')[0]).toBe(String(run.child.pid));
    } finally {
      run.child.kill('SIGTERM');
      await run.done;
    }
    expect(existsSync(join(spool, 'lock'))).toBe(false);
  });

  it('webhook listen --spool: a lock held by a live process that is not partner (sleep) is taken over; a live receiver is respected, with a hint that keeps the spool', async () => {
    const env = freshEnv({ PARTNER_BASE_URL: sandbox.url });
    const spool = join(dir.path, `spool-sleep-${n}`);
    mkdirSync(spool, { mode: 0o700 });
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const first = (() => {
      writeFileSync(join(spool, 'lock'), `${sleeper.pid}\n`);
      return spawnCli(['webhook', 'listen', '--port', '0', '--spool', spool], { env, timeoutMs: 60_000 });
    })();
    try {
      await waitFor(() => /Listening for webhooks on/.test(first.stderr()) || first.child.exitCode !== null, { timeoutMs: 15_000 });
      expect(first.stderr()).toMatch(/Listening for webhooks on/);
      expect(readFileSync(join(spool, 'lock'), 'utf8').split('\n')[0]).toBe(String(first.child.pid));
      const second = await runCli(['webhook', 'listen', '--port', '0', '--spool', spool], { env });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`--spool ${spool} is in use by another receiver (pid ${first.child.pid})`);
      expect(second.stderr).toMatch(/start this one again on the same --spool: it resumes every undelivered event/);
      expect(second.stderr).not.toMatch(/another directory/);
    } finally {
      sleeper.kill('SIGKILL');
      first.child.kill('SIGTERM');
      await first.done;
    }
  });

  it('gp create --from-csv: a journal lock with its own pid (exec) is taken over; the run completes', async () => {
    const env = freshEnv({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
    const entity = 'Acme Sverige AB';
    const t = await runCli(['gp', 'template', '--entity', entity, '-o', 'csv'], { env });
    expectCode(t, 0);
    const header = (parseCsv(t.stdout) as string[][])[0];
    const cells: Record<string, string> = {
      'personal.firstName': 'Exec',
      'personal.lastName': 'Reuse',
      'personal.dateOfBirth': '1990-01-01',
      'personal.gender': 'Female',
      'contact.personalEmail': `exec${n}@example.org`,
      'contact.languages': 'SV',
      'employment.workEmail': `exec.reuse${n}@acme.example`,
      'employment.startDate': '2025-11-01',
      'employment.designation': 'Engineer',
      'employment.department': 'Data',
      'employment.term': 'PERMANENT',
      'employment.baseSalary': '52000',
      'tax.personnummer': '19900101-2001',
      'tax.taxTable': '32',
      'custom.costCenter': 'CC-4100',
    };
    const csv = join(dir.path, `exec-${n}.csv`);
    writeFileSync(csv, `${header.join(',')}\n${header.map((h) => cells[h] ?? '').join(',')}\n`);
    const lock = join(dir.path, `exec-${n}.results.csv.journal.lock`);
    const r = await sh(`printf '%s\\n' "$$" > "${lock}"; exec "$NODE" "$BIN" gp create --entity "${entity}" --from-csv "${csv}"`, env, 40_000).done;
    expect(r.stderr).not.toMatch(/Another run \(process/);
    expectCode(r, 0);
    expect(r.stderr).toMatch(/1 created \(of 1 rows?\)/);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});

describe('a damaged config file is named, not called a bug (20.9)', () => {
  const login = (env: NodeJS.ProcessEnv) => runMain(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--no-verify', '--insecure-storage'], { env, input: 'token-abcdefgh-1234\n' });
  const cases: { name: string; content: string; args: string[]; what: RegExp }[] = [
    { name: 'empty file, auth status', content: '', args: ['auth', 'status', '-o', 'table'], what: /is damaged: it is empty/ },
    { name: 'empty file, employees list', content: '  \n', args: ['employees', 'list'], what: /is damaged: it is empty/ },
    { name: 'truncated JSON, auth switch', content: '{"activeProfile":"a","profiles":{"a":{"baseUrl":"https://x","token":"tok-secret-9', args: ['auth', 'switch', 'a'], what: /is damaged: it ends in the middle/ },
    { name: 'truncated JSON, auth logout', content: '{"profiles":{"a":{"token":"tok-secret-9"}', args: ['auth', 'logout'], what: /is damaged: it ends in the middle/ },
    { name: 'not JSON, auth status', content: "{profiles: {a: {token: 'tok-secret-9'}}}", args: ['auth', 'status', '-o', 'table'], what: /is damaged: it is not valid JSON/ },
    { name: 'profiles is a list, employees list', content: '{"profiles":["tok-secret-9"]}', args: ['employees', 'list'], what: /is damaged: "profiles" is a list, not an object of profiles by name/ },
    { name: 'a token that is a number, auth status', content: '{"activeProfile":"a","profiles":{"a":{"baseUrl":"https://x","token":12345678901}}}', args: ['auth', 'status', '-o', 'table'], what: /is damaged: "token" of profile "a" is a number, not a string/ },
    { name: 'activeProfile an object, auth switch', content: '{"activeProfile":{},"profiles":{"a":{}}}', args: ['auth', 'switch', 'a'], what: /is damaged: "activeProfile" is an object, not a profile name/ },
    { name: 'a profile that is a string, auth logout', content: '{"profiles":{"default":"tok-secret-9"}}', args: ['auth', 'logout'], what: /is damaged: profile "default" is a string, not an object/ },
    { name: 'the whole file a list, employees list', content: '[]', args: ['employees', 'list'], what: /is damaged: it holds a list, not an object with "profiles"/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const env = freshEnv();
      mkdirSync(cfgDir(env), { recursive: true, mode: 0o700 });
      writeFileSync(cfgFile(env), c.content, { mode: 0o600 });
      const r = await runMain(c.args, { env });
      expectCode(r, 1);
      const text = errorText(r.stderr);
      expect(text).toContain(`The config file ${cfgFile(env)} is damaged`);
      expect(text).toMatch(c.what);
      expect(text).toContain(`mv ${cfgFile(env)} ${cfgFile(env)}.bak && partner auth login`);
      expect(r.stderr).not.toMatch(/bug in partner|unexpected failure|\n\s+at /i);
      expect(r.stdout + r.stderr).not.toContain('tok-secret-9');
      expect(readFileSync(cfgFile(env), 'utf8')).toBe(c.content); // left as it was
      // doctor says the same.
      const doctor = await runMain(['doctor', '-o', 'json'], { env });
      expect(doctorConfig(doctor.stdout)).toMatch(c.what);
    });
  }

  it('auth login into a config directory that cannot be created: named, exit 1, nothing half-written', async () => {
    const env = freshEnv();
    const file = join(dir.path, `not-a-dir-${n}`);
    writeFileSync(file, 'x');
    env.PARTNER_CONFIG_DIR = join(file, 'config');
    const r = await login(env);
    expectCode(r, 1);
    expect(r.stderr).toContain(join(file, 'config'));
    expect(r.stderr).toMatch(/ENOTDIR \(a part of the path is a file, not a directory\)/);
    expect(r.stderr).not.toMatch(/bug in partner|unexpected failure|\n\s+at /i);
  });

  it.runIf(process.platform !== 'win32' && process.getuid?.() !== 0)('auth login into a config directory without write permission: named, exit 1', async () => {
    const env = freshEnv();
    mkdirSync(cfgDir(env), { recursive: true, mode: 0o700 });
    chmodSync(cfgDir(env), 0o500);
    try {
      const r = await login(env);
      expectCode(r, 1);
      expect(r.stderr).toContain(cfgDir(env));
      expect(r.stderr).toMatch(/EACCES \(permission denied\)/);
      expect(r.stderr).not.toMatch(/bug in partner|unexpected failure/i);
    } finally {
      chmodSync(cfgDir(env), 0o700);
    }
  });
});
