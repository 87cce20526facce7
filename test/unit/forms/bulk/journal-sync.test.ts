// When the bulk journal reaches the disk: fdatasync answered by the test, the
// clock faked. The first record is synced at once, records written during a
// sync share the next one, SYNC_EVERY_MS after the last began; close() waits
// for the sync in flight and makes the last one (its failure is the run's);
// a write cut short is finished, one that writes nothing fails.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Journal, JournalWriteError, sealed, SYNC_EVERY_MS, type JournalEntry } from '../../../../src/forms/bulk/journal.js';

const h = vi.hoisted(() => ({
  syncs: [] as { fd: number; done: (err: NodeJS.ErrnoException | null) => void }[],
  /** Bytes the next writes may write (0: none), then whole writes again. */
  limits: [] as number[],
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    fdatasync: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => h.syncs.push({ fd, done }),
    writeSync: (fd: number, buf: Buffer) => {
      const n = h.limits.shift();
      return n === undefined ? real.writeSync(fd, buf) : n === 0 ? 0 : real.writeSync(fd, buf.subarray(0, n));
    },
    openSync: vi.fn(real.openSync),
    closeSync: vi.fn(real.closeSync),
  };
});

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-journal-sync-'));
  path = join(dir, 'r.csv.journal');
  h.syncs.length = 0;
  h.limits.length = 0;
  vi.mocked(fs.openSync).mockClear();
  vi.mocked(fs.closeSync).mockClear();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (row: number): JournalEntry => ({ row, key: `k${row}`, hash: `h${row}`, state: 'posting' });
/** Lets promise callbacks run (close() awaits). */
const settle = () => new Promise((r) => setImmediate(r));
const EIO = Object.assign(new Error('i/o'), { code: 'EIO' });

describe('background syncs', () => {
  it('the first record is synced at once; records written during that sync share one more, SYNC_EVERY_MS after the first began', async () => {
    const j = Journal.open(path, 'E');
    j.record(entry(1));
    expect(h.syncs).toHaveLength(1);
    j.record(entry(2));
    j.record(entry(3));
    expect(h.syncs).toHaveLength(1);
    h.syncs[0].done(null);
    expect(h.syncs).toHaveLength(1);
    vi.advanceTimersByTime(SYNC_EVERY_MS - 1);
    expect(h.syncs).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.syncs).toHaveLength(2);
    expect(h.syncs[1].fd).toBe(h.syncs[0].fd);
    h.syncs[1].done(null);
    // Nothing written since: no more syncs.
    vi.advanceTimersByTime(10 * SYNC_EVERY_MS);
    expect(h.syncs).toHaveLength(2);

    const closing = j.close();
    await settle();
    expect(h.syncs).toHaveLength(3);
    h.syncs[2].done(null);
    await closing;
    expect(fs.closeSync).toHaveBeenCalledWith(h.syncs[0].fd);
    // One descriptor for every record (the other opens are the lock's and the read of an earlier run).
    expect(vi.mocked(fs.openSync).mock.calls.filter((c) => c[0] === path && c[1] === 'a')).toHaveLength(1);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('a record soon after a sync waits for its turn, later ones share it; after a quiet spell a record is synced at once', async () => {
    const j = Journal.open(path, 'E');
    j.record(entry(1));
    h.syncs[0].done(null);
    vi.advanceTimersByTime(30);
    j.record(entry(2));
    j.record(entry(3));
    expect(h.syncs).toHaveLength(1);
    vi.advanceTimersByTime(SYNC_EVERY_MS - 31);
    expect(h.syncs).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.syncs).toHaveLength(2);
    h.syncs[1].done(null);
    vi.advanceTimersByTime(SYNC_EVERY_MS);
    expect(h.syncs).toHaveLength(2);
    j.record(entry(4));
    expect(h.syncs).toHaveLength(3);
    h.syncs[2].done(null);
    const closing = j.close();
    await settle();
    h.syncs[3].done(null);
    await closing;
    expect(h.syncs).toHaveLength(4);
  });

  it('a sync waiting for its turn when the run closes is made by close() instead', async () => {
    const j = Journal.open(path, 'E');
    j.record(entry(1));
    h.syncs[0].done(null);
    j.record(entry(2));
    const closing = j.close();
    await settle();
    expect(h.syncs).toHaveLength(2);
    h.syncs[1].done(null);
    await closing;
    vi.advanceTimersByTime(10 * SYNC_EVERY_MS);
    expect(h.syncs).toHaveLength(2);
  });
});

describe('close()', () => {
  it('waits for the sync in flight, then makes the last one; its failure is a JournalWriteError, the file closed and the lock released', async () => {
    const j = Journal.open(path, 'E');
    j.record(entry(1));
    let closed = false;
    const closing = j.close();
    closing.catch(() => undefined).finally(() => (closed = true));
    await settle();
    expect(h.syncs).toHaveLength(1);
    expect(closed).toBe(false);
    h.syncs[0].done(null);
    await settle();
    expect(h.syncs).toHaveLength(2);
    h.syncs[1].done(EIO);
    await expect(closing).rejects.toThrow(new JournalWriteError(path, EIO).message);
    await expect(closing).rejects.toBeInstanceOf(JournalWriteError);
    expect(fs.closeSync).toHaveBeenCalledWith(h.syncs[0].fd);
    expect(existsSync(`${path}.lock`)).toBe(false);
    // Nothing more may be recorded.
    expect(() => j.record(entry(2))).toThrow(`Cannot write the journal ${path}: EIO`);
  });

  it('after a record that could not be written, makes no last sync', async () => {
    symlinkSync('/dev/full', path);
    const j = Journal.open(path, 'E');
    expect(() => j.record(entry(1))).toThrow(JournalWriteError);
    await j.close();
    expect(h.syncs).toHaveLength(0);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('of a journal never written closes nothing but the lock', async () => {
    const j = Journal.open(path, 'E');
    await j.close();
    expect(h.syncs).toHaveLength(0);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe('writes', () => {
  it('a write cut short is finished; one that writes nothing fails the record (EIO)', async () => {
    const j = Journal.open(path, 'E');
    h.limits.push(3, 5);
    j.record(entry(1));
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[0]).toBe('{"kind":"partner-bulk-journal","version":3,"entity":"E"}');
    expect(lines[1]).toMatch(/^\{"row":1,"key":"k1","hash":"h1","state":"posting","at":"[^"]+","sum":"[0-9a-f]{12}"\}$/);
    expect(lines[1]).toBe(sealed(lines[1].replace(/,"sum":"[0-9a-f]{12}"\}$/, '}')));
    h.limits.push(0);
    expect(() => j.record(entry(2))).toThrow(`Cannot write the journal ${path}: EIO`);
    h.syncs.forEach((s) => s.done(null));
    await j.close().catch(() => undefined);
  });
});
