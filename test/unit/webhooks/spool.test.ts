// The spool: records fsync'd before accept() resolves, one receiver per
// directory, copies stored once, a private directory; delivery one at a time
// with its "start" written before each forward and its "delivered" before
// the next one (so a crash repeats at most the forward in flight, flagged as
// a redelivery); compaction while running; and the dedupe window.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openSpool, readJournal, SpoolError, type Spool } from '../../../src/webhooks/spool.js';
import { DedupeWindow, payloadDigest } from '../../../src/webhooks/forward.js';
import type { Verdict } from '../../../src/webhooks/verify.js';
import { waitFor } from '../../helpers/wait-for.js';
import { closedPort, closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';

const dirs: string[] = [];
const spools: Spool[] = [];
afterEach(async () => {
  for (const s of spools.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'partner-spool-'));
  dirs.push(d);
  return d;
};
const open = async (dir: string, forwardTo?: string, extra: { compactAfterBytes?: number; forwardConcurrency?: number } = {}) => {
  const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo, ...extra });
  spools.push(s);
  return s;
};
const verdict = (n: number) => ({ eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', n } }) as unknown as Verdict;
const event = (n: number) => ({ digest: payloadDigest(verdict(n).payload), jws: `jws-${n}`, verdict: verdict(n), receivedAt: new Date().toISOString() });

describe('spool journal', () => {
  it('stores each event once (copies by payload digest), in a 0700 directory, and keeps them across a reopen', async () => {
    const dir = join(tmp(), 'spool');
    // A target that refuses every connection: the events stay undelivered.
    const target = `http://127.0.0.1:${await closedPort()}/`;
    const s = await open(dir, target);
    expect(await s.accept(event(1))).toBe('stored');
    // Two copies at once share the first append.
    expect(await Promise.all([s.accept(event(2)), s.accept(event(2))])).toEqual(['stored', 'duplicate']);
    expect(await s.accept(event(1))).toBe('duplicate');
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
    const { events, deliveredIds } = await readJournal(dir);
    expect(events.map((e) => e.jws)).toEqual(['jws-1', 'jws-2']);
    expect(events[0]).toMatchObject({ t: 'event', eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { n: 1 }, target });
    expect(deliveredIds.size).toBe(0);
    expect(s.backlog).toBe(2);
    await s.close();
    const again = await open(dir, target);
    expect(again.backlog).toBe(2);
    expect(await again.accept(event(1))).toBe('duplicate');
    await again.close();
    // Without --forward-to nothing is queued for delivery (the journal keeps them for replay).
    const keepOnly = await open(dir);
    expect(keepOnly.backlog).toBe(0);
    expect(await keepOnly.accept(event(5))).toBe('stored');
    expect(keepOnly.backlog).toBe(0);
  });

  it('one receiver per spool; a lock left by a dead process is taken over', async () => {
    const dir = tmp();
    await open(dir);
    await expect(openSpool(dir, { forwardTimeoutMs: 1000 })).rejects.toThrow(/in use by another receiver/);
    const other = tmp();
    writeFileSync(join(other, 'lock'), '999999999');
    await open(other);
    expect(readFileSync(join(other, 'lock'), 'utf8').split('\n')[0]).toBe(String(process.pid));
  });

  it.runIf(process.platform !== 'win32')('a directory others can write to is refused', async () => {
    const dir = join(tmp(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    // ensurePrivateDir tightens a directory we own: so it is accepted, as 0700.
    await open(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await expect(openSpool(join(tmp(), 'missing-parent', 'x'), { forwardTimeoutMs: 1000 }).then((s) => spools.push(s))).resolves.toBeDefined();
    expect(SpoolError).toBeDefined();
  });

});

/** The partner's app: records each POST with the journal as it stood when the POST arrived. */
let server: Server;
let target = '';
let answer = (): number => 200;
const hits: { id: string; redelivery?: string; status: number; body: string; journal: { t: string; id: string }[] }[] = [];
let journalOf = '';
const journalRecords = (dir: string) =>
  readFileSync(join(dir, 'journal.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; id: string; digest?: string });
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = answer();
      hits.push({ id: String(req.headers['x-partner-event-id']), redelivery: req.headers['x-partner-redelivery'] as string | undefined, status, body, journal: journalOf ? journalRecords(journalOf) : [] });
      res.writeHead(status).end();
    });
  });
  const serverAt = await listenOnLoopback(server);
  target = `${serverAt.url}/hooks`;
});
afterAll(async () => {
  await closeServer(server);
});
afterEach(() => {
  hits.splice(0);
  answer = () => 200;
  journalOf = '';
});

describe('spool delivery', () => {
  it('--forward-concurrency 1: one forward at a time: its "start" is written before it goes out, its "delivered" before the next one', async () => {
    const dir = tmp();
    journalOf = dir;
    const s = await open(dir, target, { forwardConcurrency: 1 });
    for (const n of [1, 2, 3]) await s.accept(event(n));
    await waitFor(() => s.backlog === 0 && hits.length === 3, { what: 'three deliveries', timeoutMs: 10_000 });
    const ids = journalRecords(dir).filter((r) => r.t === 'event').map((r) => r.id);
    hits.forEach((h, k) => {
      expect(h.id).toBe(event(k + 1).digest);
      expect(h.redelivery).toBeUndefined();
      // What the journal said when forward k reached the target.
      const seen = h.journal.filter((r) => r.t !== 'event').map((r) => `${r.t} ${ids.indexOf(r.id)}`);
      expect(seen).toEqual([...Array.from({ length: k }, (_, j) => [`start ${j}`, `delivered ${j}`]).flat(), `start ${k}`]);
    });
    await s.close();
    const after = await readJournal(dir);
    expect(after.deliveredIds).toEqual(new Set(ids));
    expect(after.sentBefore.size).toBe(0);
  });

  it('after a crash: the forward that was in flight is sent again as a redelivery (same id), the others once', async () => {
    const dir = tmp();
    const rec = (t: string, id: string) => ({ t, id, at: '2026-11-01T00:00:00.000Z' });
    const stored = (n: number, id: string) => ({ t: 'event', id, digest: event(n).digest, receivedAt: new Date().toISOString(), eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: `jws-${n}`, payload: verdict(n).payload, target });
    // c was delivered; a was in flight at the crash (its "start" is its last record); b was never sent.
    writeFileSync(join(dir, 'journal.ndjson'), [stored(3, 'c'), rec('start', 'c'), rec('delivered', 'c'), stored(1, 'a'), rec('start', 'a'), stored(2, 'b')].map((r) => `${JSON.stringify(r)}\n`).join(''));
    const s = await open(dir, target);
    expect(s.backlog).toBe(2);
    await waitFor(() => s.backlog === 0 && hits.length === 2, { what: 'two deliveries', timeoutMs: 10_000 });
    expect(hits.map((h) => [h.id, h.redelivery])).toEqual([
      [event(1).digest, '1'],
      [event(2).digest, undefined],
    ]);
    expect(JSON.parse(hits[0]!.body)).toEqual(verdict(1).payload);
    await s.close();
    expect((await readJournal(dir)).deliveredIds).toEqual(new Set(['a', 'b', 'c']));
  });

  it('a failed forward is retried (with backoff) as a redelivery', async () => {
    const dir = tmp();
    let n = 0;
    answer = () => (n++ === 0 ? 500 : 204);
    const s = await open(dir, target);
    await s.accept(event(7));
    await waitFor(() => s.backlog === 0 && hits.length === 2, { what: 'the retry', timeoutMs: 10_000 });
    expect(hits.map((h) => [h.status, h.redelivery])).toEqual([
      [500, undefined],
      [204, '1'],
    ]);
    await s.close();
    const records = journalRecords(dir).map((r) => r.t);
    expect(records).toEqual(['event', 'start', 'attempt', 'start', 'delivered']);
  });

  it('one flipped byte in an acknowledged event: never skipped in silence; kept aside with its offset, said at every start-up, the others resumed', async () => {
    const dir = tmp();
    const stored = (n: number, id: string) => ({ t: 'event', id, digest: event(n).digest, receivedAt: new Date().toISOString(), eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: `jws-${n}`, payload: verdict(n).payload, target });
    const text = [1, 2, 3, 4, 5].map((n) => `${JSON.stringify(stored(n, `e${n}`))}\n`).join('');
    const buf = Buffer.from(text);
    const third = buf.indexOf('{"t":"event","id":"e3"');
    buf[third + 10] ^= 0x04; // "event" -> "evant": not one of our records
    writeFileSync(join(dir, 'journal.ndjson'), buf);
    answer = () => 503; // nothing delivered meanwhile
    const told: string[] = [];
    const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: target, log: (m) => told.push(m) });
    spools.push(s);
    expect(s.backlog).toBe(4);
    expect(told).toEqual([
      `spool ${dir}: 1 unreadable journal line (1 found now) kept aside with its offset in ${join(dir, 'journal.unreadable.ndjson')}; the events in it are not delivered from the spool: inspect them (\`partner doctor --spool ${dir}\`)`,
      `spool ${dir}: resuming 4 undelivered events`,
    ]);
    const aside = JSON.parse(readFileSync(join(dir, 'journal.unreadable.ndjson'), 'utf8')) as { offset: number; text: string };
    expect(aside.offset).toBe(third);
    expect(aside.text).toContain('"id":"e3"');
    await s.close();
    // Compacted away from the journal only because it is aside; the next start says so again.
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).not.toContain('"e3"');
    told.length = 0;
    const again = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: target, log: (m) => told.push(m) });
    spools.push(again);
    expect(told[0]).toMatch(/: 1 unreadable journal line kept aside with its offset in /);
    await again.close();
  });

  it('compacts while running: delivered events past retention leave the journal; later events go to the new file', async () => {
    const dir = tmp();
    // The target refuses until both are queued: the worker is idle (and compacts) only after delivering both.
    let open_ = false;
    answer = () => (open_ ? 200 : 503);
    const s = await open(dir, target, { compactAfterBytes: 1, forwardConcurrency: 1 });
    const old = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
    await s.accept({ ...event(1), receivedAt: old });
    await s.accept({ ...event(2), receivedAt: old });
    await waitFor(() => hits.length >= 1, { what: 'the first (refused) forward', timeoutMs: 10_000 });
    open_ = true;
    // Counted by 2xx: on a slow machine a retry may be refused once more before open_ is set.
    const taken = () => hits.filter((h) => h.status === 200).length;
    await waitFor(() => s.backlog === 0 && taken() === 2, { what: 'two deliveries', timeoutMs: 10_000 });
    await waitFor(() => !readFileSync(join(dir, 'journal.ndjson'), 'utf8').includes('"t":"event"'), { what: 'the compaction', timeoutMs: 10_000 });
    // Still a duplicate within the dedupe window (kept in memory), though no longer in the journal.
    expect(await s.accept(event(1))).toBe('duplicate');
    expect(await s.accept(event(3))).toBe('stored');
    await waitFor(() => s.backlog === 0 && taken() === 3, { what: 'the third delivery', timeoutMs: 10_000 });
    await s.close();
    const { events, deliveredIds } = await readJournal(dir);
    expect(events.map((e) => e.jws)).toEqual(['jws-3']);
    expect(deliveredIds).toEqual(new Set([events[0]!.id]));
    if (process.platform !== 'win32') expect(statSync(join(dir, 'journal.ndjson')).mode & 0o777).toBe(0o600);
  });
});

