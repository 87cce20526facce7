// Compaction of the spool journal: what stays (undelivered events however
// old, delivered ones within retention, one state record each), nothing
// rewritten when nothing can go, and a stop between any two steps (as a
// kill -9 would leave the files) loses nothing.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactJournal, COMPACT_TEMP, discardCompaction, shouldCompact, type CompactionStep } from '../../../src/webhooks/journal-compact.js';
import { JOURNAL, readJournal } from '../../../src/webhooks/journal.js';
import { openSpool } from '../../../src/webhooks/spool.js';
import { readAside, UNREADABLE } from '../../../src/webhooks/journal-aside.js';
import { scratchDirs } from './helpers.js';

const tmp = scratchDirs('partner-compact-');
const NOW = Date.parse('2026-11-20T00:00:00.000Z');
const DAY = 24 * 3600_000;
const policy = { retainMs: 7 * DAY, now: () => NOW };
const ev = (id: string, daysAgo: number) => ({ t: 'event', id, digest: `d-${id}`, receivedAt: new Date(NOW - daysAgo * DAY).toISOString(), eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: `jws-${id}`, payload: { id }, target: 'http://127.0.0.1:1/' });
const rec = (t: string, id: string, extra = {}) => ({ t, id, at: '2026-11-19T00:00:00.000Z', ...extra });
const lines = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** old-done: delivered 10 days ago (goes); new-done: delivered 1 day ago (stays); old-pending: failing for 30 days (stays); new-sent: interrupted by a crash (stays, still a redelivery). */
const JOURNAL_BEFORE = [
  ev('old-pending', 30),
  rec('start', 'old-pending'),
  rec('attempt', 'old-pending', { status: 500 }),
  rec('start', 'old-pending'),
  rec('attempt', 'old-pending', { error: 'ECONNREFUSED' }),
  ev('old-done', 10),
  rec('start', 'old-done'),
  rec('attempt', 'old-done', { status: 503 }),
  rec('start', 'old-done'),
  rec('delivered', 'old-done', { status: 200 }),
  ev('new-done', 1),
  rec('start', 'new-done'),
  rec('delivered', 'new-done', { status: 202 }),
  rec('attempt', 'new-done', { status: 500 }), // a stray record after the delivery: delivered stays final
  rec('attempt', 'orphan', { status: 500 }), // its event is gone: dropped
  ev('new-sent', 0),
  rec('start', 'new-sent'),
  ev('never-sent', 0), // no record of its own: none is made up
];
const JOURNAL_AFTER = [
  ev('old-pending', 30),
  rec('attempt', 'old-pending', { error: 'ECONNREFUSED' }),
  ev('new-done', 1),
  rec('delivered', 'new-done', { status: 202 }),
  ev('new-sent', 0),
  rec('start', 'new-sent'),
  ev('never-sent', 0),
];

