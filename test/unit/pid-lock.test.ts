import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockHolder, takePidLock, waitForPidLock } from '../../src/pid-lock.js';
import type { ProcessProbe } from '../../src/process-probe.js';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-pidlock-'));
  lock = join(dir, 'x.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A world of processes: pid → what the probe says about it. */
interface Proc {
  start?: string;
  partner?: boolean;
}
function probe(self: number, procs: Record<number, Proc>, hook?: (what: string, pid: number) => void): ProcessProbe {
  return {
    self,
    alive: (pid) => {
      hook?.('alive', pid);
      return pid in procs;
    },
    startOf: (pid) => procs[pid]?.start,
    isPartner: (pid) => {
      hook?.('isPartner', pid);
      return procs[pid]?.partner;
    },
  };
}
const ME = 1000;
const OTHER = 2000;
const world = (other: Proc = { start: '77', partner: true }) => ({ [ME]: { start: '55', partner: true }, [OTHER]: other });
const mine = () => probe(ME, world());
const content = () => readFileSync(lock, 'utf8');
const writeLock = (text: string, ageMs = 0) => {
  writeFileSync(lock, text);
  if (ageMs) utimesSync(lock, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
};
const leftovers = () => readdirSync(dir).filter((f) => f !== 'x.lock');

describe('takePidLock', () => {
  it('takes a free lock: the pid and start stamp, 0600; release removes it, once', () => {
    const r = takePidLock(lock, { probe: mine() });
    expect(r).toMatchObject({ ok: true });
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
    if (process.platform !== 'win32') expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(leftovers()).toEqual([]);
    expect(lockHolder(lock)).toBe(ME);
    if (!r.ok) return;
    r.release();
    expect(existsSync(lock)).toBe(false);
    writeLock('2000\n77\n');
    r.release(); // a second release leaves another's lock alone
    expect(content()).toBe('2000\n77\n');
  });

  it('writes an empty start stamp when the probe cannot tell', () => {
    const p = { ...mine(), startOf: () => undefined };
    expect(takePidLock(lock, { probe: p }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n\n[0-9a-f]{16}\n$/);
  });

  it('respects a live partner holder started when its lock says', () => {
    writeLock('2000\n77\n');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: OTHER });
    expect(content()).toBe('2000\n77\n');
  });

  it('respects a live partner holder of a lock without a start stamp (older partner)', () => {
    writeLock('2000');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: OTHER });
    writeLock('2000\n\n');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: OTHER });
    writeLock('2000\n 77 \n');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: OTHER });
  });

  it('respects a live holder it cannot identify (no /proc, no ps)', () => {
    writeLock('2000\n77\n');
    expect(takePidLock(lock, { probe: probe(ME, world({})) })).toEqual({ ok: false, holder: OTHER });
  });

  it('takes over a lock whose process is gone (kill -9)', () => {
    writeLock('3000\n77\n');
    const r = takePidLock(lock, { probe: mine() });
    expect(r.ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
    if (process.platform !== 'win32') expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(leftovers()).toEqual([]);
  });

  it('takes over a lock whose pid now runs something that is not partner', () => {
    writeLock('2000\n77\n');
    expect(takePidLock(lock, { probe: probe(ME, world({ start: '77', partner: false })) }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
  });

  it('takes over a lock whose pid was reused by a process started at another time, even partner', () => {
    writeLock('2000\n76\n');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
  });

  it('takes over a lock holding our own pid that this process did not take (a reused pid, exec)', () => {
    writeLock('1000\n55\n');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    writeLock('1000');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
  });

  it('a lock this process holds is busy for it too, with its own pid', () => {
    const first = takePidLock(lock, { probe: mine() });
    expect(first.ok).toBe(true);
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: ME });
    // Once it was removed behind our back (not released), a new file with our pid is a leftover again.
    rmSync(lock);
    writeLock('1000\n55\n');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
  });

  it('a lock it cannot read is busy while fresh (a writer between create and write), stale once old', () => {
    for (const text of ['', 'x2000\n', '2000x\n', '0\n', '12345678901\n']) {
      writeLock(text);
      expect(takePidLock(lock, { probe: mine() }), JSON.stringify(text)).toEqual({ ok: false });
    }
    writeLock('garbage\n');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false });
    writeLock('-5\n', 4000);
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false });
    writeLock('12345678901\n', 6000);
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
  });

  it('says what failed when the lock cannot be created', () => {
    const r = takePidLock(join(dir, 'missing', 'x.lock'), { probe: mine() });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error?.code).toBe('ENOENT');
    expect(!r.ok && r.holder).toBeUndefined();
  });

  it('an old release does not let go of a newer lock of the same process', () => {
    const r1 = takePidLock(lock, { probe: mine() });
    if (r1.ok) r1.release();
    const r2 = takePidLock(lock, { probe: mine() });
    expect(r2.ok).toBe(true);
    if (r1.ok) r1.release();
    expect(content()).toMatch(/^1000\n55\n/);
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false, holder: ME });
    if (r2.ok) r2.release();
    expect(existsSync(lock)).toBe(false);
  });

  it('release after the lock file was removed by someone else is no error', () => {
    const r = takePidLock(lock, { probe: mine() });
    rmSync(lock);
    expect(() => r.ok && r.release()).not.toThrow();
  });

  it('a takeover it cannot make (the guard cannot be created: a name too long) says what failed, and leaves no file', () => {
    // 235 characters: the lock and its temp file fit in a name (255), the guard's temp file does not.
    const long = join(dir, 'l'.repeat(235));
    writeFileSync(long, '3000\n77\n'); // gone: stale
    const r = takePidLock(long, { probe: mine() });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error?.code).toBe('ENAMETOOLONG');
    expect(readFileSync(long, 'utf8')).toBe('3000\n77\n');
    expect(readdirSync(dir)).toEqual(['l'.repeat(235)]);
  });

  it('release leaves a lock that another process took over from it', () => {
    const r = takePidLock(lock, { probe: mine() });
    writeFileSync(join(dir, 'other'), '2000\n77\n');
    renameSync(join(dir, 'other'), lock);
    if (r.ok) r.release();
    expect(content()).toBe('2000\n77\n');
  });

  it('two takers that both find the lock stale: only one gets it', () => {
    writeLock('3000\n77\n'); // gone
    let raced = false;
    let second: ReturnType<typeof takePidLock> | undefined;
    // While the first looks at the stale holder, the second (another process) takes it over.
    const first = probe(ME, world(), (what, pid) => {
      if (what === 'alive' && pid === 3000 && !raced) {
        raced = true;
        second = takePidLock(lock, { probe: probe(OTHER, world()) });
      }
    });
    const r = takePidLock(lock, { probe: first });
    expect(second?.ok).toBe(true);
    expect(r).toEqual({ ok: false, holder: OTHER });
    expect(content()).toMatch(/^2000\n77\n[0-9a-f]{16}\n$/);
    expect(leftovers()).toEqual([]);
  });

  it('waits while another takes over (a fresh guard), and takes over after a guard left by a crash', () => {
    writeLock('3000\n77\n');
    writeFileSync(`${lock}.takeover`, '2000\n77\n');
    expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false });
    expect(content()).toBe('3000\n77\n');
    // The guard's process is gone: removed, the stale lock taken over.
    writeFileSync(`${lock}.takeover`, '4000\n77\n');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
    expect(leftovers()).toEqual([]);
  });

  it('a guard of a live process is removed once older than a takeover can take', () => {
    writeLock('3000\n77\n');
    writeFileSync(`${lock}.takeover`, '2000\n77\n');
    const old = new Date(Date.now() - 2500);
    utimesSync(`${lock}.takeover`, old, old);
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a guard holding our own pid was left by this pid before (a guard is never held across calls): removed at once', () => {
    writeLock('3000\n77\n');
    writeFileSync(`${lock}.takeover`, '1000\n55\n');
    expect(takePidLock(lock, { probe: mine() }).ok).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a fresh guard it cannot read is left alone (its writer may be between create and write)', () => {
    writeLock('3000\n77\n');
    for (const text of ['', '0\n']) {
      writeFileSync(`${lock}.takeover`, text);
      expect(takePidLock(lock, { probe: mine() })).toEqual({ ok: false });
      expect(existsSync(`${lock}.takeover`)).toBe(true);
    }
    expect(content()).toBe('3000\n77\n');
  });

  it('a stale lock that vanishes before the takeover is taken fresh', () => {
    writeLock('3000\n77\n');
    let once = false;
    const p = probe(ME, world(), (what) => {
      if (what === 'alive' && !once) {
        once = true;
        rmSync(lock);
      }
    });
    expect(takePidLock(lock, { probe: p }).ok).toBe(true);
    expect(content()).toMatch(/^1000\n55\n[0-9a-f]{16}\n$/);
  });

  it('a stale lock replaced before the takeover by a live one is respected', () => {
    writeLock('3000\n77\n');
    let once = false;
    const p = probe(ME, world(), (what, pid) => {
      if (what === 'alive' && pid === 3000 && !once) {
        once = true;
        writeFileSync(join(dir, 'n'), '2000\n77\n');
        renameSync(join(dir, 'n'), lock);
      }
    });
    expect(takePidLock(lock, { probe: p })).toEqual({ ok: false, holder: OTHER });
  });
});

