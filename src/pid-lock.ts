// One process at a time on a resource (a bulk journal, a webhook spool, the
// config file, a draft, the key cache): a lock file holding the holder's pid
// and start stamp, created whole and exclusively (0600). A lock is stale, and
// taken over, when its pid is ours but this process did not take it (a reused
// pid: a container restart, a shell that wrote it and exec'd us), when no such
// process exists (kill -9), when the pid now belongs to a process started at
// another time, or to a process that is not partner.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { processProbe, type ProcessProbe } from './process-probe.js';

export type LockResult = { ok: true; release: () => void } | { ok: false; holder?: number; error?: NodeJS.ErrnoException };

export interface LockOptions {
  /** Who a pid is (tests pass a fake one). */
  probe?: ProcessProbe;
}

interface Found {
  /** NaN when the file holds no pid. */
  pid: number;
  start: string;
  /** The whole content: with its nonce, it tells one lock from any other. */
  text: string;
  mtimeMs: number;
}

/** Lock files this process holds (path → the exact text written, with its nonce), so a lock holding our pid is known to be live or left over. */
const held = new Map<string, string>();

/** A takeover guard older than this was left by a crash: it is held for a few system calls only. */
const GUARD_STALE_MS = 2000;
/** A lock whose content cannot be read is stale only once it is this old (a writer may be between creating and writing it). */
const UNREADABLE_STALE_MS = 5000;
const ATTEMPTS = 5;
/** Between two looks at a lock held by another process. */
const POLL_MS = 20;

/** Takes the lock at `path` now, or says who holds it (a live partner pid) or what failed. */
export function takePidLock(path: string, opts: LockOptions = {}): LockResult {
  const probe = opts.probe ?? processProbe();
  // pid, start stamp, and a nonce that tells this lock from any other of the same process.
  const mine = `${probe.self}\n${probe.startOf(probe.self) ?? ''}\n${randomBytes(8).toString('hex')}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const made = create(path, mine);
    if (made === true) return taken(path, mine);
    if (made !== 'exists') return { ok: false, error: made };
    const found = read(path);
    if (found === undefined) continue; // released meanwhile
    if (!isStale(found, path, probe)) return found.pid > 0 ? { ok: false, holder: found.pid } : { ok: false };
    const over = takeOver(path, found.text, mine, probe);
    if (over === true) return taken(path, mine);
    if (over !== 'again') return { ok: false, error: over };
    sleep(1); // another process is taking it over: a few system calls
  }
  return { ok: false };
}

/** Takes the lock, waiting up to `timeoutMs` for a live holder to release it (short critical sections: the config file). */
export function waitForPidLock(path: string, timeoutMs: number, opts: LockOptions = {}): LockResult {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = takePidLock(path, opts);
    const left = deadline - Date.now();
    if (r.ok || r.error || left <= 0) return r;
    sleep(Math.min(POLL_MS, left));
  }
}

/** The pid a lock file names, or undefined (absent, unreadable). */
export function lockHolder(path: string): number | undefined {
  const pid = read(path)?.pid;
  return pid! > 0 ? pid : undefined;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function taken(path: string, text: string): LockResult {
  held.set(path, text);
  return {
    ok: true,
    release: () => {
      // (`held` keeps its entry: it matches no other lock, each has its own nonce.)
      // Only our own file: a lock taken over from us (we looked stale) is the other process's now.
      if (read(path)?.text === text) remove(path);
    },
  };
}

/**
 * Creates `path` with `text`, whole, only if it does not exist: a temp file
 * hard-linked into place, so nobody ever reads a half-written lock. Where
 * links are not supported, an exclusive create.
 */
function create(path: string, text: string): true | 'exists' | NodeJS.ErrnoException {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    try {
      linkSync(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
      writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    }
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : (err as NodeJS.ErrnoException);
  } finally {
    remove(tmp);
  }
}

/** Removes a file; one already gone (or never made: a name too long) is no error. */
function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing to remove
  }
}

function read(path: string): Found | undefined {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    const text = readFileSync(path, 'utf8');
    const [first, start = ''] = text.split('\n');
    const pid = /^\s*(\d{1,10})\s*$/.exec(first!)?.[1];
    return { pid: Number(pid ?? NaN), start: start.trim(), text, mtimeMs };
  } catch {
    return undefined;
  }
}

function isStale(lock: Found, path: string, probe: ProcessProbe): boolean {
  if (!(lock.pid > 0)) return Date.now() - lock.mtimeMs >= UNREADABLE_STALE_MS;
  // Our pid: live only when this very process took the lock (and it is still that file).
  if (lock.pid === probe.self) return held.get(path) !== lock.text;
  if (!probe.alive(lock.pid)) return true;
  const start = probe.startOf(lock.pid);
  if (lock.start !== '' && start !== undefined && start !== lock.start) return true;
  return probe.isPartner(lock.pid) === false;
}

/**
 * Replaces a stale lock with ours, atomically: under a guard file (created
 * exclusively, so one taker at a time), the lock is read again and replaced
 * by a rename only if it is still the stale one. Two processes that both saw
 * it stale cannot both take it.
 */
function takeOver(path: string, staleText: string, mine: string, probe: ProcessProbe): true | 'again' | NodeJS.ErrnoException {
  const guard = `${path}.takeover`;
  const made = create(guard, mine);
  if (made === 'exists') {
    // A guard is held for a few system calls, never across calls of this process: ours, old, or of a dead process, it was left by a crash.
    const g = read(guard);
    if (g !== undefined && (g.pid === probe.self || Date.now() - g.mtimeMs >= GUARD_STALE_MS || (g.pid > 0 && !probe.alive(g.pid)))) remove(guard);
    return 'again';
  }
  if (made !== true) return made;
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    if (read(path)?.text !== staleText) return 'again';
    writeFileSync(tmp, mine, { mode: 0o600 });
    renameSync(tmp, path);
    return true;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  } finally {
    remove(tmp);
    if (read(guard)?.text === mine) remove(guard);
  }
}