describe('spool delivery: several forwards in flight', () => {
  /** A target that holds every request until the test releases it. */
  async function holdingTarget() {
    const held: { code: string; n: number; id: string; redelivery?: string; release: (status: number) => void }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const p = JSON.parse(body) as { data: { employeeCode: string; n: number } };
        held.push({ code: p.data.employeeCode, n: p.data.n, id: String(req.headers['x-partner-event-id']), redelivery: req.headers['x-partner-redelivery'] as string | undefined, release: (status) => res.writeHead(status).end() });
      });
    });
    const serverAt = await listenOnLoopback(server);
    return {
      held,
      url: `${serverAt.url}/hooks`,
      close: async () => {
        await closeServer(server);
      },
    };
  }
  const about = (code: string, n: number) => {
    const payload = { eventType: 'EMPLOYEE_UPDATED', timestamp: '2026-11-01T00:00:00.000Z', data: { employeeCode: code, n } };
    return { digest: payloadDigest(payload), jws: `jws-${code}-${n}`, verdict: { eventType: 'EMPLOYEE_UPDATED', kid: 'k1', payload } as unknown as Verdict, receivedAt: new Date().toISOString() };
  };

  it('up to N at once; the events of one employee one at a time, in arrival order, a failed one retried before the next of its employee', async () => {
    const t = await holdingTarget();
    try {
      const dir = tmp();
      const attempts: string[] = [];
      const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: t.url, forwardConcurrency: 3, onDelivery: (a) => attempts.push(`${(a.event.payload as { data: { employeeCode: string; n: number } }).data.employeeCode}${(a.event.payload as { data: { n: number } }).data.n} ${a.result.status}${a.retryInMs !== undefined ? ` retry ${a.retryInMs}` : ''}${a.redelivery ? ' again' : ''}`) });
      spools.push(s);
      for (const [code, n] of [['A', 1], ['B', 1], ['A', 2], ['C', 1], ['D', 1], ['A', 3]] as const) await s.accept(about(code, n));
      // Three in flight: A1, B1, C1 (A2 waits for A1, D1 for a free slot).
      await waitFor(() => t.held.length === 3, { what: 'three forwards in flight' });
      expect(t.held.map((h) => `${h.code}${h.n}`)).toEqual(['A1', 'B1', 'C1']);
      t.held[0]!.release(500); // A1 fails: retried (as a redelivery) before A2
      t.held[1]!.release(200);
      t.held[2]!.release(200);
      await waitFor(() => t.held.length === 5, { what: 'the retry of A1 and D1' });
      expect(t.held.slice(3).map((h) => `${h.code}${h.n} ${h.redelivery ?? '-'}`).sort()).toEqual(['A1 1', 'D1 -']);
      for (const h of t.held.slice(3)) h.release(200);
      await waitFor(() => t.held.length === 6, { what: 'A2' });
      expect(t.held[5]!.code + t.held[5]!.n).toBe('A2');
      t.held[5]!.release(200);
      await waitFor(() => t.held.length === 7, { what: 'A3' });
      t.held[6]!.release(200);
      await waitFor(() => s.backlog === 0, { what: 'every delivery' });
      expect(t.held.filter((h) => h.code === 'A').map((h) => h.n)).toEqual([1, 1, 2, 3]);
      expect(attempts[0]).toBe('A1 500 retry 500');
      expect(attempts).toContain('A1 200 again');
      await s.close();
      const after = await readJournal(dir);
      expect(after.deliveredIds.size).toBe(6);
      expect(after.sentBefore.size).toBe(0);
    } finally {
      await t.close();
    }
  });

  /** A spool forwarding one at a time to a target that holds every forward, with 128 undelivered events (the first in flight), all answered at once. */
  async function atHighWater(t: Awaited<ReturnType<typeof holdingTarget>>) {
    const s = await openSpool(tmp(), { forwardTimeoutMs: 1000, forwardTo: t.url, forwardConcurrency: 1 });
    spools.push(s);
    for (let n = 1; n <= 128; n++) await s.accept(about('K', n));
    await waitFor(() => t.held.length === 1, { what: 'the first forward' });
    return s;
  }

  it('deliveries keep up: past the high-water mark a sender\'s answer waits for a delivery (bounded); a failing target is not waited for', async () => {
    const t = await holdingTarget();
    try {
      const s = await atHighWater(t);
      let answered = false;
      const waiting = s.accept(about('K', 129)).then(() => (answered = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false); // stored, but the answer waits: 129 > 128
      t.held[0]!.release(200);
      await waiting;
      expect(s.backlog).toBe(128);
      // The target fails: nothing is waited for (the spool is for that).
      await waitFor(() => t.held.length === 2, { what: 'the next forward' });
      t.held[1]!.release(503);
      await waitFor(() => s.backlog === 128 && t.held.length === 2, { what: 'the failure' });
      // Answered before the retry (after the 500 ms backoff) goes out: not held back for a delivery.
      await s.accept(about('K', 130));
      expect(t.held).toHaveLength(2);
      await waitFor(() => t.held.length === 3, { what: 'the retry' });
    } finally {
      await t.close();
    }
  });

  it('an event stored, retried or next of its employee wakes one idle worker, not all of them', async () => {
    const t = await holdingTarget();
    try {
      const s = await openSpool(tmp(), { forwardTimeoutMs: 1000, forwardTo: t.url, forwardConcurrency: 64 });
      spools.push(s);
      // Counts the workers that look for an event (each woken worker looks once, then sleeps again).
      const queue = (s as unknown as { pending: { take: () => unknown } }).pending;
      const take = queue.take.bind(queue);
      let looks = 0;
      queue.take = () => (looks++, take());
      await new Promise((r) => setTimeout(r, 50)); // the 64 workers have looked and sleep
      looks = 0;
      await s.accept(about('W', 1));
      await waitFor(() => t.held.length === 1, { what: 'the forward' });
      await new Promise((r) => setTimeout(r, 50));
      expect(looks).toBeLessThanOrEqual(2);
      looks = 0;
      t.held[0]!.release(200);
      await waitFor(() => s.backlog === 0, { what: 'the delivery' });
      await new Promise((r) => setTimeout(r, 50));
      expect(looks).toBeLessThanOrEqual(2);
    } finally {
      await t.close();
    }
  });

  it('each delivery lets one waiting answer go, the one waiting longest (not every sender at once)', async () => {
    const t = await holdingTarget();
    try {
      const s = await atHighWater(t);
      const answered: number[] = [];
      const waiting = [129, 130, 131].map((n) => s.accept(about('K', n)).then(() => answered.push(n)));
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toEqual([]);
      t.held[0]!.release(200);
      await waitFor(() => answered.length === 1, { what: 'one answer' });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toEqual([129]);
      await waitFor(() => t.held.length === 2, { what: 'the next forward' });
      t.held[1]!.release(200);
      await waitFor(() => answered.length === 2, { what: 'a second answer' });
      expect(answered).toEqual([129, 130]);
      await waitFor(() => t.held.length === 3, { what: 'the third forward' });
      t.held[2]!.release(200);
      await Promise.all(waiting);
      expect(answered).toEqual([129, 130, 131]);
    } finally {
      await t.close();
    }
  });

  it('a crash with several forwards in flight: exactly those are sent again, as redeliveries with their event id', async () => {
    const t = await holdingTarget();
    try {
      const dir = tmp();
      const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: t.url, forwardConcurrency: 4 });
      for (let n = 1; n <= 10; n++) await s.accept(about(`E${n}`, n));
      await waitFor(() => t.held.length === 4, { what: 'four in flight' });
      const inFlight = t.held.map((h) => h.id);
      // What kill -9 leaves: the journal as written (the forwards' "start" records are in it); nothing more happens.
      const journal = readFileSync(join(dir, 'journal.ndjson'));
      const copy = tmp();
      writeFileSync(join(copy, 'journal.ndjson'), journal);
      await s.close();
      t.held.splice(0);
      const again = await openSpool(copy, { forwardTimeoutMs: 1000, forwardTo: t.url, forwardConcurrency: 4 });
      spools.push(again);
      const seen: typeof t.held = [];
      await waitFor(() => {
        for (const h of t.held.splice(0)) {
          seen.push(h);
          h.release(200);
        }
        return seen.length === 10;
      }, { what: 'ten deliveries' });
      expect(seen.filter((h) => h.redelivery === '1').map((h) => h.id).sort()).toEqual([...inFlight].sort());
      expect(seen.filter((h) => h.redelivery === undefined)).toHaveLength(6);
      expect(new Set(seen.map((h) => h.id)).size).toBe(10);
      await waitFor(() => again.backlog === 0, { what: 'the records of the deliveries' });
    } finally {
      await t.close();
    }
  });
});

