// Interruption: every long-running command stops within a second of Ctrl-C
// (SIGINT, or the keystroke on a terminal), of SIGTERM and of SIGHUP (the
// terminal closed), exits 130, leaves no temp files and keeps drafts.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, spawnCli, tempDir, type RunningCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let tmp: string;
const hasScript = existsSync('/usr/bin/script');
/**
 * From SIGINT to the process gone, measured from the test. The CLI itself
 * exits at most 1 s after SIGINT (main's forced exit); the rest is headroom
 * for a loaded 2-core CI machine. Anything stuck (3 s latency, a server that
 * never closes) is still far beyond it.
 */
const STOP_WITHIN_MS = 2000;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 200 });
  dir = tempDir('partner-interrupt-');
  tmp = join(dir.path, 'tmp');
  mkdirSync(tmp);
  // Temp files of the CLI (if any) land here, where the test can see them.
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TMPDIR: tmp });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});
beforeEach(() => sandbox.setFaults({ latencyMs: 0 }));

async function interrupt(run: RunningCli, signal: NodeJS.Signals = 'SIGINT') {
  const t0 = Date.now();
  run.child.kill(signal);
  const r = await run.done;
  return { ...r, ms: Date.now() - t0 };
}

/**
 * Spawns a command that sits waiting on an open stdin (nothing to wait for
 * on its output), SIGINTs it, and retries when the signal beat the CLI's own
 * handler (killed by the signal: still starting up, before main() ran).
 */
async function interruptWhileWaitingOnStdin(args: string[]) {
  for (let attempt = 1; ; attempt++) {
    const run = spawnCli(args, { env, keepStdinOpen: true });
    await new Promise((r) => setTimeout(r, 400 * attempt));
    const r = await interrupt(run);
    if (!(r.code === null && r.signal === 'SIGINT') || attempt === 4) return r;
  }
}

/** A request of this run is in flight (earlier runs' slow requests may still be, too). */
function inFlightSince(): () => boolean {
  const before = sandbox.requests.length;
  return () => sandbox.requests.slice(before).some((q) => q.status === 0);
}

