// --jq runs in a worker thread: a filter that never ends is stopped by
// Ctrl-C, `kill` or a closed terminal (exit 130), and one that prints or
// grows without end is stopped by its limits (JQ_LIMIT, exit 1).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, spawnCli, tempDir, type RunningCli } from '../helpers/cli.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 30 });
  dir = tempDir('partner-jq-stop-');
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

/** From the signal to the process gone: the CLI exits at once; the rest is headroom for a loaded machine. */
const STOP_WITHIN_MS = 5000;

/** Peak resident memory of a running process (Linux), polled until it exits. */
function watchPeak(run: RunningCli): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // Gone.
    }
  }, 50);
  void run.done.finally(() => clearInterval(timer));
  return () => peak;
}

/**
 * Starts `employees list --jq FILTER`, waits, sends `signal` and returns the result and how long
 * the stop took. A signal that came before jq ran (a loaded machine still starting the CLI: killed
 * by it, or stopped by the CLI's handler before the filter's check, which exits 130 without
 * "Cancelled.") is tried again with a longer wait. The old code never stopped (SIGKILL at timeoutMs).
 */
async function stopEndless(signal: NodeJS.Signals) {
  for (let attempt = 1; ; attempt++) {
    const run = spawnCli(['employees', 'list', '--jq', 'last(range(1e15))'], { env, timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 1500 * attempt));
    const t0 = Date.now();
    run.child.kill(signal);
    const r = await run.done;
    const early = (r.code === null && r.signal === signal) || (r.code === 130 && !r.stderr.includes('Cancelled.'));
    if (!early || attempt === 4) return { ...r, ms: Date.now() - t0 };
  }
}

describe('--jq that never ends', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s stops it: "Cancelled.", exit 130, nothing sent', async (signal) => {
    const before = sandbox.requests.length;
    const r = await stopEndless(signal);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Cancelled.');
    expect(r.ms).toBeLessThan(STOP_WITHIN_MS);
    expect(r.stdout).toBe('');
    // The filter is tried against null before any request: it never got that far.
    expect(sandbox.requests.length).toBe(before);
  });

  it('a filter that prints without end is JQ_LIMIT (exit 1) with its memory bounded', async () => {
    const run = spawnCli(['employees', 'list', '--jq', 'repeat(1)'], { env, timeoutMs: 120_000 });
    const peak = watchPeak(run);
    const r = await run.done;
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('JQ_LIMIT');
    expect(err.error.message).toContain('printed more than 1 MiB');
    expect(r.stdout).toBe('');
    // Before: ~40 MB more every second, until killed.
    expect(peak()).toBeGreaterThan(0);
    expect(peak()).toBeLessThan(300 * 1024 * 1024);
  });

  it('an ordinary filter still works after the check, in the same worker', async () => {
    const run = spawnCli(['employees', 'list', '--page-size', '5', '--jq', '.data | length'], { env });
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('5\n');
  });
});
