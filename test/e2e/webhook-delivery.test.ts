// `webhook listen` as something you can leave running: hostile
// bodies do not silence it, nothing is acknowledged that was not kept
// (target down, failing, slow), copies are not forwarded twice, a key-set
// outage is 503, and with --spool a kill -9 mid-load loses nothing and
// delivers every acknowledged event exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { b64, ecKey, employeeCreated, signBytes, signEs } from '../unit/webhooks/helpers.js';
import { listen as listenOn, receiverFixture } from '../helpers/listen.js';
import { closedPort, startLoopbackServer } from '../helpers/loopback-server.js';
import { waitFor } from '../helpers/wait-for.js';

const children: ChildProcessWithoutNullStreams[] = [];
const listen = (args: string[], env: NodeJS.ProcessEnv) => listenOn(args, env, children);


/**
 * The partner's app: answers per `mode`, records every body it got (and took, with a 2xx).
 * A 'slow' answer waits for release() (after the test saw the timeout), not for a fixed time.
 */
async function target() {
  const state = {
    mode: 'ok' as 'ok' | 'fail' | 'slow',
    delayMs: 0,
    held: [] as (() => void)[],
    release: () => {
      for (const answer of state.held.splice(0)) answer();
    },
    got: [] as { body: string; id: string | undefined; redelivery: string | undefined }[],
    took: [] as string[],
    url: '',
    close: () => Promise.resolve(),
  };
  const server = await startLoopbackServer((req, res, body) => {
    state.got.push({ body, id: req.headers['x-partner-event-id'] as string | undefined, redelivery: req.headers['x-partner-redelivery'] as string | undefined });
    const answer = () => {
      if (state.mode === 'fail') return res.writeHead(500).end();
      state.took.push(body);
      res.writeHead(202).end();
    };
    if (state.mode === 'slow') state.held.push(answer);
    else if (state.delayMs) setTimeout(answer, state.delayMs);
    else answer();
  });
  state.url = `${server.url}/hooks`;
  state.close = server.close;
  return state;
}

const digest = (body: string) => createHash('sha256').update(body).digest('hex');
const k1 = ecKey('k1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;
let app: Awaited<ReturnType<typeof target>>;
let seq = 0;
/** A genuine event, unique per call. */
const genuine = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: `E-${++seq}` }), k1.privateKey);

beforeAll(async () => {
  ({ dir, env, jwksFile } = receiverFixture([k1.jwk]));
  app = await target();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app.close();
  dir.cleanup();
});

const post = (url: string, body: string) => fetch(url, { method: 'POST', body });

describe('webhook listen: hostile bodies never silence the receiver', () => {
  it('a 5,000-deep header, then a genuine event: both answered, both printed (-o ndjson); POST // is 404', async () => {
    const l = await listen(['--jwks-file', jwksFile, '-o', 'ndjson'], env);
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const hostile = await post(l.url, `${b64(nested)}.${genuine().split('.').slice(1).join('.')}`);
    expect(hostile.status).toBe(413);
    expect((await hostile.json()).error).toBe('TOO_LARGE');
    const deep = await post(l.url, `${b64(`{"alg":"ES512","x":${'['.repeat(1000)}${']'.repeat(1000)}}`)}.AAAA.AAAA`);
    expect(deep.status).toBe(400);
    const ok = await post(l.url, genuine());
    expect(ok.status).toBe(200);
    await waitFor(() => l.stdout().trim().split('\n').length === 3, { what: 'three ndjson lines' });
    const lines = l.stdout().trim().split('\n').map((x) => JSON.parse(x));
    expect(lines.map((x) => [x.httpStatus, x.reason])).toEqual([
      [413, 'TOO_LARGE'],
      [400, 'MALFORMED'],
      [200, null],
    ]);
    const raw = await new Promise<number>((resolve, reject) => {
      const u = new URL(l.url);
      import('node:http').then(({ request }) => {
        const req = request({ host: u.hostname, port: u.port, path: '//', method: 'POST' }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end('x');
      });
    });
    expect(raw).toBe(404);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(l.stderr()).not.toMatch(/Maximum call stack|receiver error/);
  });

  it('webhook verify --file: a hostile line does not stop the lines after it', async () => {
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const file = join(dir.path, 'mixed.jws');
    writeFileSync(file, `${b64(nested)}.AAAA.AAAA\n\ufeff${genuine()}\n${genuine()}\n`);
    const r = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'ndjson'], { env });
    expect(r.code).toBe(8);
    const lines = r.stdout.trim().split('\n').map((x) => JSON.parse(x));
    expect(lines.map((x) => [x.line, x.reason])).toEqual([
      [1, 'TOO_LARGE'],
      [2, 'MALFORMED'],
      [3, null],
    ]);
    expect(r.stderr).toMatch(/3 webhooks: 1 valid, 2 invalid/);
  });
});