describe('DedupeWindow', () => {
  it('remembers a digest for the window, then forgets it; bounded in count (oldest first)', () => {
    let t = 0;
    const w = new DedupeWindow(1000, 2, () => t);
    w.add('a');
    expect(w.has('a')).toBe(true);
    t = 1000;
    expect(w.has('a')).toBe(true);
    t = 1001;
    expect(w.has('a')).toBe(false);
    w.add('b');
    w.add('c');
    w.add('d');
    expect([w.has('b'), w.has('c'), w.has('d')]).toEqual([false, true, true]);
  });

  it('keeps real digests apart (stored by their first 128 bits), and times before the window was made count', () => {
    let t = 5000;
    const w = new DedupeWindow(1000, 10, () => t);
    const a = payloadDigest({ n: 1 });
    const b = payloadDigest({ n: 2 });
    // Restored from the journal: received before the window was made.
    w.add(a, 4500);
    expect([w.has(a), w.has(b)]).toEqual([true, false]);
    w.add(b);
    t = 5501;
    expect([w.has(a), w.has(b)]).toEqual([false, true]);
    // Another digest with the same first 128 bits is taken for the same event.
    expect(w.has(`${b.slice(0, 32)}${'0'.repeat(32)}`)).toBe(true);
    expect(w.has(b.toUpperCase())).toBe(false);
  });

  it('payloadDigest is SHA-256 of the payload JSON', () => {
    expect(payloadDigest({ a: 1 })).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});
