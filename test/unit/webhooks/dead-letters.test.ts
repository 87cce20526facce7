// Dead letters of the spool: --max-attempts parks an
// event and frees its subject; the target's `webhook-delivery: abort` parks
// at once; the parked state is a journal record that survives a reopen and
// compaction; replay --failed picks exactly the parked ones, and its
// "delivered" record unparks them (also in a running receiver).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openSpool, readJournal, type DeliveryAttempt, type Spool } from '../../../src/webhooks/spool.js';
import { payloadDigest, saysAbort } from '../../../src/webhooks/forward.js';
import { compactJournal } from '../../../src/webhooks/journal-compact.js';
import { deliveredSince } from '../../../src/webhooks/journal-tail.js';
import { appendRecord, selectEvents } from '../../../src/webhooks/replay.js';
import type { Verdict } from '../../../src/webhooks/verify.js';
import { waitFor } from '../../helpers/wait-for.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';

const dirs: string[] = [];
const spools: Spool[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'partner-dead-'));
  dirs.push(d);
  return join(d, 'spool');
};
afterEach(async () => {
  for (const s of spools.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  got.length = 0;
});

/** Employee `code`'s event number n: the target refuses "poison" (400) and "abort" (422 + webhook-delivery: abort). */
const verdict = (code: string, n: number, marker = '') => ({ eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', timestamp: '2026-01-01T00:00:00Z', data: { employeeId: '11111111-1111-4111-8111-111111111111', employeeCode: code, firstName: 'A', lastName: 'B', email: 'a@b.example', status: 'ONBOARDING' }, n, marker } }) as unknown as Verdict;
const event = (code: string, n: number, marker = '') => ({ digest: payloadDigest(verdict(code, n, marker).payload), jws: `jws-${code}-${n}`, verdict: verdict(code, n, marker), receivedAt: new Date().toISOString() });
const got: { n: number; marker: string; code: string }[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const p = JSON.parse(body) as { n: number; marker: string; data: { employeeCode: string } };
      got.push({ n: p.n, marker: p.marker, code: p.data.employeeCode });
      if (p.marker === 'poison') return res.writeHead(400).end();
      if (p.marker === 'abort') return res.writeHead(422, { 'webhook-delivery': 'Abort' }).end();
      res.writeHead(200).end();
    });
  });
  const serverAt = await listenOnLoopback(server);
  url = `${serverAt.url}/`;
});
afterAll(async () => {
  await closeServer(server);
});

const open = async (dir: string, o: { maxAttempts?: number; onDelivery?: (a: DeliveryAttempt) => void } = {}) => {
  const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: url, ...o });
  spools.push(s);
  return s;
};