describe('compactJournal', () => {
  it('keeps undelivered events and delivered ones within retention, each with one state record; 0600; no temp file left', async () => {
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL), lines(JOURNAL_BEFORE));
    const before = await readJournal(dir);
    const r = await compactJournal(dir, policy);
    expect(r).toMatchObject({ rewritten: true, dropped: 1, bytes: Buffer.byteLength(lines(JOURNAL_AFTER)) });
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(lines(JOURNAL_AFTER));
    if (process.platform !== 'win32') expect(statSync(join(dir, JOURNAL)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, COMPACT_TEMP))).toBe(false);
    const after = await readJournal(dir);
    // What delivery and de-duplication need is unchanged, but for the delivered event past retention.
    expect([...before.sentBefore].sort()).toEqual(['new-sent', 'old-pending', 'orphan']);
    expect([...after.sentBefore].sort()).toEqual(['new-sent', 'old-pending']);
    expect([...after.deliveredIds]).toEqual(['new-done']);
    expect(after.events.map((e) => e.id)).toEqual(['old-pending', 'new-done', 'new-sent', 'never-sent']);
    expect(after.events[0]).toEqual(before.events[0]);
  });

  it('nothing to drop: the journal is left as it is (no rewrite at every start-up)', async () => {
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL), lines(JOURNAL_AFTER));
    const mtime = statSync(join(dir, JOURNAL)).mtimeMs;
    expect(await compactJournal(dir, policy)).toEqual({ rewritten: false, dropped: 0, bytes: Buffer.byteLength(lines(JOURNAL_AFTER)), unreadable: 0, setAside: 0 });
    expect(statSync(join(dir, JOURNAL)).mtimeMs).toBe(mtime);
    expect(await compactJournal(tmp(), policy)).toEqual({ rewritten: false, dropped: 0, bytes: 0, unreadable: 0, setAside: 0 });
  });

  it('a journal larger than the write buffer (256 KiB) is copied exactly', async () => {
    const dir = tmp();
    const big = (id: string) => ({ ...ev(id, 0), jws: 'x'.repeat(200 * 1024) });
    const [a, b, c] = [big('a'), big('b'), big('c')];
    writeFileSync(join(dir, JOURNAL), lines([a, rec('delivered', 'a'), b, rec('start', 'b'), rec('attempt', 'b'), c, rec('start', 'c')]));
    expect((await compactJournal(dir, policy)).rewritten).toBe(true);
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(lines([a, rec('delivered', 'a'), b, rec('attempt', 'b'), c, rec('start', 'c')]));
  });

  it('discardCompaction removes a leftover temp file, and minds no missing one', () => {
    const dir = tmp();
    writeFileSync(join(dir, COMPACT_TEMP), 'half');
    discardCompaction(dir);
    expect(existsSync(join(dir, COMPACT_TEMP))).toBe(false);
    expect(() => discardCompaction(dir)).not.toThrow();
  });

  it('a retention boundary: delivered exactly at the cutoff stays, a millisecond older goes', async () => {
    const dir = tmp();
    const at = (id: string, ms: number) => ({ ...ev(id, 0), receivedAt: new Date(NOW - 7 * DAY - ms).toISOString() });
    writeFileSync(join(dir, JOURNAL), lines([at('edge', 0), rec('delivered', 'edge'), at('past', 1), rec('delivered', 'past')]));
    expect((await compactJournal(dir, policy)).dropped).toBe(1);
    expect((await readJournal(dir)).events.map((e) => e.id)).toEqual(['edge']);
  });

  it('stopped after any step (as by kill -9): the next start finds every event and its state, and no temp file', async () => {
    const steps: CompactionStep[] = ['scanned', 'written', 'synced', 'renamed'];
    for (const step of steps) {
      const dir = tmp();
      writeFileSync(join(dir, JOURNAL), lines(JOURNAL_BEFORE));
      const crash = new Error(`stopped after ${step}`);
      await expect(compactJournal(dir, policy, undefined, (s) => {
        if (s === step) throw crash;
      })).rejects.toBe(crash);
      const journal = readFileSync(join(dir, JOURNAL), 'utf8');
      // Before the rename the old journal is whole; from the rename on, the new one is.
      expect(journal).toBe(step === 'renamed' ? lines(JOURNAL_AFTER) : lines(JOURNAL_BEFORE));
      const spool = await openSpool(dir, { forwardTimeoutMs: 1000, now: () => NOW });
      await spool.close();
      expect(existsSync(join(dir, COMPACT_TEMP))).toBe(false);
      const state = await readJournal(dir);
      expect(state.events.map((e) => e.id)).toEqual(['old-pending', 'new-done', 'new-sent', 'never-sent']);
      expect([...state.deliveredIds]).toEqual(['new-done']);
      expect([...state.sentBefore].sort()).toEqual(['new-sent', 'old-pending']);
    }
  });

  it('a compaction that fails at start-up (its temp path taken by a directory) leaves the journal whole and the receiver starts', async () => {
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL), lines(JOURNAL_BEFORE));
    mkdirSync(join(dir, COMPACT_TEMP));
    writeFileSync(join(dir, COMPACT_TEMP, 'x'), '');
    const told: string[] = [];
    const spool = await openSpool(dir, { forwardTimeoutMs: 1000, now: () => NOW, log: (m) => told.push(m) });
    await spool.close();
    expect(told).toEqual([expect.stringMatching(/could not compact the journal \(.+\); using it as it is$/)]);
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(lines(JOURNAL_BEFORE));
  });

  it('shouldCompact: at the threshold, not below', () => {
    expect(shouldCompact(99, 100)).toBe(false);
    expect(shouldCompact(100, 100)).toBe(true);
  });

  it('a damaged line is kept aside (fsync\'d, 0600, with its offset) before the rewrite drops it from the journal; never twice; the aside file is never compacted', async () => {
    const dir = tmp();
    const good = lines([ev('a', 0), rec('delivered', 'a')]);
    const damaged = JSON.stringify(ev('b', 0)).replace('"t"', '"t\u0001');
    writeFileSync(join(dir, JOURNAL), `${good}${damaged.replace('\\u0001', '\x01')}\n${lines([ev('c', 0)])}`);
    const bad = readFileSync(join(dir, JOURNAL)).subarray(Buffer.byteLength(good), readFileSync(join(dir, JOURNAL)).indexOf(0x0a, Buffer.byteLength(good)));
    const r = await compactJournal(dir, policy);
    expect(r).toMatchObject({ rewritten: true, unreadable: 1, setAside: 1, dropped: 0 });
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(lines([ev('a', 0), rec('delivered', 'a'), ev('c', 0)]));
    const kept = readFileSync(join(dir, UNREADABLE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(kept).toEqual([{ offset: Buffer.byteLength(good), length: bad.length, foundAt: new Date(NOW).toISOString(), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), text: bad.toString() }]);
    if (process.platform !== 'win32') expect(statSync(join(dir, UNREADABLE)).mode & 0o777).toBe(0o600);
    // Compacting again (nothing to drop) leaves both files alone.
    expect(await compactJournal(dir, { ...policy, now: () => NOW + 30 * DAY })).toMatchObject({ unreadable: 0, setAside: 0 });
    expect((await readAside(dir)).count).toBe(1);
    expect((await readAside(dir)).offsets).toEqual([Buffer.byteLength(good)]);
  });

  it('a compaction stopped after keeping a line aside keeps it once: the next one finds it at the same offset', async () => {
    const dir = tmp();
    writeFileSync(join(dir, JOURNAL), Buffer.concat([Buffer.from(lines([ev('a', 0)])), Buffer.from('\xff\xfe not a record\n', 'latin1')]));
    const crash = new Error('stopped');
    await expect(compactJournal(dir, policy, undefined, () => { throw crash; })).rejects.toBe(crash);
    expect((await readAside(dir)).count).toBe(1);
    expect(await compactJournal(dir, policy)).toMatchObject({ rewritten: true, unreadable: 1, setAside: 0 });
    const kept = JSON.parse(readFileSync(join(dir, UNREADABLE), 'utf8').trim()) as Record<string, unknown>;
    // Not UTF-8: kept as base64, byte for byte.
    expect(Buffer.from(kept.base64 as string, 'base64')).toEqual(Buffer.from('\xff\xfe not a record', 'latin1'));
    expect(kept.text).toBeUndefined();
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(lines([ev('a', 0)]));
  });

  it('when the line cannot be kept aside, the journal is not rewritten and keeps it', async () => {
    const dir = tmp();
    const before = `${lines([ev('a', 0), rec('delivered', 'a')])}garbage\n`;
    writeFileSync(join(dir, JOURNAL), before);
    mkdirSync(join(dir, UNREADABLE)); // a directory in its place: the append fails
    await expect(compactJournal(dir, { ...policy, now: () => NOW + 30 * DAY })).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(before);
  });
});
