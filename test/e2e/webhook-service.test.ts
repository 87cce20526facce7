// `webhook listen` as a service left running: /healthz
// for load balancers, /metrics, dead letters (--max-attempts, the target's
// `webhook-delivery: abort`, `replay --failed`), SIGTERM as a clean stop.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { listen as listenOn, receiverFixture, type Listener } from '../helpers/listen.js';
import { closedPort, startLoopbackServer } from '../helpers/loopback-server.js';
import { waitFor } from '../helpers/wait-for.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';

const children: ChildProcessWithoutNullStreams[] = [];
const listen = (args: string[]) => listenOn(['--jwks-file', jwksFile, '-o', 'ndjson', ...args], env, children);
const k1 = ecKey('k1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;
let seq = 0;
const event = (employeeCode: string, extra: Record<string, unknown> = {}) => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode, note: `n-${++seq}`, ...extra }), k1.privateKey);
const post = (url: string, body: string) => fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(15_000) });
const get = async (l: Listener, path: string) => {
  const r = await fetch(new URL(path, l.url), { signal: AbortSignal.timeout(10_000) });
  return { status: r.status, text: await r.text(), type: r.headers.get('content-type') };
};
/** The value of one series in Prometheus text (0 when absent). */
const series = (text: string, name: string): number => {
  const line = text.split('\n').find((x) => x.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
};

/** The partner's app: refuses bodies containing "poison" (400), and "abort-me" with webhook-delivery: abort; holds answers while `hold`. */
async function target() {
  const t = { got: [] as { body: string; redelivery?: string; id?: string }[], took: [] as string[], refuseAll: true, hold: false, held: [] as (() => void)[], url: '', close: () => Promise.resolve() };
  const server = await startLoopbackServer((req, res, body) => {
    t.got.push({ body, redelivery: req.headers['x-partner-redelivery'] as string | undefined, id: req.headers['x-partner-event-id'] as string | undefined });
    const answer = () => {
      if (body.includes('abort-me') && t.refuseAll) return res.writeHead(422, { 'webhook-delivery': 'abort' }).end();
      if (body.includes('poison') && t.refuseAll) return res.writeHead(400).end('{"error":"bad employee"}');
      t.took.push(body);
      res.writeHead(202).end();
    };
    if (t.hold) t.held.push(answer);
    else answer();
  });
  t.url = `${server.url}/hooks`;
  t.close = server.close;
  return t;
}
let app: Awaited<ReturnType<typeof target>>;

beforeAll(async () => {
  ({ dir, env, jwksFile } = receiverFixture([k1.jwk]));
  app = await target();
});

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  app.got.length = 0;
  app.took.length = 0;
  app.refuseAll = true;
  app.hold = false;
});

afterAll(async () => {
  await app.close();
  dir.cleanup();
});

describe('GET /healthz', () => {
  it('200 while the spool takes writes; 503 with the reason when it cannot (probe file replaced by a directory; spool directory replaced); never a payload', async () => {
    const spool = join(dir.path, 'spool-health');
    const l = await listen(['--spool', spool, '--forward-to', app.url]);
    expect((await post(l.url, event('E-HEALTH'))).status).toBe(200);
    const ok = await get(l, '/healthz');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ status: 'ok' });
    // The probe's own file turned into a directory: the directory no longer takes the write.
    rmSync(join(spool, 'health.probe'), { force: true });
    mkdirSync(join(spool, 'health.probe'));
    await new Promise((r) => setTimeout(r, 1100)); // past the probe's one-second cache
    const bad = await get(l, '/healthz');
    expect(bad.status).toBe(503);
    expect(JSON.parse(bad.text)).toEqual({ status: 'unavailable', reasons: ['the spool directory cannot be written (EISDIR)'] });
    expect(bad.text).not.toMatch(/E-HEALTH|eyJ|employee/);
    rmSync(join(spool, 'health.probe'), { recursive: true });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(l, '/healthz')).status).toBe(200);
    // The spool directory moved away and a new one put in its place: events would go to a file nobody reads.
    renameSync(spool, `${spool}.old`);
    mkdirSync(spool, { mode: 0o700 });
    await new Promise((r) => setTimeout(r, 1100));
    const moved = await get(l, '/healthz');
    expect(moved.status).toBe(503);
    expect(moved.text).toMatch(/the spool journal is gone \(ENOENT\)|replaced or moved/);
  }, 30_000);

  it('503 "key set cannot be fetched" when the key set is unreachable and none is cached; 200 without a spool otherwise', async () => {
    const port = await closedPort();
    const l = await listenOn(['--jwks-url', `http://127.0.0.1:${port}/jwks.json`, '--no-cache', '-o', 'ndjson'], env, children);
    const h = await get(l, '/healthz');
    expect(h.status).toBe(503);
    expect(JSON.parse(h.text).reasons[0]).toMatch(/^the key set cannot be fetched \(/);
    const plain = await listen([]);
    expect((await get(plain, '/healthz')).status).toBe(200);
    expect((await get(plain, '/metrics')).status).toBe(404); // only with --metrics
  }, 30_000);
});

