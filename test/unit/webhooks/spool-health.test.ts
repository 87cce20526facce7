// The spool's health probe (GET /healthz): each way the spool can stop
// taking events is named, and the probe runs at most once a second.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, openSync, closeSync, fstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedProbe, PROBE_FILE, spoolProblem, type SpoolProbeTarget } from '../../../src/webhooks/spool-health.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function spoolDir(): { target: SpoolProbeTarget; dir: string; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'partner-health-'));
  dirs.push(dir);
  const journalPath = join(dir, 'journal.ndjson');
  writeFileSync(journalPath, '');
  const fd = openSync(journalPath, 'a');
  const ino = fstatSync(fd).ino;
  let failure: Error | undefined;
  return {
    dir,
    target: { dir, journalPath, journalIno: async () => ino, failed: () => failure },
    close: () => closeSync(fd),
  };
}

describe('spoolProblem', () => {
  it('none for a healthy spool; the probe file is written', async () => {
    const s = spoolDir();
    expect(await spoolProblem(s.target)).toBeUndefined();
    s.close();
  });

  it('a failed journal writer is reported as it is', async () => {
    const s = spoolDir();
    expect(await spoolProblem({ ...s.target, failed: () => new Error('the spool journal cannot be written (ENOSPC)') })).toBe('the spool journal cannot be written (ENOSPC)');
    s.close();
  });

  it('the journal replaced (another inode at its path) or gone', async () => {
    const s = spoolDir();
    renameSync(s.target.journalPath, `${s.target.journalPath}.old`);
    expect(await spoolProblem(s.target)).toBe('the spool journal is gone (ENOENT)');
    writeFileSync(s.target.journalPath, '');
    expect(await spoolProblem(s.target)).toBe('the spool journal was replaced or moved: new events would not be kept');
    s.close();
  });

  it('a disk with less room than the largest event needs is full (the free bytes named); with room, none', async () => {
    const s = spoolDir();
    expect(await spoolProblem({ ...s.target, minFreeBytes: Number.MAX_SAFE_INTEGER })).toMatch(/^the spool's disk is full \(\d+ bytes free\)$/);
    expect(await spoolProblem({ ...s.target, minFreeBytes: 1 })).toBeUndefined();
    s.close();
  });

  it('a directory that takes no write (the probe file replaced by a directory)', async () => {
    const s = spoolDir();
    mkdirSync(join(s.dir, PROBE_FILE));
    expect(await spoolProblem(s.target)).toBe('the spool directory cannot be written (EISDIR)');
    s.close();
  });
});

describe('cachedProbe', () => {
  it('one probe per second; concurrent and later callers within it share the answer', async () => {
    let t = 0;
    let runs = 0;
    const probe = cachedProbe(async () => `run ${++runs}`, () => t);
    expect(await Promise.all([probe(), probe()])).toEqual(['run 1', 'run 1']);
    t = 999;
    expect(await probe()).toBe('run 1');
    t = 1000;
    expect(await probe()).toBe('run 2');
    t = 10; // a clock that went back: probe again
    expect(await probe()).toBe('run 3');
  });
});
