import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'partner.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  input?: string | Buffer;
  timeoutMs?: number;
  cwd?: string;
  /** Leave stdin open (for commands that read it interactively). */
  keepStdinOpen?: boolean;
  /** Run as this account (root only: another user's view, with its own home). */
  uid?: number;
  gid?: number;
}

/** A private temp dir, removed by the returned cleanup. */
export function tempDir(prefix = 'partner-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** What leads to the developer's own keyring (a D-Bus session bus): never in a test's environment. */
const KEYRING_VARS = new Set(['DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR']);

/**
 * Environment for a spawned CLI: isolated config and cache dirs, none of the
 * developer's PARTNER_* or proxy variables, no D-Bus session (so no keyring:
 * test/helpers/secret-service.ts starts a private one), no colour, not CI
 * unless asked.
 */
export function isolatedEnv(dir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('PARTNER_') && k !== 'CI' && !/_proxy$/i.test(k) && !KEYRING_VARS.has(k)) env[k] = v;
  }
  // No pager (a test on a terminal would wait in less): the pager's own tests set PARTNER_PAGER.
  Object.assign(env, { PARTNER_CONFIG_DIR: join(dir, 'config'), PARTNER_CACHE_DIR: join(dir, 'cache'), PARTNER_STATE_DIR: join(dir, 'state'), NO_COLOR: '1', PARTNER_PAGER: '' });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Spawns bin/partner.js (the built CLI) and collects its output and exit code. */
export function runCli(args: string[], opts: RunOptions): Promise<CliResult> {
  return spawnCli(args, opts).done;
}

export interface RunningCli {
  child: ChildProcess;
  /** Output so far (for waiting until the CLI reached some point). */
  stdout(): string;
  stderr(): string;
  done: Promise<CliResult>;
}

/** Like runCli, but hands back the child so a test can signal it mid-run. Killed after timeoutMs. */
export function spawnCli(args: string[], opts: RunOptions): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: opts.env, cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'], uid: opts.uid, gid: opts.gid });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => out.push(c));
  child.stderr!.on('data', (c: Buffer) => err.push(c));
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
  child.stdin!.on('error', () => undefined);
  if (opts.input !== undefined || !opts.keepStdinOpen) child.stdin!.end(opts.input ?? '');
  return { child, stdout: () => Buffer.concat(out).toString('utf8'), stderr: () => Buffer.concat(err).toString('utf8'), done };
}

/**
 * An in-process sandbox and an isolated environment pointing the CLI at it
 * (company A's token); `close` stops the sandbox and removes the temp dir.
 */
export async function sandboxEnv(extra: Record<string, string | undefined> = {}): Promise<{ sandbox: import('../../src/sandbox/server.js').Sandbox; env: NodeJS.ProcessEnv; dir: string; close: () => Promise<void> }> {
  const { startSandbox } = await import('../../src/sandbox/server.js');
  const sandbox = await startSandbox({});
  const dir = tempDir();
  const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, ...extra });
  return {
    sandbox,
    env,
    dir: dir.path,
    close: async () => {
      await sandbox.close();
      dir.cleanup();
    },
  };
}

/**
 * Runs bin/partner.js under a pseudo-terminal `columns` wide (util-linux
 * script; stdout and stderr are both the terminal) and returns what it
 * showed, carriage returns removed. Killed after timeoutMs.
 */
export function runOnTerminal(args: string[], opts: { env: NodeJS.ProcessEnv; columns: number; rows?: number; timeoutMs?: number }): Promise<string> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', `stty cols ${opts.columns} rows ${opts.rows ?? 50}; ${quoted}`, '/dev/null'], { env: opts.env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolvePromise(out.replace(/\r/g, ''));
    });
    child.stdin!.end();
  });
}

/** Exit code check that shows the CLI's stderr when it is not the one expected. */
export function expectCode(r: Pick<CliResult, 'code' | 'stderr'>, code: number): void {
  if (r.code !== code) throw new Error(`expected exit ${code}, got ${r.code}: ${r.stderr.slice(0, 2000)}`);
}