describe('webhook listen --forward-to: 2xx only when the target took it', () => {
  it('target failing → 503 + Retry-After; sender retries after recovery → 200; a later copy → 200 without a second forward', async () => {
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', app.url], env);
    const jws = genuine();
    const before = app.took.length;
    app.mode = 'fail';
    const first = await post(l.url, jws);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await first.json()).error).toBe('NOT_DELIVERED');
    app.mode = 'ok';
    const retry = await post(l.url, jws);
    expect(retry.status).toBe(200);
    expect(app.took.length).toBe(before + 1);
    const copy = await post(l.url, jws);
    expect(copy.status).toBe(200);
    expect(await copy.json()).toMatchObject({ received: true, duplicate: true });
    expect(app.took.length).toBe(before + 1);
    await waitFor(() => /already delivered/.test(l.stdout()), { what: 'the duplicate line' });
    expect(l.stdout()).toMatch(/ 503 .*forwarded 500/);
    l.child.kill('SIGINT');
    await l.exited;
  });

  it('target down → 503; slow target → 503 within --forward-timeout', async () => {
    const deadUrl = `http://127.0.0.1:${await closedPort()}/x`;
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', deadUrl], env);
    const r = await post(l.url, genuine());
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    l.child.kill('SIGINT');
    await l.exited;

    const s = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--forward-timeout', '500ms'], env);
    app.mode = 'slow';
    const slowJws = genuine();
    const slowBody = JSON.stringify(JSON.parse(Buffer.from(slowJws.split('.')[1]!, 'base64url').toString('utf8')));
    const t0 = Date.now();
    const slow = await post(s.url, slowJws);
    const took = Date.now() - t0;
    expect(slow.status).toBe(503);
    expect(took).toBeLessThan(2500);
    // The sender retries at once: it joins the forward still in flight (not a second POST), and is told 503 again.
    expect((await post(s.url, slowJws)).status).toBe(503);
    app.mode = 'ok';
    await waitFor(() => /no answer within 0.5 s/.test(s.stdout()), { what: 'the timeout line' });
    // The slow target finishes; the next retry is acknowledged without sending the event again.
    app.release();
    await waitFor(() => app.took.includes(slowBody), { what: 'the slow target to finish', timeoutMs: 10_000 });
    const retry = await post(s.url, slowJws);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ duplicate: true });
    expect(app.got.filter((g) => g.body === slowBody)).toHaveLength(1);
    s.child.kill('SIGINT');
    await s.exited;
  });

  it('a key-set outage answers 503 with Retry-After, never 401', async () => {
    const keys = await startLoopbackServer((_req, res) => res.writeHead(404).end('{"error":"NOT_FOUND"}'));
    const l = await listen(['--jwks-url', `${keys.url}/jwks.json`], env);
    const r = await post(l.url, genuine());
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await r.json()).error).toBe('KEYS_UNAVAILABLE');
    l.child.kill('SIGINT');
    await l.exited;
    await keys.close();
  });
});