describe('waitForPidLock', () => {
  it('takes the lock once its live holder releases it', async () => {
    writeLock('2000\n77\n');
    let calls = 0;
    // The holder lets go while we wait (on our third look).
    const p = probe(ME, world(), (what) => {
      if (what === 'alive' && ++calls === 3) rmSync(lock);
    });
    const r = waitForPidLock(lock, 5000, { probe: p });
    expect(r.ok).toBe(true);
    expect(calls).toBe(3);
  });

  it('gives up after the timeout, naming the holder', () => {
    writeLock('2000\n77\n');
    const t0 = Date.now();
    expect(waitForPidLock(lock, 150, { probe: mine() })).toEqual({ ok: false, holder: OTHER });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(content()).toBe('2000\n77\n');
  });

  it('returns an error at once', () => {
    const r = waitForPidLock(join(dir, 'missing', 'x.lock'), 60_000, { probe: mine() });
    expect(!r.ok && r.error?.code).toBe('ENOENT');
  });
});

describe('lockHolder', () => {
  it('is the pid of the lock, or undefined', () => {
    expect(lockHolder(lock)).toBeUndefined();
    writeLock('2000\n77\n');
    expect(lockHolder(lock)).toBe(OTHER);
    writeLock(' 2000 \n');
    expect(lockHolder(lock)).toBe(OTHER);
    writeLock('0\n');
    expect(lockHolder(lock)).toBeUndefined();
    writeLock('pid 2000\n');
    expect(lockHolder(lock)).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('with the real probe (Linux)', () => {
  it('takes over a lock held by a live process that is not partner (sleep); respects its own', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => sleeper.once('spawn', r));
      writeLock(`${sleeper.pid}\n`);
      const r = takePidLock(lock);
      expect(r.ok).toBe(true);
      expect(content().split('\n')[0]).toBe(String(process.pid));
      expect(takePidLock(lock)).toEqual({ ok: false, holder: process.pid });
      if (r.ok) r.release();
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
