// Whether the spool can take one more event, for `GET /healthz`: the journal
// has not failed, it is still the file in the directory (not moved or
// deleted under us: appends would go to a file nobody reads), the directory
// takes a synced write, and the disk has room for the largest event. The
// probe costs a small write and a sync: it runs at most once a second, later
// questions share its answer.
import { constants } from 'node:fs';
import { open, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** Free bytes below which the disk counts as full: room for the largest event (1 MiB of JWS, its payload) and its records. */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;
export const PROBE_FILE = 'health.probe';
const PROBE_EVERY_MS = 1000;

export interface SpoolProbeTarget {
  dir: string;
  /** The journal's path and the inode its descriptor has open. */
  journalPath: string;
  journalIno: () => Promise<number | bigint | undefined>;
  /** Set once the journal writer failed. */
  failed: () => Error | undefined;
  /** Free bytes below which the disk counts as full (MIN_FREE_BYTES). */
  minFreeBytes?: number;
}

/** Why the spool cannot take an event now, or undefined when it can. Never throws. */
export async function spoolProblem(t: SpoolProbeTarget): Promise<string | undefined> {
  const failed = t.failed();
  if (failed) return failed.message;
  try {
    const [onDisk, held] = await Promise.all([stat(t.journalPath), t.journalIno()]);
    if (held !== undefined && onDisk.ino !== held) return 'the spool journal was replaced or moved: new events would not be kept';
  } catch (err) {
    return `the spool journal is gone (${code(err)})`;
  }
  try {
    const fs = await statfs(t.dir);
    const free = fs.bavail * fs.bsize;
    if (free < (t.minFreeBytes ?? MIN_FREE_BYTES)) return `the spool's disk is full (${free} bytes free)`;
  } catch (err) {
    return `the spool's disk cannot be checked (${code(err)})`;
  }
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(join(t.dir, PROBE_FILE), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    await fh.write('ok\n');
    await fh.datasync();
  } catch (err) {
    return `the spool directory cannot be written (${code(err)})`;
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return undefined;
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/** spoolProblem at most once per second; concurrent and later callers within it share the answer. */
export function cachedProbe(probe: () => Promise<string | undefined>, now: () => number = Date.now): () => Promise<string | undefined> {
  let last: { at: number; answer: Promise<string | undefined> } | undefined;
  return () => {
    const t = now();
    if (!last || t - last.at >= PROBE_EVERY_MS || t < last.at) last = { at: t, answer: probe() };
    return last.answer;
  };
}