describe('webhook listen --spool', () => {
  it('kill -9 mid-load and restart: every acknowledged event is delivered exactly once; journal private', async () => {
    const spool = join(dir.path, 'spool');
    app.mode = 'ok';
    app.delayMs = 60; // a backlog builds up (4 forwards in flight), so the kill catches undelivered events
    const startGot = app.got.length;
    const acked = new Set<string>();
    const sent = new Set<string>();
    const fire = async (url: string, n: number) => {
      const jobs: Promise<void>[] = [];
      for (let i = 0; i < n; i++) {
        const jws = genuine();
        const body = JSON.stringify(JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')));
        sent.add(digest(body));
        jobs.push(
          post(url, jws)
            .then((r) => {
              if (r.status === 200) acked.add(digest(body));
            })
            .catch(() => undefined),
        );
        if (jobs.length % 10 === 0) await Promise.all(jobs.slice(-10));
      }
      await Promise.all(jobs);
    };
    const l1 = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '--forward-concurrency', '4'], env);
    const load = fire(l1.url, 120);
    await waitFor(() => acked.size >= 60, { what: 'sixty acknowledged events' });
    l1.child.kill('SIGKILL');
    await load;
    await l1.exited;
    const beforeRestart = app.got.length - startGot;
    expect(beforeRestart).toBeLessThan(acked.size); // some were acknowledged but not yet delivered
    const l2 = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '--forward-concurrency', '4'], env);
    expect(l2.stderr()).toMatch(/resuming \d+ undelivered event/);
    await fire(l2.url, 20);
    const received = () => app.got.slice(startGot).filter((g) => app.took.includes(g.body));
    await waitFor(() => [...acked].every((d) => received().some((g) => digest(g.body) === d)), { what: 'every acknowledged event delivered', timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    const counts = new Map<string, number>();
    for (const g of received()) counts.set(digest(g.body), (counts.get(digest(g.body)) ?? 0) + 1);
    // At the kill, at most --forward-concurrency (4) forwards were in flight. If the target took one but the
    // receiver died before recording that, it is sent again after the restart — with the same
    // x-partner-event-id, so the target drops the copy. Nothing else is ever sent twice.
    // (Changed on purpose with was "at most one", when delivery was sequential.)
    const dupes = [...counts].filter(([, n]) => n > 1);
    expect(dupes.length).toBeLessThanOrEqual(4);
    // That copy is flagged: its "start" record was the last one at the kill.
    for (const [d] of dupes) expect(received().filter((g) => digest(g.body) === d).map((g) => g.redelivery)).toEqual([undefined, '1']);
    for (const g of received()) expect(g.id).toBe(digest(g.body));
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((x) => JSON.parse(x));
    const kept = new Set<string>(journal.filter((r) => r.t === 'event').map((r) => r.digest));
    // Kept is what was fsync'd: every acknowledged event, plus any the kill caught between the fsync and the
    // 200 reaching the sender (a sender that saw no answer retries, and is told 200 duplicate). Every kept
    // event is delivered, and nothing that was not sent.
    for (const d of acked) expect(kept.has(d)).toBe(true);
    for (const d of kept) expect(sent.has(d)).toBe(true);
    expect(kept.size - acked.size).toBeLessThanOrEqual(10); // at most the posts in flight at the kill
    expect(new Set(received().map((g) => g.id))).toEqual(kept);
    if (process.platform !== 'win32') {
      expect(statSync(spool).mode & 0o777).toBe(0o700);
      expect(statSync(join(spool, 'journal.ndjson')).mode & 0o777).toBe(0o600);
    }
    expect(journal.filter((r) => r.t === 'event').length).toBe(kept.size);
    app.delayMs = 0;
    l2.child.kill('SIGINT');
    expect(await l2.exited).toBe(130);

    // Replay: every stored EMPLOYEE_CREATED event again, to another URL, in arrival order.
    const startReplay = app.got.length;
    const r = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--event-type', 'EMPLOYEE_CREATED', '--to', `${app.url}?replay=1`], { env, timeoutMs: 30_000 });
    expect(r.stderr).toMatch(new RegExp(`${kept.size} events replayed: ${kept.size} delivered, 0 not delivered`));
    expect(r.code).toBe(0);
    const replayed = app.got.slice(startReplay).map((g) => digest(g.body));
    expect(replayed).toEqual(journal.filter((x) => x.t === 'event').map((x) => x.digest));
    const none = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--event-type', 'EMPLOYEE_DELETED'], { env });
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/nothing replayed/);
  }, 60_000);

  it('restart after a crash mid-forward: that event is resent flagged x-partner-redelivery: 1; delivered events past 7 days are compacted away', async () => {
    const spool = join(dir.path, 'spool-crashed');
    mkdirSync(spool, { mode: 0o700 });
    app.mode = 'ok';
    const stored = (code: string, daysAgo: number) => {
      const jws = genuine();
      const payload = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8'));
      return { t: 'event', id: code, digest: digest(JSON.stringify(payload)), receivedAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(), eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws, payload, target: app.url };
    };
    const at = new Date().toISOString();
    const old = stored('old', 9);
    const inFlight = stored('in-flight', 0);
    const fresh = stored('fresh', 0);
    const lines = [old, { t: 'start', id: 'old', at }, { t: 'delivered', id: 'old', at, status: 200 }, inFlight, { t: 'start', id: 'in-flight', at }, fresh];
    writeFileSync(join(spool, 'journal.ndjson'), lines.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    const start = app.got.length;
    // One forward at a time: the two events are about different employees, whose order is not promised otherwise.
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '--forward-concurrency', '1'], env);
    await waitFor(() => app.got.length - start >= 2, { what: 'the two undelivered events' });
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(app.got.slice(start).map((g) => [g.id, g.redelivery])).toEqual([
      [inFlight.digest, '1'],
      [fresh.digest, undefined],
    ]);
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((x) => JSON.parse(x));
    expect(journal.filter((r) => r.t === 'event').map((r) => r.id)).toEqual(['in-flight', 'fresh']);
    // Replay sees what compaction kept.
    const r = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--to', `${app.url}?replay=2`], { env, timeoutMs: 30_000 });
    expect(r.stderr).toMatch(/2 events replayed: 2 delivered, 0 not delivered/);
  }, 30_000);

  it('kill -9 with several forwards in flight: exactly those are sent again (x-partner-redelivery: 1, same id); one employee\'s events in order; each attempt printed', async () => {
    const spool = join(dir.path, 'spool-concurrent');
    let holding = true;
    const got: { code: string; n: number; id: string; redelivery?: string }[] = [];
    const held: ServerResponse[] = [];
    const hold = await startLoopbackServer((req, res, body) => {
      const p = JSON.parse(body) as { data: { employeeCode: string; n: number } };
      got.push({ code: p.data.employeeCode, n: p.data.n, id: String(req.headers['x-partner-event-id']), redelivery: req.headers['x-partner-redelivery'] as string | undefined });
      if (holding) held.push(res);
      else res.writeHead(202).end();
    });
    const url = `${hold.url}/hooks`;
    try {
      const event = (code: string, n: number) => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: code, n }), k1.privateKey);
      const l1 = await listen(['--jwks-file', jwksFile, '--forward-to', url, '--spool', spool, '--forward-concurrency', '3'], env);
      for (const [code, n] of [['A', 1], ['A', 2], ['B', 1], ['C', 1], ['D', 1], ['E', 1]] as const) expect((await post(l1.url, event(code, n))).status).toBe(200);
      await waitFor(() => got.length === 3, { what: 'three forwards in flight' });
      await new Promise((r) => setTimeout(r, 200)); // and no fourth: the slots are full
      expect(got.map((g) => `${g.code}${g.n}`)).toEqual(['A1', 'B1', 'C1']);
      const inFlight = got.map((g) => g.id);
      l1.child.kill('SIGKILL');
      await l1.exited;
      holding = false;
      for (const r of held.splice(0)) r.destroy();
      got.splice(0);
      const l2 = await listen(['--jwks-file', jwksFile, '--forward-to', url, '--spool', spool, '--forward-concurrency', '3'], env);
      expect(l2.stderr()).toMatch(/resuming 6 undelivered events/);
      await waitFor(() => got.length === 6 && (l2.stdout().match(/-> delivered/g) ?? []).length === 6, { what: 'six deliveries, each printed' });
      expect(got.filter((g) => g.redelivery === '1').map((g) => g.id).sort()).toEqual([...inFlight].sort());
      expect(got.filter((g) => g.redelivery === undefined).map((g) => `${g.code}${g.n}`).sort()).toEqual(['A2', 'D1', 'E1']);
      expect(got.filter((g) => g.code === 'A').map((g) => g.n)).toEqual([1, 2]);
      // Each attempt's outcome, as stripe listen shows each forward's status.
      expect(l2.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}EMPLOYEE_CREATED {2}A {2}-> delivered 202 \(redelivery\)$/m);
      expect(l2.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}EMPLOYEE_CREATED {2}A {2}-> delivered 202$/m);
      l2.child.kill('SIGINT');
      expect(await l2.exited).toBe(130);
    } finally {
      await hold.close();
    }
  }, 30_000);

  it('-o ndjson: a target failing (500) is one target record, not one per attempt; each delivery is a record; the event line still says spooled', async () => {
    const spool = join(dir.path, 'spool-records');
    app.mode = 'fail';
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '-o', 'ndjson'], env);
    const jws = genuine();
    const start = app.got.length;
    expect((await post(l.url, jws)).status).toBe(200);
    const records = () => l.stdout().trim().split('\n').filter(Boolean).map((x) => JSON.parse(x) as Record<string, unknown>);
    await waitFor(() => app.got.length - start >= 3, { what: 'three failed attempts' });
    app.mode = 'ok';
    await waitFor(() => records().some((r) => (r.delivery as { delivered?: boolean } | undefined)?.delivered), { what: 'the delivery', timeoutMs: 20_000 });
    l.child.kill('SIGINT');
    await l.exited;
    const all = records();
    expect(all[0]).toMatchObject({ httpStatus: 200, valid: true, spooled: 'stored' });
    expect(all.filter((r) => r.target).map((r) => r.target)).toEqual([
      { url: app.url, reachable: false, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), reason: 'HTTP 500', downForMs: null },
      { url: app.url, reachable: true, since: null, reason: null, downForMs: expect.any(Number) },
    ]);
    const attempts = all.filter((r) => r.delivery).map((r) => r.delivery as Record<string, unknown>);
    expect(attempts).toEqual([expect.objectContaining({ eventType: 'EMPLOYEE_CREATED', to: app.url, status: 202, error: null, delivered: true, redelivery: true, retryInMs: null, parked: null })]);
    for (const r of all.filter((x) => x.delivery || x.target)) expect(r.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  }, 30_000);

  it('one flipped byte in the journal: start-up names the line kept aside (count, file), the rest is delivered, doctor --spool shows it', async () => {
    const spool = join(dir.path, 'spool-flipped');
    mkdirSync(spool, { mode: 0o700 });
    app.mode = 'ok';
    const stored = (code: string) => {
      const jws = genuine();
      const payload = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8'));
      return { t: 'event', id: code, digest: digest(JSON.stringify(payload)), receivedAt: new Date().toISOString(), eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws, payload, target: app.url };
    };
    const events = ['e1', 'e2', 'e3', 'e4', 'e5'].map(stored);
    const buf = Buffer.from(events.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const at = buf.indexOf('"id":"e3"');
    buf[at + 2] ^= 0x01; // "id" -> "hd": that line is no record any more
    writeFileSync(join(spool, 'journal.ndjson'), buf, { mode: 0o600 });
    const start = app.got.length;
    // One forward at a time: the five events are of five employees, so more slots would send them in any order.
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '--forward-concurrency', '1'], env);
    await waitFor(() => app.got.length - start >= 4, { what: 'the four readable events' });
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(l.stderr()).toContain(`spool ${spool}: 1 unreadable journal line (1 found now) kept aside with its offset in ${join(spool, 'journal.unreadable.ndjson')}`);
    expect(l.stderr()).toContain('resuming 4 undelivered events');
    expect(app.got.slice(start).map((g) => g.id)).toEqual([events[0]!.digest, events[1]!.digest, events[3]!.digest, events[4]!.digest]);
    const aside = JSON.parse(readFileSync(join(spool, 'journal.unreadable.ndjson'), 'utf8')) as { offset: number; text: string };
    expect(aside.offset).toBe(buf.lastIndexOf(0x0a, at) + 1);
    expect(aside.text).toContain(events[2]!.jws);
    const doctor = await runCli(['doctor', '--spool', spool, '-o', 'json'], { env, timeoutMs: 30_000 });
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; message: string }[] }).checks.find((c) => c.name === 'spool');
    expect(check).toMatchObject({ status: 'warn', message: expect.stringContaining(`1 unreadable journal line(s) kept aside in ${join(spool, 'journal.unreadable.ndjson')} (offsets ${aside.offset})`) });
  }, 30_000);

  it('target down: events are acknowledged once spooled and delivered when it comes back', async () => {
    const spool = join(dir.path, 'spool2');
    app.mode = 'fail';
    const l = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool], env);
    const jws = genuine();
    const r = await post(l.url, jws);
    expect(r.status).toBe(200);
    const body = JSON.stringify(JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')));
    await waitFor(() => app.got.filter((g) => g.body === body).length >= 2, { what: 'two failed attempts' });
    app.mode = 'ok';
    await waitFor(() => app.took.includes(body), { what: 'the delivery after recovery', timeoutMs: 20_000 });
    const again = await post(l.url, jws);
    expect(await again.json()).toMatchObject({ received: true, duplicate: true });
    l.child.kill('SIGINT');
    await l.exited;
    expect(app.took.filter((b) => b === body)).toHaveLength(1);
  }, 30_000);
});