describe('Ctrl-C stops within a second with exit 130', () => {
  it('webhook listen', async () => {
    const run = spawnCli(['webhook', 'listen', '--port', '0'], { env });
    await waitFor(() => /Listening for webhooks on (\S+)/.test(run.stderr()), { timeoutMs: 15_000 });
    const url = /Listening for webhooks on (\S+)/.exec(run.stderr())![1]!;
    const r = await interrupt(run);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // The port is released.
    await expect(fetch(url, { method: 'POST', body: 'x' })).rejects.toThrow();
  });

  it('sandbox start (the port is released)', async () => {
    const run = spawnCli(['sandbox', 'start', '--port', '0'], { env });
    await waitFor(() => /listening on (http:\/\/\S+)/.test(run.stdout()), { timeoutMs: 15_000 });
    const url = new URL(/listening on (http:\/\/\S+)/.exec(run.stdout())![1]!);
    const r = await interrupt(run);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(Number(url.port), url.hostname);
      s.on('connect', () => (s.destroy(), resolve(false)));
      s.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('sandbox start also stops on SIGTERM (exit 130)', async () => {
    const run = spawnCli(['sandbox', 'start', '--port', '0'], { env });
    await waitFor(() => /listening on/.test(run.stdout()), { timeoutMs: 15_000 });
    const r = await interrupt(run, 'SIGTERM');
    expect(r.code).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
  });

  it('profile get of many employees against a slow sandbox', async () => {
    const list = join(dir.path, 'many.txt');
    writeFileSync(list, `${Array.from({ length: 60 }, (_, i) => `ACME-${String(i + 1).padStart(5, '0')}`).join('\n')}\n`);
    sandbox.setFaults({ latencyMs: 3000 });
    const inFlight = inFlightSince();
    const run = spawnCli(['profile', 'get', '--from-file', list, '-o', 'ndjson'], { env });
    await waitFor(inFlight, { timeoutMs: 15_000 });
    const r = await interrupt(run);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
    expect(r.stderr).toMatch(/Interrupted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  // SIGTERM (`kill`) and SIGHUP (the terminal closed, an ssh session dropped) stop the same way as Ctrl-C.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`employees list --all --output-file, ${signal}: exit 130, no temp file left in the target dir, the previous file untouched`, async () => {
      const out = join(dir.path, `export-${signal}`);
      mkdirSync(out, { recursive: true });
      const target = join(out, 'employees.csv');
      writeFileSync(target, 'previous export\n');
      // Let a few pages be written, then stall the server mid-export.
      const before = sandbox.requests.length;
      const run = spawnCli(['employees', 'list', '--all', '--page-size', '1', '--concurrency', '1', '-o', 'csv', '--output-file', target], { env });
      await waitFor(() => sandbox.requests.slice(before).filter((q) => q.status === 200).length >= 3, { timeoutMs: 15_000 });
      sandbox.setFaults({ latencyMs: 3000 });
      const inFlight = inFlightSince();
      await waitFor(inFlight, { timeoutMs: 15_000 });
      const midway = readdirSync(out);
      const r = await interrupt(run, signal);
      expect(r.code, r.stderr).toBe(130);
      expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
      expect(r.stderr).toMatch(/^Interrupted\.$/m);
      expect(r.stderr).toContain(`was left untouched.`);
      // (Mid-run the export goes to a temp file beside the target: ${midway}.)
      expect(midway.length).toBeGreaterThanOrEqual(1);
      expect(readdirSync(out)).toEqual(['employees.csv']);
      expect(readFileSync(target, 'utf8')).toBe('previous export\n');
    });
  }

  it('webhook listen --spool, SIGHUP: exit 130, the spool lock released', async () => {
    const spool = join(dir.path, 'spool-hup');
    const run = spawnCli(['webhook', 'listen', '--port', '0', '--spool', spool], { env });
    await waitFor(() => /Listening for webhooks on/.test(run.stderr()), { timeoutMs: 15_000 });
    expect(readdirSync(spool)).toContain('lock');
    const r = await interrupt(run, 'SIGHUP');
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
    expect(readdirSync(spool)).not.toContain('lock');
  });

  it('(not an interrupt) an export failing on a server that stays down also leaves the previous file untouched, no temp file', async () => {
    const out = join(dir.path, 'export-down');
    mkdirSync(out, { recursive: true });
    const target = join(out, 'employees.ndjson');
    writeFileSync(target, 'previous export\n');
    const before = sandbox.requests.length;
    sandbox.setFaults({ failRate: 1, retryAfterSeconds: 0 });
    try {
      const r = await spawnCli(['employees', 'list', '--all', '--page-size', '5', '-o', 'ndjson', '--output-file', target], { env, timeoutMs: 30_000 }).done;
      expect(r.code, r.stderr).toBe(1);
      // -o ndjson: the error is one JSON line on stderr.
      expect(JSON.parse(r.stderr).error).toMatchObject({ status: 503, exitCode: 1 });
    } finally {
      sandbox.setFaults({ failRate: 0, retryAfterSeconds: 1 });
    }
    expect(sandbox.requests.length).toBeGreaterThan(before);
    expect(readdirSync(out)).toEqual(['employees.ndjson']);
    expect(readFileSync(target, 'utf8')).toBe('previous export\n');
  });

  it('webhook verify waiting for a JWS on stdin', async () => {
    const r = await interruptWhileWaitingOnStdin(['webhook', 'verify', '--jwks-url', `${sandbox.url}/v1/partner/.well-known/jwks.json`]);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
  });

  it('profile get --from-file - waiting on stdin', async () => {
    const r = await interruptWhileWaitingOnStdin(['profile', 'get', '--from-file', '-']);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
  });

  it('no temp files were left behind by any of these', () => {
    expect(readdirSync(tmp)).toEqual([]);
  });
});

// eslint-disable-next-line no-control-regex
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][0-9A-Za-z]/g, '').replace(/\r/g, '');

/** The CLI under a pseudo-terminal (util-linux script), as a person would run it. */
class Pty {
  readonly child: ChildProcess;
  out = '';
  readonly done: Promise<number | null>;
  constructor(args: string[]) {
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    this.child = spawn('/usr/bin/script', ['-qfec', `stty cols 200 rows 50; exec ${quoted}`, '/dev/null'], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (c: Buffer) => (this.out += strip(c.toString('utf8'))));
    this.child.stderr!.on('data', (c: Buffer) => (this.out += strip(c.toString('utf8'))));
    this.done = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }
  cliPid(): number {
    return Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(this.child.pid)], { encoding: 'utf8' }).trim().split(/\s+/)[0]);
  }
  async answer(question: RegExp, keys: string): Promise<void> {
    await waitFor(() => question.test(this.out), { timeoutMs: 15_000 });
    await new Promise((r) => setTimeout(r, 50));
    this.child.stdin!.write(keys);
  }
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

