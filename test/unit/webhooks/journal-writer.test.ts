// The journal writer: a record is in the file when write() returns; appends
// made together share one fdatasync; a failure stops all later writes.
import { describe, expect, it, vi } from 'vitest';
import { fstatSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../../helpers/wait-for.js';

const syncs = vi.hoisted(() => ({ count: 0, fail: undefined as string | undefined, hold: false, held: [] as (() => void)[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    fdatasync: (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      syncs.count++;
      // A disk that fails its sync (EIO), or a sync the test lets finish when it wants.
      if (syncs.fail) return cb(Object.assign(new Error(syncs.fail), { code: syncs.fail }));
      if (syncs.hold) return syncs.held.push(() => fs.fdatasync(fd, cb));
      fs.fdatasync(fd, cb);
    },
  };
});
const { JournalWriter } = await import('../../../src/webhooks/journal-writer.js');
const { scratchDirs } = await import('./helpers.js');

const dir = scratchDirs('partner-writer-');
const file = () => join(dir(), 'journal.ndjson');

describe('JournalWriter', () => {
  it('write() puts the record in the file at once; 50 appends together share one fdatasync', async () => {
    const path = file();
    const w = new JournalWriter(openSync(path, 'a', 0o600));
    expect(w.write('{"n":0}\n')).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe('{"n":0}\n');
    syncs.count = 0;
    await Promise.all(Array.from({ length: 50 }, (_, i) => w.append(`{"n":${i + 1}}\n`)));
    expect(syncs.count).toBe(1);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(51);
    // Already on disk: resolves without another sync.
    await w.durable(51);
    await w.flush();
    expect(syncs.count).toBe(1);
    w.close();
  });

  it('a write that fails stops the writer: later writes throw, waiters reject, the failure is told once', async () => {
    const path = file();
    writeFileSync(path, '');
    const told: string[] = [];
    const w = new JournalWriter(openSync(path, 'r'), (e) => told.push(e.message));
    expect(() => w.write('x\n')).toThrow(/the spool journal cannot be written \(EBADF\)/);
    await expect(w.append('y\n')).rejects.toThrow(/cannot be written/);
    await expect(w.durable(1)).rejects.toThrow(/cannot be written/);
    expect(w.failed?.message).toMatch(/EBADF/);
    expect(told).toHaveLength(1);
    await w.flush(); // nothing to wait for
    w.close();
  });

  it('flush() syncs what was only written, once; with nothing new it returns at once', async () => {
    const w = new JournalWriter(openSync(file(), 'a'));
    syncs.count = 0;
    w.write('a\n');
    w.write('b\n');
    expect(syncs.count).toBe(0);
    await w.flush();
    expect(syncs.count).toBe(1);
    await w.flush();
    expect(syncs.count).toBe(1);
    w.close();
  });

  it('swap() continues on another file', async () => {
    const a = file();
    const b = file();
    const w = new JournalWriter(openSync(a, 'a'));
    await w.append('a\n');
    await w.flush();
    w.swap(openSync(b, 'a'));
    await w.append('b\n');
    w.close();
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['a\n', 'b\n']);
  });

  it('a failed sync stops the writer too: the record waiting for it rejects, and nothing more is written', async () => {
    const path = file();
    const told: string[] = [];
    const w = new JournalWriter(openSync(path, 'a'), (e) => told.push(e.message));
    syncs.fail = 'EIO';
    try {
      await expect(w.append('a\n')).rejects.toThrow(/the spool journal cannot be written \(EIO\)/);
    } finally {
      syncs.fail = undefined;
    }
    expect(() => w.write('b\n')).toThrow(/EIO/);
    expect(readFileSync(path, 'utf8')).toBe('a\n');
    expect(told).toEqual(['the spool journal cannot be written (EIO)']);
    w.close();
  });

  it('a record written while a sync runs waits for the next sync, not the one already running', async () => {
    const w = new JournalWriter(openSync(file(), 'a'));
    syncs.count = 0;
    syncs.hold = true;
    try {
      const first = w.append('a\n');
      await waitFor(() => syncs.held.length === 1, { what: 'one sync held', intervalMs: 5 });
      let secondDone = false;
      const second = w.append('b\n').then(() => (secondDone = true));
      syncs.held.shift()!();
      await first;
      await waitFor(() => syncs.held.length === 1, { what: 'one sync held', intervalMs: 5 }); // the second sync started
      expect(secondDone).toBe(false);
      syncs.held.shift()!();
      await second;
      expect(syncs.count).toBe(2);
    } finally {
      syncs.hold = false;
      for (const f of syncs.held.splice(0)) f();
    }
    w.close();
  });

  it('close() closes the descriptor', () => {
    const fd = openSync(file(), 'a');
    new JournalWriter(fd).close();
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
  });
});

