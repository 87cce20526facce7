// What a failed forward means (target-health.ts): a refusal counts towards
// --max-attempts, an outage waits and is never parked; Retry-After is
// honoured (capped); the target's state is told once each way.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLoopbackServer } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { openSpool, type DeliveryAttempt, type Spool } from '../../../src/webhooks/spool.js';
import { MAX_RETRY_AFTER_MS, payloadDigest, retryAfterMs } from '../../../src/webhooks/forward.js';
import { failureKind, TargetHealth, type TargetChange } from '../../../src/webhooks/target-health.js';
import type { Verdict } from '../../../src/webhooks/verify.js';

describe('failureKind', () => {
  it.each([
    [{ error: 'ECONNREFUSED' }, 'outage'],
    [{ error: 'timeout' }, 'outage'],
    [{ status: 502 }, 'outage'],
    [{ status: 503 }, 'outage'],
    [{ status: 504 }, 'outage'],
    [{ status: 429 }, 'outage'],
    [{ status: 408 }, 'outage'],
    [{ status: 500 }, 'outage'],
    [{ status: 400 }, 'refusal'],
    [{ status: 404 }, 'refusal'],
    [{ status: 422, abort: true }, 'abort'],
  ])('%j is %s', (r, kind) => {
    expect(failureKind({ url: 'x', ...r })).toBe(kind);
  });

  it('a 5xx named in --park-on is a refusal; others still wait', () => {
    const parkOn = new Set([500, 501]);
    expect(failureKind({ url: 'x', status: 500 }, parkOn)).toBe('refusal');
    expect(failureKind({ url: 'x', status: 501 }, parkOn)).toBe('refusal');
    expect(failureKind({ url: 'x', status: 505 }, parkOn)).toBe('outage');
    expect(failureKind({ url: 'x', status: 503 }, parkOn)).toBe('outage');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, caps long waits, ignores nonsense', () => {
    expect(retryAfterMs({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterMs({ 'retry-after': ['2', '9'] })).toBe(2000);
    expect(retryAfterMs({ 'retry-after': new Date(1_000_000 + 10_000).toUTCString() }, 1_000_000)).toBe(10_000);
    expect(retryAfterMs({ 'retry-after': '86400' })).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe('TargetHealth', () => {
  it('tells each change once, not per attempt', () => {
    let t = 1000;
    const changes: TargetChange[] = [];
    const h = new TargetHealth(() => t, (c) => changes.push(c));
    h.unreachable('ECONNREFUSED');
    t = 2000;
    h.unreachable('ECONNRESET');
    expect(h.problem).toEqual({ since: 1000, reason: 'ECONNRESET', lastTry: 2000 });
    expect(h.describe('refused')).toMatch(/since 1970-01-01T00:00:01.000Z \(ECONNRESET.*answered 503/);
    t = 5000;
    h.reachable();
    h.reachable();
    expect(h.problem).toBeUndefined();
    expect(changes).toEqual([{ reachable: false, since: 1000, reason: 'ECONNREFUSED' }, { reachable: true, downForMs: 4000 }]);
  });
});

describe('the spool under --max-attempts', () => {
  const dirs: string[] = [];
  const spools: Spool[] = [];
  /** What the target answers next, per employee code. */
  const answers = new Map<string, { status: number; headers?: Record<string, string> }>();
  const got: { code: string; at: number }[] = [];
  const target = useLoopbackServer((_req, res, body) => {
    const code = (JSON.parse(body) as { data: { employeeCode: string } }).data.employeeCode;
    got.push({ code, at: Date.now() });
    const a = answers.get(code) ?? { status: 200 };
    res.writeHead(a.status, a.headers).end();
  });
  afterEach(async () => {
    for (const s of spools.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    answers.clear();
    got.length = 0;
  });
  const verdict = (code: string) => ({ eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', timestamp: '2026-01-01T00:00:00Z', data: { employeeCode: code, status: 'ONBOARDING' } } }) as unknown as Verdict;
  const event = (code: string) => ({ digest: payloadDigest(verdict(code).payload), jws: `jws-${code}`, verdict: verdict(code), receivedAt: new Date().toISOString() });
  const open = async (o: { parkOn?: Set<number>; target?: TargetHealth; onDelivery?: (a: DeliveryAttempt) => void }) => {
    const d = mkdtempSync(join(tmpdir(), 'partner-outage-'));
    dirs.push(d);
    const s = await openSpool(join(d, 'spool'), { forwardTimeoutMs: 1000, forwardTo: `${target.url}/`, maxAttempts: 2, ...o });
    spools.push(s);
    return s;
  };

  it('503 with Retry-After: 2 waits at least 2 s, is not counted, and is delivered once the target takes it; the state is told once each way', async () => {
    const changes: TargetChange[] = [];
    const attempts: DeliveryAttempt[] = [];
    const s = await open({ target: new TargetHealth(Date.now, (c) => changes.push(c)), onDelivery: (a) => attempts.push(a) });
    answers.set('E-1', { status: 503, headers: { 'retry-after': '2' } });
    await s.accept(event('E-1'));
    await waitFor(() => got.length === 1, { what: 'the first try' });
    answers.delete('E-1');
    await waitFor(() => s.backlog === 0, { what: 'delivered after the wait', timeoutMs: 10_000 });
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1900);
    expect(s.parked).toBe(0);
    expect(attempts.map((a) => a.waiting ?? false)).toEqual([true, false]);
    expect(attempts[0]!.retryInMs).toBe(2000);
    expect(changes.map((c) => c.reachable)).toEqual([false, true]);
  });

  it('500 waits (never parked) unless --park-on names it: then two refusals park it', async () => {
    answers.set('E-5', { status: 500 });
    const waits = await open({});
    await waits.accept(event('E-5'));
    await waitFor(() => got.length >= 3, { what: 'three tries', timeoutMs: 10_000 });
    expect(waits.parked).toBe(0);
    expect(waits.backlog).toBe(1);
    await waits.close();
    got.length = 0;
    const parks = await open({ parkOn: new Set([500]) });
    await parks.accept(event('E-5'));
    await waitFor(() => parks.parked === 1, { what: 'parked after two refusals', timeoutMs: 10_000 });
    expect(got).toHaveLength(2);
  });
});