describe('forwarded exactly as signed', () => {
  it('a payload with numbers JSON.parse would change reaches the target as signed: directly, through the spool, and by replay', async () => {
    // 9007199254740993 would become …992, 1e400 null, 1.50 1.5.
    const signed = (n: number) =>
      `{"eventType":"EMPLOYEE_CREATED","timestamp":"2025-03-01T09:30:00.000Z","data":{"id":"${'00000000-0000-4000-8000-00000000000' + n}","customerId":"11111111-1111-4111-8111-111111111111","employeeCode":"BIG-${n}","status":"ONBOARDING","type":"EMPLOYEE","country":"DEU","salary":9007199254740993,"ratio":1.50,"huge":1e400}}`;
    app.mode = 'ok';
    const direct = await listen(['--jwks-file', jwksFile, '--forward-to', app.url], env);
    expect((await post(direct.url, signBytes({ alg: 'ES512', kid: 'k1' }, signed(1), k1.privateKey))).status).toBe(200);
    expect(app.took).toContain(signed(1));
    direct.child.kill('SIGINT');
    await direct.exited;

    const spool = join(dir.path, 'spool-exact');
    const spooled = await listen(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool], env);
    expect((await post(spooled.url, signBytes({ alg: 'ES512', kid: 'k1' }, signed(2), k1.privateKey))).status).toBe(200);
    await waitFor(() => app.took.includes(signed(2)), { what: 'the spooled delivery' });
    spooled.child.kill('SIGINT');
    await spooled.exited;

    const before = app.took.length;
    const r = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--to', app.url], { env, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(app.took.slice(before)).toEqual([signed(2)]);
  }, 40_000);

  it('webhook verify prints those numbers as signed: one JWS, and a file verified on worker threads', async () => {
    const payload = '{"eventType":"EMPLOYEE_CREATED","timestamp":"2025-03-01T09:30:00.000Z","data":{"id":"00000000-0000-4000-8000-000000000009","customerId":"11111111-1111-4111-8111-111111111111","employeeCode":"BIG-9","status":"ONBOARDING","type":"EMPLOYEE","country":"DEU","salary":9007199254740993,"ratio":1.50}}';
    const exact = signBytes({ alg: 'ES512', kid: 'k1' }, payload, k1.privateKey);
    const one = await runCli(['webhook', 'verify', exact, '--jwks-file', jwksFile, '-o', 'json'], { env });
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/"salary": 9007199254740993,\s*"ratio": 1\.50/);
    const lines: string[] = [];
    while (lines.join('\n').length < 200 * 1024) lines.push(genuine());
    lines.splice(100, 0, exact);
    const file = join(dir.path, 'exact.jws');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const many = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'ndjson', '--debug'], { env, timeoutMs: 120_000 });
    expect(many.stderr).toMatch(/verifying on \d+ worker threads/);
    expect(many.code).toBe(0);
    const out = many.stdout.trim().split('\n');
    expect(out).toHaveLength(lines.length);
    expect(out[100]).toMatch(/"line":101,.*"salary":9007199254740993,"ratio":1\.50/);
  }, 120_000);
});

