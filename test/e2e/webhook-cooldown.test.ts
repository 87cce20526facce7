// , against a running `partner sandbox start` whose keys are
// rotated through its admin endpoint (`sandbox emit --rotate-key`): the
// refetch cool-down protects a long-running receiver from floods of made-up
// kids, but never makes a genuine event INVALID — a one-shot `webhook verify`
// refetches, a freshly started `listen` inherits no cool-down from the disk
// cache, and `sandbox emit` shows a receiver's refusal whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, spawnCli, tempDir, type RunningCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';
import { listen, type Listener } from '../helpers/listen.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';

let sandbox: RunningCli;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
const listeners: Listener[] = [];

/** A JWS under a kid the sandbox never published (what a flood, or a mistake, sends). */
const ghost = () => signEs({ alg: 'ES512', kid: `ghost-${Math.random().toString(36).slice(2)}` }, employeeCreated(), ecKey('ghost').privateKey);

beforeAll(async () => {
  dir = tempDir();
  sandbox = spawnCli(['sandbox', 'start'], { env: isolatedEnv(dir.path), timeoutMs: 120_000, keepStdinOpen: true });
  // The URL and the tokens come in separate writes: wait for both (the tokens' line came late once on a busy machine).
  await waitFor(() => /Sandbox API listening on http:\/\/\S+/.test(sandbox.stdout()) && /Acme[^\n]*token:\s+\S+/.test(sandbox.stdout()), 15_000);
  const url = /Sandbox API listening on (http:\/\/\S+)/.exec(sandbox.stdout())![1]!;
  const token = /Acme[^\n]*token:\s+(\S+)/.exec(sandbox.stdout())![1]!;
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: token });
});

afterAll(async () => {
  for (const l of listeners) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  sandbox.child.kill('SIGINT');
  await sandbox.done;
  dir.cleanup();
});

describe('the key-set refetch cool-down never makes a genuine webhook INVALID', () => {
  it('verify of an unknown kid, then a genuine event under a freshly rotated key: VALID, exit 0 (not "checked again in 29 s", exit 8)', async () => {
    const unknown = await runCli(['webhook', 'verify', ghost(), '-o', 'json'], { env });
    expect(unknown.code).toBe(8);
    const v = JSON.parse(unknown.stdout) as { reason: string; message: string };
    expect(v.reason).toBe('UNKNOWN_KID');
    // A one-shot command never checks again: its answer is final, and says so without a promise it cannot keep.
    expect(v.message).not.toMatch(/checked again/);
    const rotated = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--rotate-key', '--print'], { env });
    expect(rotated.code).toBe(0);
    const genuine = rotated.stdout.trim();
    const r = await runCli(['webhook', 'verify', genuine, '-o', 'json'], { env });
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, eventType: 'EMPLOYEE_CREATED' });
    expect(r.code).toBe(0);
  });

  it('a freshly started listen does not inherit the cool-down from the disk cache: a rotated key right after another run refetched is 200', async () => {
    expect((await runCli(['webhook', 'verify', ghost()], { env })).code).toBe(8); // refetches; the cache now says "refetched just now"
    const l = await listen([], env);
    listeners.push(l);
    const rotated = await runCli(['sandbox', 'emit', 'EMPLOYEE_UPDATED', '--rotate-key', '--to', l.url, '-o', 'json'], { env });
    expect(rotated.stderr).toMatch(/^Rotated the sandbox signing key: new kid sbx-es512-\d+-[0-9a-f]+\n$/);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ eventType: 'EMPLOYEE_UPDATED', status: 200 });
    expect(rotated.code).toBe(0);
    l.child.kill('SIGINT');
    await l.exited;
  });

  it("within a receiver's own cool-down the refusal is 503, and sandbox emit shows it whole", async () => {
    const l = await listen([], env);
    listeners.push(l);
    // A made-up kid: the receiver refetches once; its cool-down starts.
    const flood = await fetch(l.url, { method: 'POST', body: ghost() });
    expect(flood.status).toBe(401);
    const refused = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--rotate-key', '--to', l.url, '-o', 'table'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/HTTP 503\n$/);
    // The whole message of the receiver, up to its last word (before: cut at "…30 s ago, so").
    // An error, not a "warning:" that exits 1.
    expect(refused.stderr).not.toMatch(/warning:/i);
    expect(refused.stderr).toMatch(/^Error: The receiver refused the event \(HTTP 503 UNKNOWN_KID\): no key with kid "sbx-es512-\d+-[0-9a-f]+" in the key set from \S+; the key set was refetched less than 30 s ago, so it is checked again in \d+ s \(a rotated key may not be known yet\)\n/m);
    l.child.kill('SIGINT');
    await l.exited;
  });
});