describe('dead letters and /metrics', () => {
  it('--max-attempts 3: the refused event is parked after 3 tries and its employee\'s next event goes; counters move; parked survives kill -9; replay --failed delivers it once and unparks it', async () => {
    const spool = join(dir.path, 'spool-dead');
    const args = ['--spool', spool, '--forward-to', app.url, '--metrics', '--max-attempts', '3'];
    let l = await listen(args);
    const before = await get(l, '/metrics');
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(series(before.text, 'partner_webhook_events_received_total')).toBe(0);
    expect((await post(l.url, event('E-BAD', { marker: 'poison' }))).status).toBe(200);
    expect((await post(l.url, event('E-BAD'))).status).toBe(200); // same employee: waits behind the poison one until it is parked
    expect((await post(l.url, event('E-OK'))).status).toBe(200);
    expect((await post(l.url, 'not.a.jws')).status).toBe(400);
    await waitFor(() => app.took.length === 2, { what: 'the two good events delivered', timeoutMs: 20_000 });
    expect(app.got.filter((g) => g.body.includes('poison'))).toHaveLength(3);
    // The employee's next event went only after the poison one was parked.
    const order = app.got.map((g) => (g.body.includes('poison') ? 'P' : g.body.includes('E-BAD') ? 'B' : 'O'));
    expect(order.lastIndexOf('P')).toBeLessThan(order.indexOf('B'));
    await waitFor(() => l.stdout().includes('"parked":"max-attempts"'), { what: 'the parked delivery line' });
    const m = (await get(l, '/metrics')).text;
    expect(series(m, 'partner_webhook_events_received_total')).toBe(4);
    expect(series(m, 'partner_webhook_events_verified_total')).toBe(3);
    expect(series(m, 'partner_webhook_events_refused_total{reason="MALFORMED"}')).toBe(1);
    expect(series(m, 'partner_webhook_forwards_total{status="400"}')).toBe(3);
    expect(series(m, 'partner_webhook_forwards_total{status="202"}')).toBe(2);
    expect(series(m, 'partner_webhook_forward_retries_total')).toBe(2);
    expect(series(m, 'partner_webhook_parked_events')).toBe(1);
    expect(series(m, 'partner_webhook_events_parked_total')).toBe(1);
    expect(series(m, 'partner_webhook_backlog')).toBe(0);
    expect(series(m, 'partner_webhook_oldest_undelivered_age_seconds')).toBe(0);
    expect(series(m, 'partner_webhook_request_duration_seconds_count{status="200"}')).toBe(3);
    expect(m).toContain('partner_webhook_keyset_refetches_total 0');
    // doctor --spool counts it (WARN, with the command that sends it again).
    const doc = await runCli(['doctor', '--spool', spool, '-o', 'json'], { env });
    const check = JSON.parse(doc.stdout).checks.find((c: { name: string }) => c.name === 'spool');
    expect(check.status).toBe('warn');
    expect(check.details.parked).toBe(1);
    expect(check.fix).toContain('--failed');
    // kill -9, restart: still parked, not forwarded again.
    l.child.kill('SIGKILL');
    await l.exited;
    const sent = app.got.length;
    l = await listen(args);
    await new Promise((r) => setTimeout(r, 1500));
    expect(app.got.length).toBe(sent);
    expect(series((await get(l, '/metrics')).text, 'partner_webhook_parked_events')).toBe(1);
    // The target is fixed: replay --failed sends the parked event (a redelivery, same id) and unparks it.
    app.refuseAll = false;
    const r = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--failed', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const replayed = JSON.parse(r.stdout);
    expect(replayed).toHaveLength(1);
    expect(replayed[0].delivered).toBe(true);
    const last = app.got.at(-1)!;
    expect(last.body).toContain('poison');
    expect(last.redelivery).toBe('1');
    expect(last.id).toBe(app.got.find((g) => g.body.includes('poison'))!.id);
    // The running receiver notices (within its 2 s look), and a second replay has nothing to send.
    await waitFor(async () => series((await get(l, '/metrics')).text, 'partner_webhook_parked_events') === 0, { what: 'no parked event in /metrics', intervalMs: 200 });
    expect(series((await get(l, '/metrics')).text, 'partner_webhook_parked_events')).toBe(0);
    const again = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--failed', '-o', 'json'], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    expect(app.took.filter((b) => b.includes('poison'))).toHaveLength(1);
  }, 60_000);

  it('a target answering `webhook-delivery: abort` parks the event at once (one attempt), without --max-attempts', async () => {
    const spool = join(dir.path, 'spool-abort');
    const l = await listen(['--spool', spool, '--forward-to', app.url]);
    expect((await post(l.url, event('E-ABORT', { marker: 'abort-me' }))).status).toBe(200);
    expect((await post(l.url, event('E-ABORT'))).status).toBe(200);
    await waitFor(() => app.took.length === 1, { what: 'the next event of that employee' });
    expect(app.got.filter((g) => g.body.includes('abort-me'))).toHaveLength(1);
    await waitFor(() => l.stdout().includes('"parked":"target-abort"'), { what: 'the parked line' });
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((x) => JSON.parse(x));
    expect(journal.filter((r) => r.t === 'parked')).toEqual([expect.objectContaining({ reason: 'target-abort', n: 1 })]);
  }, 30_000);
});

