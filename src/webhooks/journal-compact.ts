// Compaction of the spool journal, which otherwise grows forever. What stays:
// every event not yet delivered (never dropped, however old), and delivered
// events for the retention window (at least the 24 h duplicate-suppression
// window, 7 days by default) so `webhook replay` can send them again; each
// kept event is followed by one record of its state (its delivery, or its
// last start/attempt), the superseded ones dropped.
//
// Lines that are not records are first kept aside (journal-aside.ts,
// fsync'd) and only then left out of the new journal: never dropped.
//
// Crash-safe at every step: the new journal is written beside the old one
// (journal.ndjson.compact, 0600), fsync'd, renamed over it (atomic), then the
// directory is fsync'd. Until the rename the old journal is intact (a
// leftover temp file is removed by the next compaction); after it the new
// one is complete. Memory: one small state entry per event (no payloads);
// both passes stream the file.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { eachRecord, JOURNAL, type DeliveryRecord } from './journal.js';
import { AsideWriter } from './journal-aside.js';
import { stringifyExact } from '../json/stringify-exact.js';

export const COMPACT_TEMP = `${JOURNAL}.compact`;

export interface CompactionPolicy {
  /** Delivered events received longer ago than this are dropped. */
  retainMs: number;
  now: () => number;
}

/** The steps, for tests that stop a compaction between them (as a crash would). */
export type CompactionStep = 'scanned' | 'written' | 'synced' | 'renamed';

export interface CompactionResult {
  /** Size of the journal afterwards. */
  bytes: number;
  /** Delivered events dropped (past retention). */
  dropped: number;
  /** Whether the journal was rewritten (false: nothing to drop). */
  rewritten: boolean;
  /** The descriptor `reopen` returned after the rewrite (to append to the new journal). */
  fd?: number;
  /** Lines of the journal that are not records, and how many of them were newly kept aside. */
  unreadable: number;
  setAside: number;
}

/** A running receiver compacts once it appended at least `threshold` bytes since the last compaction. */
export function shouldCompact(appendedBytes: number, threshold: number): boolean {
  return appendedBytes >= threshold;
}

interface EventState {
  receivedAt: number;
  /** The record that says where its delivery stands (the last one, or its delivery). */
  last?: DeliveryRecord;
}

export async function compactJournal(dir: string, policy: CompactionPolicy, reopen?: () => number, afterStep?: (s: CompactionStep) => void): Promise<CompactionResult> {
  const path = join(dir, JOURNAL);
  const temp = join(dir, COMPACT_TEMP);
  rmSync(temp, { force: true }); // left by a compaction a crash interrupted: the journal itself is intact
  // Pass 1: each event's state.
  const states = new Map<string, EventState>();
  let records = 0;
  let unreadable = 0;
  const aside = await AsideWriter.open(dir, policy.now);
  let exists: boolean;
  try {
    exists = await eachRecord(path, (r) => {
      records++;
      if (r.t === 'event') {
        const at = Date.parse(r.receivedAt);
        states.set(r.id, { receivedAt: Number.isNaN(at) ? policy.now() : at });
        return;
      }
      const s = states.get(r.id);
      if (s && s.last?.t !== 'delivered') s.last = r;
    }, (u) => {
      unreadable++;
      aside.add(u);
    });
  } catch (err) {
    try {
      aside.finish();
    } catch {
      // the first failure is the one to report
    }
    throw err;
  }
  // Durable aside before the journal can lose them (a failure here throws: the journal stays as it is).
  aside.finish();
  const seen = { unreadable, setAside: aside.added };
  if (!exists) return { bytes: 0, dropped: 0, rewritten: false, ...seen };
  const cutoff = policy.now() - policy.retainMs;
  let dropped = 0;
  let kept = 0;
  for (const [id, s] of states) {
    if (s.last?.t === 'delivered' && s.receivedAt < cutoff) {
      states.delete(id);
      dropped++;
    } else kept += s.last ? 2 : 1;
  }
  afterStep?.('scanned');
  if (kept === records && unreadable === 0) return { bytes: statSync(path).size, dropped: 0, rewritten: false, ...seen };
  // Pass 2: the kept events, in arrival order, each with its state.
  const fd = openSync(temp, 'wx', 0o600);
  let bytes = 0;
  try {
    let chunk = '';
    const put = (text: string, force = false) => {
      chunk += text;
      if (chunk.length < 256 * 1024 && !force) return;
      const buf = Buffer.from(chunk);
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
      bytes += buf.length;
      chunk = '';
    };
    await eachRecord(path, (r) => {
      if (r.t !== 'event') return;
      const s = states.get(r.id);
      if (!s) return;
      put(`${stringifyExact(r)}\n`);
      if (s.last) put(`${JSON.stringify(s.last)}\n`);
    });
    put('', true);
    afterStep?.('written');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  afterStep?.('synced');
  renameSync(temp, path);
  afterStep?.('renamed');
  syncDir(dir);
  return { bytes, dropped, rewritten: true, fd: reopen?.(), ...seen };
}

/** After a compaction failed (disk full…): the old journal is intact; its half-written replacement goes. */
export function discardCompaction(dir: string): void {
  try {
    rmSync(join(dir, COMPACT_TEMP), { force: true });
  } catch {
    // Not ours to fix here (a directory in its place): the next compaction says so again.
  }
}

/** Makes a rename in `dir` durable. Some platforms cannot open a directory for syncing: then the rename is as durable as they allow. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EISDIR/EPERM on Windows; nothing more can be done there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