describe('--max-attempts', () => {
  it('refused twice with max 2: parked, with a parked record; the same employee\'s next event goes; other employees never waited', async () => {
    const dir = tmp();
    const attempts: DeliveryAttempt[] = [];
    const s = await open(dir, { maxAttempts: 2, onDelivery: (a) => attempts.push(a) });
    await s.accept(event('E-1', 1, 'poison'));
    await s.accept(event('E-1', 2));
    await s.accept(event('E-2', 3));
    await waitFor(() => got.some((g) => g.n === 2) && s.backlog === 0, { what: 'E-1\'s next event delivered' });
    expect(got.filter((g) => g.n === 1)).toHaveLength(2);
    // E-2 went before the poison event was parked (a refusal holds back only its subject).
    expect(got.findIndex((g) => g.n === 3)).toBeLessThan(got.findLastIndex((g) => g.n === 1));
    expect(s.parked).toBe(1);
    expect(s.backlog).toBe(0);
    expect(s.oldestWaitingMs()).toBe(0);
    expect(attempts.filter((a) => a.parked)).toEqual([expect.objectContaining({ parked: 'max-attempts', result: expect.objectContaining({ status: 400 }) })]);
    expect(attempts.filter((a) => a.retryInMs !== undefined)).toHaveLength(1);
    const state = await readJournal(dir);
    expect(state.parked.size).toBe(1);
    expect(state.attempts.get([...state.parked][0]!)).toBe(2);
    const lines = readFileSync(join(dir, 'journal.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.t === 'attempt').map((l) => l.n)).toEqual([1, 2]);
    expect(lines.filter((l) => l.t === 'parked')).toEqual([expect.objectContaining({ n: 2, reason: 'max-attempts' })]);
  });

  it('without --max-attempts a refused event is retried (not parked)', async () => {
    const s = await open(tmp());
    await s.accept(event('E-1', 1, 'poison'));
    await waitFor(() => got.length >= 2, { what: 'a retry' });
    expect(s.parked).toBe(0);
    expect(s.backlog).toBe(1);
    expect(s.oldestWaitingMs()).toBeGreaterThanOrEqual(0);
  });

  it('the count of attempts survives a reopen and a compaction (n on the records), and so does the parked state', async () => {
    const dir = tmp();
    let s = await open(dir, { maxAttempts: 3 });
    await s.accept(event('E-1', 1, 'poison'));
    await waitFor(() => readFileSync(join(dir, 'journal.ndjson'), 'utf8').includes('"n":2'), { what: 'two attempts recorded' });
    await s.close();
    const before = got.length;
    await compactJournal(dir, { retainMs: 1, now: () => Date.now() + 10_000 });
    expect((await readJournal(dir)).attempts.get((await readJournal(dir)).events[0]!.id)).toBe(before);
    s = await open(dir, { maxAttempts: 3 });
    await waitFor(() => s.parked === 1, { what: 'parked after the third attempt overall' });
    expect(got.length).toBe(3);
    await s.close();
    await compactJournal(dir, { retainMs: 1, now: () => Date.now() + 10_000 });
    s = await open(dir, { maxAttempts: 3 });
    expect(s.parked).toBe(1);
    expect(s.backlog).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(got.length).toBe(3); // a parked event is not forwarded at start-up
  });
});

describe('the target says abort', () => {
  it('webhook-delivery: abort (any case) parks at once, after one attempt, without --max-attempts', async () => {
    const dir = tmp();
    const s = await open(dir);
    await s.accept(event('E-9', 1, 'abort'));
    await s.accept(event('E-9', 2));
    await waitFor(() => got.some((g) => g.n === 2), { what: 'the next event of E-9' });
    expect(got.filter((g) => g.n === 1)).toHaveLength(1);
    expect(s.parked).toBe(1);
    expect(saysAbort({ 'webhook-delivery': ' abort ' })).toBe(true);
    expect(saysAbort({ 'webhook-delivery': ['x', 'ABORT'] })).toBe(true);
    expect(saysAbort({ 'webhook-delivery': 'retry' })).toBe(false);
    expect(saysAbort(undefined)).toBe(false);
  });
});

describe('replay --failed and unparking', () => {
  it('selects only parked events; a delivered record appended by replay unparks them in the journal and in a running receiver', async () => {
    const dir = tmp();
    const s = await open(dir, { maxAttempts: 1 });
    await s.accept(event('E-1', 1, 'poison'));
    await s.accept(event('E-2', 2));
    await waitFor(() => s.parked === 1 && got.some((g) => g.n === 2), { what: 'parked and delivered' });
    const parked = await selectEvents(dir, { failed: true });
    expect(parked.map((e) => (e.payload as { n: number }).n)).toEqual([1]);
    expect((await selectEvents(dir, {})).length).toBe(2);
    appendRecord(dir, { t: 'delivered', id: parked[0]!.id, at: new Date().toISOString(), status: 200 });
    expect(await selectEvents(dir, { failed: true })).toEqual([]);
    await s.lookForUnparked();
    expect(s.parked).toBe(0);
  });

  it('deliveredSince: only complete delivered lines after the offset; a long (event) line is skipped, not held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-tail-'));
    dirs.push(dir);
    const path = join(dir, 'journal.ndjson');
    appendFileSync(path, `${JSON.stringify({ t: 'delivered', id: 'old', at: 'x' })}\n`);
    const from = readFileSync(path).length;
    appendFileSync(path, `${JSON.stringify({ t: 'event', id: 'e', digest: 'd', pad: 'x'.repeat(600_000) })}\n${JSON.stringify({ t: 'delivered', id: 'a', at: 'x' })}\nnot json "delivered"\n${JSON.stringify({ t: 'attempt', id: 'b', at: 'x' })}\n{"t":"delivered","id":"torn"`);
    const scan = await deliveredSince(path, from);
    expect(scan.delivered).toEqual(['a']);
    const size = readFileSync(path).length;
    expect(scan.next).toBe(size - '{"t":"delivered","id":"torn"'.length);
    appendFileSync(path, ',"at":"x"}\n');
    expect((await deliveredSince(path, scan.next)).delivered).toEqual(['torn']);
  });
});