describe('hostile key-set hosts', () => {
  it('a 5 MB key set is cut off at 1 MiB and never cached; a host trickling bytes is cut off at --timeout', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let mode: 'huge' | 'trickle' = 'huge';
    const keys = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (mode === 'huge') {
        res.write('{"keys":[');
        let sent = 0;
        const pump = () => {
          while (sent < 80 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          if (!res.destroyed) res.end(']}');
        };
        pump();
      } else {
        res.write('{');
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 200);
        res.on('close', () => clearInterval(t));
      }
    });
    const jwksUrl = `${keys.url}/jwks.json`;
    const cacheEnv = { ...env, PARTNER_CACHE_DIR: join(dir.path, 'hostile-cache') };
    const big = await runCli(['webhook', 'verify', genuine(), '--jwks-url', jwksUrl], { env: cacheEnv });
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/larger than 1048576 bytes/);
    expect(() => statSync(join(dir.path, 'hostile-cache', 'jwks'))).toThrow();
    mode = 'trickle';
    const t0 = Date.now();
    const slow = await runCli(['webhook', 'verify', genuine(), '--jwks-url', jwksUrl, '--timeout', '2'], { env: cacheEnv });
    expect(slow.code).toBe(1);
    expect(slow.stderr).toMatch(/within 2 s/);
    // One attempt and a few retries of a GET may run, but each is cut off at 2 s: far from the 149 s of an idle timeout.
    expect(Date.now() - t0).toBeLessThan(15_000);
    await keys.close();
  }, 30_000);
});