describe.skipIf(!hasScript)('the gp create wizard under a pseudo-terminal', () => {
  const ENTITY = 'Acme India Pvt Ltd';
  const draftsDir = () => join(dir.path, 'config', 'drafts');

  for (const how of ['SIGINT', 'SIGHUP', 'the Ctrl-C key'] as const) {
    it(`${how} mid-wizard: exit 130 within a second, the draft kept (0600 in 0700)`, async () => {
      rmSync(draftsDir(), { recursive: true, force: true });
      const p = new Pty(['gp', 'create', '--entity', ENTITY]);
      try {
        await p.answer(/First name/, 'Ada\r');
        await p.answer(/Middle name/, '\r');
        await waitFor(() => /Last name/.test(p.out), { timeoutMs: 15_000 });
        await waitFor(() => existsSync(draftsDir()) && readdirSync(draftsDir()).length > 0, { what: 'a draft saved' });
        const t0 = Date.now();
        if (how === 'the Ctrl-C key') p.child.stdin!.write('\x03');
        else process.kill(p.cliPid(), how);
        const code = await p.done;
        expect(Date.now() - t0).toBeLessThan(STOP_WITHIN_MS);
        expect(code, p.out.slice(-800)).toBe(130);
        const files = readdirSync(draftsDir());
        expect(files).toHaveLength(1);
        const draft = JSON.parse(readFileSync(join(draftsDir(), files[0]!), 'utf8')) as { answers: { personal?: { firstName?: string } } };
        expect(draft.answers.personal?.firstName).toBe('Ada');
        expect(statSync(join(draftsDir(), files[0]!)).mode & 0o777).toBe(0o600);
        expect(statSync(draftsDir()).mode & 0o777).toBe(0o700);
        expect(p.out).toMatch(/--resume/);
        expect(p.out).not.toMatch(/\n\s+at /);
      } finally {
        p.kill();
      }
    });
  }
});

/**
 * Whether process `pid` still runs. It is not our child (the terminal's, now
 * gone): once it exits it stays a zombie until init reaps it, which counts as
 * gone (state Z in /proc; util-linux `script` means Linux).
 */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// The terminal itself goes away (a closed window, a dropped ssh session): the kernel hangs up the
// pseudo-terminal and sends SIGHUP to the CLI, whose stderr now fails to write (EIO). It must still
// abort, clean up and go, as on Ctrl-C.
describe.skipIf(!hasScript)('the terminal closes (SIGHUP from the kernel)', () => {
  it('employees list --all --output-file: the CLI goes within a second, no temp file, the previous file untouched', async () => {
    const out = join(dir.path, 'export-hangup');
    mkdirSync(out, { recursive: true });
    const target = join(out, 'employees.ndjson');
    writeFileSync(target, 'previous export\n');
    const before = sandbox.requests.length;
    const p = new Pty(['employees', 'list', '--all', '--page-size', '1', '--concurrency', '1', '-o', 'ndjson', '--output-file', target]);
    try {
      await waitFor(() => sandbox.requests.slice(before).filter((q) => q.status === 200).length >= 3, { timeoutMs: 15_000 });
      sandbox.setFaults({ latencyMs: 3000 });
      const inFlight = inFlightSince();
      await waitFor(inFlight, { timeoutMs: 15_000 });
      const pid = p.cliPid();
      expect(readdirSync(out).some((f) => f.endsWith('.tmp'))).toBe(true);
      const t0 = Date.now();
      p.child.kill('SIGKILL'); // the terminal emulator is gone: its side of the pseudo-terminal closes
      await waitFor(() => !running(pid), { timeoutMs: 5_000 });
      expect(Date.now() - t0).toBeLessThan(STOP_WITHIN_MS);
      expect(readdirSync(out)).toEqual(['employees.ndjson']);
      expect(readFileSync(target, 'utf8')).toBe('previous export\n');
    } finally {
      p.kill();
    }
  });

  it('the gp create wizard: the CLI goes within a second, the draft kept', async () => {
    const drafts = join(dir.path, 'config', 'drafts');
    rmSync(drafts, { recursive: true, force: true });
    const p = new Pty(['gp', 'create', '--entity', 'Acme India Pvt Ltd']);
    try {
      await p.answer(/First name/, 'Grace\r');
      await p.answer(/Middle name/, '\r');
      await waitFor(() => /Last name/.test(p.out), { timeoutMs: 15_000 });
      await waitFor(() => existsSync(drafts) && readdirSync(drafts).length > 0, { what: 'a draft saved' });
      const pid = p.cliPid();
      const t0 = Date.now();
      p.child.kill('SIGKILL');
      await waitFor(() => !running(pid), { timeoutMs: 5_000 });
      expect(Date.now() - t0).toBeLessThan(STOP_WITHIN_MS);
      const files = readdirSync(drafts);
      expect(files).toHaveLength(1);
      const draft = JSON.parse(readFileSync(join(drafts, files[0]!), 'utf8')) as { answers: { personal?: { firstName?: string } } };
      expect(draft.answers.personal?.firstName).toBe('Grace');
    } finally {
      p.kill();
    }
  });
});
