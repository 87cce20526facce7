// One process at a time on a resource (a bulk journal, a webhook spool): a
// lock file holding our pid, created exclusively (0600). A lock left by a
// process that no longer exists (kill -9) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export type LockResult = { ok: true; release: () => void } | { ok: false; holder?: number; error?: NodeJS.ErrnoException };

/** Takes the lock at `path`, or says who holds it (a live pid) or what failed. */
export function takePidLock(path: string): LockResult {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return { ok: true, release: () => rmSync(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: false, error: err as NodeJS.ErrnoException };
    }
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) return { ok: false, holder: pid };
    rmSync(path, { force: true });
  }
  return { ok: false };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