describe('webhook verify --file on worker threads', () => {
  it('a big file: verdicts in input order, hostile and forged lines among genuine ones; a key rotated after the first fetch is found', async () => {
    const k2 = ecKey('k2');
    const attacker = ecKey('k1');
    let served = [k1.jwk];
    const keys = await startLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served })));
    const jwksUrl = `${keys.url}/jwks.json`;
    const lines: string[] = [];
    const expected: (string | null)[] = [];
    for (let i = 0; lines.join('\n').length < 200 * 1024; i++) {
      const kind = i % 7;
      if (kind === 3) {
        lines.push(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: `F-${i}` }), attacker.privateKey));
        expected.push('BAD_SIGNATURE');
      } else if (kind === 5) {
        lines.push(`${b64(`{"alg":"ES512","x":${'['.repeat(50)}${']'.repeat(50)}}`)}.AAAA.AAAA`);
        expected.push('MALFORMED');
      } else {
        lines.push(signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: `G-${i}` }), k1.privateKey));
        expected.push(null);
      }
    }
    // The last line is signed with a key published only after the first fetch.
    lines.push(signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated({ employeeCode: 'ROTATED' }), k2.privateKey));
    expected.push(null);
    const file = join(dir.path, 'big.jws');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = runCli(['webhook', 'verify', '--file', file, '--jwks-url', jwksUrl, '--no-cache', '-o', 'ndjson', '--debug'], { env, timeoutMs: 120_000 });
    served = [k1.jwk, k2.jwk];
    const r = await run;
    expect(r.stderr).toMatch(/verifying on \d+ worker threads/);
    const got = r.stdout.trim().split('\n').map((x) => JSON.parse(x));
    expect(got.map((x) => x.line)).toEqual(lines.map((_, i) => i + 1));
    expect(got.map((x) => x.reason)).toEqual(expected);
    expect(got.at(-1)).toMatchObject({ valid: true, kid: 'k2' });
    expect(r.code).toBe(8);
    await keys.close();
  }, 120_000);
});