/** A receiver on a fresh spool with one event acknowledged and its forward held by the target. */
async function forwardInFlight(name: string, forwardTimeout: string): Promise<{ spool: string; l: Listener }> {
  const spool = join(dir.path, name);
  const l = await listen(['--spool', spool, '--forward-to', app.url, '--forward-timeout', forwardTimeout]);
  app.hold = true;
  expect((await post(l.url, event(`E-${name}`))).status).toBe(200);
  await waitFor(() => app.held.length === 1, { what: 'the forward in flight' });
  return { spool, l };
}

describe('SIGTERM', () => {
  it('mid-forward: the forward in flight finishes, then exit 0; stdout stays one JSON record per line', async () => {
    const { spool, l } = await forwardInFlight('spool-term', '5s');
    l.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const answer of app.held.splice(0)) answer();
    expect(await l.exited).toBe(0);
    expect(app.took).toHaveLength(1);
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((x) => JSON.parse(x));
    expect(journal.at(-1)).toMatchObject({ t: 'delivered' });
    for (const line of l.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(l.stderr()).toMatch(/Stopped \(SIGTERM\)/);
  }, 30_000);

  it('a forward that does not finish within --forward-timeout stays in the spool: exit 0 within the bound, resent at the next start as a redelivery', async () => {
    const { spool, l } = await forwardInFlight('spool-term-slow', '1s');
    const t0 = Date.now();
    l.child.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(l.stderr()).toMatch(/1 undelivered event kept in/);
    app.held.length = 0;
    app.hold = false;
    const again = await listen(['--spool', spool, '--forward-to', app.url]);
    await waitFor(() => app.took.length === 1, { what: 'the redelivery' });
    expect(app.got.at(-1)!.redelivery).toBe('1');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(130);
  }, 30_000);
});
