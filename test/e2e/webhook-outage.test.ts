// Dead letters are for refusals, not outages: a forward target that refuses
// connections for a while under --max-attempts 3 parks nothing, gets every
// event once it is back, and /metrics, /healthz and the listener's lines say
// that it cannot be reached (once, not per attempt) and since when. Without a
// spool, /healthz says so too (events are answered 503 meanwhile).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { listen as listenOn, receiverFixture, type Listener } from '../helpers/listen.js';
import { closedPort, closeServer } from '../helpers/loopback-server.js';
import { waitFor } from '../helpers/wait-for.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';

const children: ChildProcessWithoutNullStreams[] = [];
const listen = (args: string[]) => listenOn(['--jwks-file', jwksFile, '-o', 'ndjson', ...args], env, children);
const k1 = ecKey('k1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;
let seq = 0;
const event = (employeeCode: string) => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode, note: `n-${++seq}` }), k1.privateKey);
const post = (url: string, body: string) => fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(15_000) });
const get = async (l: Listener, path: string) => {
  const r = await fetch(new URL(path, l.url), { signal: AbortSignal.timeout(10_000) });
  return { status: r.status, text: await r.text() };
};
const series = (text: string, name: string): number => {
  const line = text.split('\n').find((x) => x.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : NaN;
};
const records = (l: Listener) =>
  l
    .stdout()
    .trim()
    .split('\n')
    .filter((x) => x !== '')
    .map((x) => JSON.parse(x) as Record<string, unknown>);

/** The app: down (its port refuses connections) until up() is called on the same port (so its own server, not the fixture's, which takes any port). */
async function downApp() {
  const took: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      took.push(body);
      res.writeHead(200).end();
    });
  });
  const port = await closedPort();
  return {
    took,
    url: `http://127.0.0.1:${port}/hooks`,
    up: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
    stop: async () => {
      if (server.listening) await closeServer(server);
    },
  };
}
let apps: Awaited<ReturnType<typeof downApp>>[] = [];

beforeAll(() => {
  ({ dir, env, jwksFile } = receiverFixture([k1.jwk]));
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const a of apps.splice(0)) await a.stop();
});
afterAll(() => dir.cleanup());

describe('a target that refuses connections', () => {
  it('--spool --max-attempts 3, down for 8 s: nothing parked, every event delivered once it is back; /metrics, /healthz and one line say so during the outage', async () => {
    const app = await downApp();
    apps.push(app);
    const l = await listen(['--spool', join(dir.path, 'spool-outage'), '--forward-to', app.url, '--metrics', '--max-attempts', '3']);
    const t0 = Date.now();
    for (const code of ['E-1', 'E-1', 'E-2']) expect((await post(l.url, event(code))).status).toBe(200);
    // Long enough for more failed forwards than --max-attempts (backoff 0.5, 1, 2, 4 s ...).
    await new Promise((r) => setTimeout(r, 8000));
    const m = (await get(l, '/metrics')).text;
    expect(series(m, 'partner_webhook_target_up')).toBe(0);
    const since = series(m, 'partner_webhook_target_unreachable_since_seconds');
    expect(since * 1000).toBeGreaterThanOrEqual(t0 - 1000);
    expect(since * 1000).toBeLessThanOrEqual(Date.now());
    expect(series(m, 'partner_webhook_oldest_undelivered_age_seconds')).toBeGreaterThanOrEqual(7);
    expect(series(m, 'partner_webhook_backlog')).toBe(3);
    expect(series(m, 'partner_webhook_parked_events')).toBe(0);
    expect(series(m, 'partner_webhook_forwards_total{status="error"}')).toBeGreaterThan(3);
    const h = await get(l, '/healthz');
    expect(h.status).toBe(200); // events are still kept in the spool
    const health = JSON.parse(h.text);
    expect(health.status).toBe('degraded');
    expect(health.reasons[0]).toMatch(/the target cannot be reached since .*ECONNREFUSED.*kept in the spool/);
    expect(Date.parse(health.target.unreachableSince)).toBe(since * 1000);
    // Said once, not per attempt: one target record, no delivery record while it is down.
    const during = records(l);
    expect(during.filter((r) => r.target)).toEqual([expect.objectContaining({ target: expect.objectContaining({ reachable: false, reason: expect.stringContaining('ECONNREFUSED') }) })]);
    expect(during.filter((r) => r.delivery)).toEqual([]);
    await app.up();
    await waitFor(() => app.took.length === 3, { what: 'the three events delivered once the target is back', timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(app.took).toHaveLength(3);
    expect(new Set(app.took).size).toBe(3);
    const after = (await get(l, '/metrics')).text;
    expect(series(after, 'partner_webhook_target_up')).toBe(1);
    expect(series(after, 'partner_webhook_target_unreachable_since_seconds')).toBe(0);
    expect(series(after, 'partner_webhook_parked_events')).toBe(0);
    expect(series(after, 'partner_webhook_events_parked_total')).toBe(0);
    expect(series(after, 'partner_webhook_backlog')).toBe(0);
    expect(JSON.parse((await get(l, '/healthz')).text)).toEqual({ status: 'ok' });
    const end = records(l);
    expect(end.filter((r) => r.target).map((r) => (r.target as { reachable: boolean }).reachable)).toEqual([false, true]);
    expect(end.filter((r) => r.delivery).map((r) => (r.delivery as { delivered: boolean; parked: unknown }).delivered)).toEqual([true, true, true]);
    expect(l.stdout()).not.toContain('"parked":"');
  }, 60_000);

  it('without --spool: senders get 503 and /healthz answers 503 naming the target; both recover once it is back', async () => {
    const app = await downApp();
    apps.push(app);
    const l = await listen(['--forward-to', app.url]);
    expect((await post(l.url, event('E-3'))).status).toBe(503);
    const h = await get(l, '/healthz');
    expect(h.status).toBe(503);
    expect(JSON.parse(h.text).reasons.join(' ')).toMatch(/the target cannot be reached since .*: events are answered 503/);
    await app.up();
    expect((await post(l.url, event('E-3'))).status).toBe(200);
    expect(app.took).toHaveLength(1);
    const again = await get(l, '/healthz');
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toEqual({ status: 'ok' });
  }, 30_000);
});

describe('--metrics-listen', () => {
  it('serves /healthz and /metrics on its own address (implies --metrics); the webhook port answers them 404', async () => {
    const l = await listen(['--metrics-listen', '127.0.0.1:0']);
    const m = /\/healthz and \/metrics on (http:\/\/127\.0\.0\.1:\d+)/.exec(l.stderr());
    expect(m, l.stderr()).not.toBeNull();
    const status = m![1]!;
    const health = await fetch(`${status}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const metrics = await fetch(`${status}/metrics`, { signal: AbortSignal.timeout(10_000) });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('partner_webhook_events_received_total 0');
    expect((await fetch(`${status}/hooks`, { method: 'POST', body: event('E-9') })).status).toBe(404);
    expect((await get(l, '/healthz')).status).toBe(404);
    expect((await get(l, '/metrics')).status).toBe(404);
    expect((await post(l.url, event('E-9'))).status).toBe(200);
  }, 30_000);

  it('refuses an address that is not one, before listening', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const r = await runCli(['webhook', 'listen', '--jwks-file', jwksFile, '--metrics-listen', 'localhost:99999'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--metrics-listen must be an address like 127\.0\.0\.1:9464/);
  }, 30_000);
});