describe('webhook listen: --max-age and look-alike event types', () => {
  it('an event older than --max-age is refused (400 STALE_EVENT); a fresh one is taken; a type with U+200B is printed escaped', async () => {
    const l = await listen(['--jwks-file', jwksFile, '--max-age', '1h'], env);
    const old = await post(l.url, genuine());
    expect(old.status).toBe(400);
    expect((await old.json()).error).toBe('STALE_EVENT');
    const fresh = signEs({ alg: 'ES512', kid: 'k1' }, { ...employeeCreated({ employeeCode: 'FRESH-1' }), timestamp: new Date().toISOString() }, k1.privateKey);
    expect((await post(l.url, fresh)).status).toBe(200);
    const sneaky = signEs({ alg: 'ES512', kid: 'k1' }, { ...employeeCreated(), eventType: 'EMPLOYEE_CREATED\u200b', timestamp: new Date().toISOString() }, k1.privateKey);
    expect((await post(l.url, sneaky)).status).toBe(200);
    await waitFor(() => /EMPLOYEE_CREATED\\u200b/.test(l.stdout()), { what: 'the escaped event type' });
    expect(l.stdout()).not.toContain('\u200b');
    expect(l.stdout()).toMatch(/ 400 .*older than --max-age/);
    l.child.kill('SIGINT');
    await l.exited;
  });
});

