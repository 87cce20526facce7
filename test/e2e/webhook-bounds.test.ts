// `webhook listen` on an address anyone can reach: a
// sender has seconds, not minutes, for its headers and its body (408); the
// bytes of bodies held at once are capped (503 with Retry-After, connection
// closed); connections are capped under the open-files limit, idle and slow
// ones making room first, so a flood of idle or slow connections never keeps
// a genuine sender from being served.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { destroyAll, openMany, peakRss, postHead, rawClient, statusOf, type RawClient } from '../helpers/hostile-clients.js';
import { listen as listenOn, receiverFixture } from '../helpers/listen.js';
import { waitFor } from '../helpers/wait-for.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';

const children: ChildProcessWithoutNullStreams[] = [];
const clients: RawClient[] = [];
const listen = (args: string[], o: { fdLimit?: number } = {}) => listenOn(['--jwks-file', jwksFile, '-o', 'ndjson', ...args], env, children, o);
const k1 = ecKey('k1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;
let seq = 0;
const genuine = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: `B-${++seq}` }), k1.privateKey);
const post = (url: string, body: string) => fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(15_000) });
const MiB = 1024 * 1024;

/** Sends `n` genuine events, `width` at a time; their statuses. */
async function genuineEvents(url: string, n: number, width = 10): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += width) {
    const batch = await Promise.all(Array.from({ length: Math.min(width, n - i) }, () => post(url, genuine()).then((r) => (void r.body?.cancel(), r.status), () => 0)));
    statuses.push(...batch);
  }
  return statuses;
}

beforeAll(() => {
  ({ dir, env, jwksFile } = receiverFixture([k1.jwk]));
});

afterEach(() => {
  destroyAll(clients);
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

afterAll(() => dir.cleanup());

describe('webhook listen: time bounds (--read-timeout)', () => {
  it('headers that never end: 408 and the connection closed within seconds; the receiver still answers', async () => {
    const l = await listen(['--read-timeout', '1s']);
    const t0 = Date.now();
    const slow = await rawClient(l.url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: applic', clients);
    await Promise.race([slow.closed, new Promise((r) => setTimeout(r, 6000))]);
    expect(slow.socket.destroyed || slow.socket.readableEnded).toBe(true);
    expect(statusOf(slow)).toBe(408);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await genuineEvents(l.url, 1))[0]).toBe(200);
  }, 20_000);

  it('by default (10 s), a body that stalls and one trickled a byte at a time: both 408 REQUEST_TIMEOUT within seconds, not minutes', async () => {
    const l = await listen([]);
    const body = genuine();
    const stalled = await rawClient(l.url, postHead(l.url, body.length) + body.slice(0, 20), clients);
    const trickled = await rawClient(l.url, postHead(l.url, body.length), clients);
    let i = 0;
    const drip = setInterval(() => !trickled.socket.destroyed && trickled.socket.write(body[i++ % body.length]!), 100);
    const t0 = Date.now();
    await Promise.race([Promise.all([stalled.closed, trickled.closed]), new Promise((r) => setTimeout(r, 16_000))]);
    clearInterval(drip);
    for (const c of [stalled, trickled]) {
      expect(statusOf(c)).toBe(408);
      expect(c.received()).toContain('REQUEST_TIMEOUT');
    }
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect((await genuineEvents(l.url, 1))[0]).toBe(200);
  }, 40_000);
});

describe('webhook listen: bodies held at once (--max-body-memory)', () => {
  it('20 senders each declaring 1 MiB at once: past 4 MiB they get 503 + Retry-After and are closed; slow ones make room for genuine events; /metrics shows the bytes held', async () => {
    const l = await listen(['--max-body-memory', '4', '--metrics']);
    // Each declares 1 MiB and sends all but the last byte.
    await openMany(l.url, 20, () => Buffer.concat([Buffer.from(postHead(l.url, MiB)), Buffer.alloc(MiB - 1, 0x41)]), clients);
    await waitFor(() => clients.filter((c) => statusOf(c) === 503).length >= 16, { what: '503 for the senders past the budget', timeoutMs: 10_000 });
    const refused = clients.filter((c) => statusOf(c) === 503);
    expect(refused.length).toBe(16);
    for (const c of refused) {
      expect(c.received()).toMatch(/retry-after: \d+/i);
      expect(c.received()).toMatch(/connection: close/i);
    }
    await Promise.all(refused.map((c) => c.closed));
    const metrics = await (await fetch(new URL('/metrics', l.url))).text();
    expect(Number(/^partner_webhook_held_body_bytes (\d+)/m.exec(metrics)?.[1])).toBe(4 * MiB);
    // After a second, the stalled bodies are slow: genuine events make room (a slow one is closed for each).
    await new Promise((r) => setTimeout(r, 1100));
    expect(await genuineEvents(l.url, 10, 5)).toEqual(Array(10).fill(200));
    const after = await (await fetch(new URL('/metrics', l.url))).text();
    expect(after).toMatch(/^partner_webhook_connections_closed_total\{outcome="slow"\} [1-9]/m);
  }, 30_000);
});

describe('webhook listen: connection floods', () => {
  it('with `ulimit -n 256`, 1,000 half-open connections: every genuine event is still acknowledged', async () => {
    const l = await listen([], { fdLimit: 256 });
    await openMany(l.url, 1000, () => undefined, clients);
    // The receiver closed idle ones to stay under its cap (256 - 128 reserved): many of ours are gone.
    const closed = () => clients.filter((c) => c.socket.destroyed || c.socket.readableEnded).length;
    // Without the cap nothing is closed (and accepting fails at the limit): the genuine events below show what that costs.
    await waitFor(() => closed() >= 800, { what: 'idle connections closed for room', timeoutMs: 5000 }).catch(() => undefined);
    expect(await genuineEvents(l.url, 30, 3)).toEqual(Array(30).fill(200));
    expect(closed()).toBeGreaterThanOrEqual(800);
    expect(l.child.exitCode).toBeNull();
  }, 60_000);

  it('2,000 half-open connections and 500 slow 1 MiB bodies held: 100 genuine events all acknowledged, peak memory under 200 MiB', async () => {
    const l = await listen([]);
    await openMany(l.url, 2000, () => undefined, clients);
    await openMany(l.url, 500, () => Buffer.concat([Buffer.from(postHead(l.url, MiB)), Buffer.alloc(MiB - 1, 0x42)]), clients);
    await new Promise((r) => setTimeout(r, 1100)); // the bodies are slow now
    const statuses = await genuineEvents(l.url, 100);
    expect(statuses.filter((s) => s === 200).length).toBe(100);
    const peak = peakRss(l.child.pid!);
    console.log(`webhook listen peak RSS with 2,000 half-open + 500 slow bodies + 100 events: ${(peak / MiB).toFixed(1)} MiB`);
    expect(peak).toBeLessThan(200 * MiB);
  }, 120_000);
});
