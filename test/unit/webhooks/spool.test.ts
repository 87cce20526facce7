// The spool's journal on its own: records fsync'd before accept() resolves,
// a torn tail cut on open, one receiver per directory, copies stored once,
// a private directory; and the dedupe window.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSpool, readJournal, SpoolError, type Spool } from '../../../src/webhooks/spool.js';
import { DedupeWindow, payloadDigest } from '../../../src/webhooks/forward.js';
import type { Verdict } from '../../../src/webhooks/verify.js';

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
const open = async (dir: string, forwardTo?: string) => {
  const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo });
  spools.push(s);
  return s;
};
const verdict = (n: number) => ({ eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', n } }) as unknown as Verdict;
const event = (n: number) => ({ digest: payloadDigest(verdict(n).payload), jws: `jws-${n}`, verdict: verdict(n), receivedAt: new Date().toISOString() });

describe('spool journal', () => {
  it('stores each event once (copies by payload digest), in a 0700 directory, and keeps them across a reopen', async () => {
    const dir = join(tmp(), 'spool');
    // A target that refuses every connection: the events stay undelivered.
    const s = await open(dir, 'http://127.0.0.1:1/');
    expect(await s.accept(event(1))).toBe('stored');
    // Two copies at once share the first append.
    expect(await Promise.all([s.accept(event(2)), s.accept(event(2))])).toEqual(['stored', 'duplicate']);
    expect(await s.accept(event(1))).toBe('duplicate');
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
    const { events, deliveredIds } = await readJournal(dir);
    expect(events.map((e) => e.jws)).toEqual(['jws-1', 'jws-2']);
    expect(events[0]).toMatchObject({ t: 'event', eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { n: 1 }, target: 'http://127.0.0.1:1/' });
    expect(deliveredIds.size).toBe(0);
    expect(s.backlog).toBe(2);
    await s.close();
    const again = await open(dir, 'http://127.0.0.1:1/');
    expect(again.backlog).toBe(2);
    expect(await again.accept(event(1))).toBe('duplicate');
    await again.close();
    // Without --forward-to nothing is queued for delivery (the journal keeps them for replay).
    const keepOnly = await open(dir);
    expect(keepOnly.backlog).toBe(0);
    expect(await keepOnly.accept(event(5))).toBe('stored');
    expect(keepOnly.backlog).toBe(0);
  });

  it('a torn last record (a crash mid-write) is cut on open; complete records stay', async () => {
    const dir = tmp();
    const s = await open(dir);
    await s.accept(event(1));
    await s.close();
    appendFileSync(join(dir, 'journal.ndjson'), '{"t":"event","id":"x","dig');
    const again = await open(dir);
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8').endsWith('}\n')).toBe(true);
    expect(await again.accept(event(3))).toBe('stored');
    const { events } = await readJournal(dir);
    expect(events.map((e) => e.jws)).toEqual(['jws-1', 'jws-3']);
  });

  it('one receiver per spool; a lock left by a dead process is taken over', async () => {
    const dir = tmp();
    await open(dir);
    await expect(openSpool(dir, { forwardTimeoutMs: 1000 })).rejects.toThrow(/in use by another receiver/);
    const other = tmp();
    writeFileSync(join(other, 'lock'), '999999999');
    await open(other);
    expect(readFileSync(join(other, 'lock'), 'utf8')).toBe(String(process.pid));
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

  it('an empty or missing journal reads as no events', async () => {
    expect(await readJournal(tmp())).toEqual({ events: [], deliveredIds: new Set(), attempts: new Map() });
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

  it('payloadDigest is SHA-256 of the payload JSON', () => {
    expect(payloadDigest({ a: 1 })).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});