describe('webhook listen: Ctrl-C is prompt even with a forward in flight', () => {
  it('with a target that never answers, SIGINT exits 130 within a second (spool and direct)', async () => {
    let hung = 0;
    const hang = await startLoopbackServer(() => void hung++);
    const hangUrl = `${hang.url}/`;
    for (const extra of [['--spool', join(dir.path, 'spool-hang')], []]) {
      const l = await listen(['--jwks-file', jwksFile, '--forward-to', hangUrl, '--forward-timeout', '60s', ...extra], env);
      const pending = post(l.url, genuine()).catch(() => undefined);
      const before = hung;
      await waitFor(() => hung > before, { what: 'the forward in flight' });
      const t0 = Date.now();
      l.child.kill('SIGINT');
      expect(await l.exited).toBe(130);
      expect(Date.now() - t0).toBeLessThan(1500);
      await pending;
    }
    await hang.close();
  }, 30_000);
});

describe('webhook listen: key rotation twice within 30 s', () => {
  it('the second new kid gets 503 with Retry-After (not 401) while the refetch is held back', async () => {
    const k2 = ecKey('k2');
    const k3 = ecKey('k3');
    let served = [k1.jwk];
    let fetches = 0;
    const keys = await startLoopbackServer((_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
    });
    const jwksUrl = `${keys.url}/jwks.json`;
    const l = await listen(['--jwks-url', jwksUrl, '--no-cache'], env);
    expect((await post(l.url, genuine())).status).toBe(200);
    served = [k1.jwk, k2.jwk];
    expect((await post(l.url, signEs({ alg: 'ES512', kid: 'k2' }, employeeCreated(), k2.privateKey))).status).toBe(200);
    served = [k2.jwk, k3.jwk];
    const third = await post(l.url, signEs({ alg: 'ES512', kid: 'k3' }, employeeCreated(), k3.privateKey));
    expect(third.status).toBe(503);
    const wait = Number(third.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    expect((await third.json()).error).toBe('UNKNOWN_KID');
    expect(fetches).toBe(2);
    l.child.kill('SIGINT');
    await l.exited;
    await keys.close();
  });
});
