// A spool whose journal cannot be written (a full disk, simulated through the
// journal's write seam) heals by itself once it can be written again: events
// are refused meanwhile, then taken and delivered; the health probe (what
// GET /healthz reports) says so within seconds; a line torn by the failed
// write is cut, so no record is glued to it.
import { afterEach, describe, expect, it } from 'vitest';
import { fdatasync, mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLoopbackServer } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { openSpool, readJournal, type Spool } from '../../../src/webhooks/spool.js';
import { payloadDigest } from '../../../src/webhooks/forward.js';
import type { JournalIo } from '../../../src/webhooks/journal-writer.js';
import { cachedProbe, spoolProblem } from '../../../src/webhooks/spool-health.js';
import { startReceiver } from '../../../src/webhooks/listen.js';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { ecKey, employeeCreated, signEs } from './helpers.js';
import type { Verdict } from '../../../src/webhooks/verify.js';

const dirs: string[] = [];
const spools: Spool[] = [];
const got: string[] = [];
const target = useLoopbackServer((_req, res, body) => {
  got.push(body);
  res.writeHead(200).end();
});
afterEach(async () => {
  for (const s of spools.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  got.length = 0;
});

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
/** node:fs, except while `full`: a write puts down at most `room` bytes, then fails with ENOSPC (a torn line), as a full disk does. */
function fullDisk() {
  const disk = { full: false, room: 0, startsOnly: false };
  const io: JournalIo = {
    writeSync: (fd, b, o, l) => {
      if (!disk.full || (disk.startsOnly && !b.includes('"t":"start"'))) return writeSync(fd, b, o, l);
      if (disk.room === 0) throw enospc();
      const n = writeSync(fd, b, o, Math.min(l, disk.room));
      disk.room -= n;
      return n;
    },
    fdatasync: (fd, cb) => (disk.full && !disk.startsOnly ? setImmediate(() => cb(enospc())) : fdatasync(fd, cb)),
  };
  return { disk, io };
}
const verdict = (n: number) => ({ eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', timestamp: '2026-01-01T00:00:00Z', data: { employeeCode: `E-${n}`, status: 'ONBOARDING' }, n } }) as unknown as Verdict;
const event = (n: number) => ({ digest: payloadDigest(verdict(n).payload), jws: `jws-${n}`, verdict: verdict(n), receivedAt: new Date().toISOString() });

describe('a spool after a full disk', () => {
  it('refuses events while the journal cannot be written, then heals by itself within seconds: health ok, events taken and delivered, no torn line left', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'partner-heal-')), 'spool');
    dirs.push(join(dir, '..'));
    const { disk, io } = fullDisk();
    const told: string[] = [];
    const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: `${target.url}/`, journalIo: io, log: (m) => told.push(m) });
    spools.push(s);
    const health = () => spoolProblem({ dir, journalPath: s.journalState.path, journalIno: s.journalState.ino, failed: s.journalState.failed });
    await s.accept(event(1));
    await waitFor(() => got.length === 1, { what: 'the first event delivered' });
    disk.full = true;
    disk.room = 40; // the next record is torn after 40 bytes
    await expect(s.accept(event(2))).rejects.toThrow(/cannot be written \(ENOSPC\)/);
    await expect(s.accept(event(3))).rejects.toThrow(/ENOSPC/);
    expect(await health()).toBe('the spool journal cannot be written (ENOSPC)');
    // Still full a few heal rounds later: still refused, nothing healed.
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.journalState.failed()).toBeDefined();
    disk.full = false;
    const freed = Date.now();
    await waitFor(() => s.journalState.failed() === undefined, { what: 'the journal healed', timeoutMs: 5000 });
    expect(Date.now() - freed).toBeLessThan(3000);
    expect(await health()).toBeUndefined();
    expect(told.join('\n')).toMatch(/the journal can be written again/);
    expect(await s.accept(event(2))).toBe('stored');
    await waitFor(() => got.length === 2, { what: 'the event after the disk was freed delivered' });
    const state = await readJournal(dir);
    expect(state.unreadable).toBe(0);
    expect(state.events.map((e) => (e.payload as { n: number }).n)).toEqual([1, 2]);
    expect(state.deliveredIds.size).toBe(2);
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).not.toContain('jws-3');
  });

  it('a forward that could not be recorded (start) waits for the journal, then goes', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'partner-heal-')), 'spool');
    dirs.push(join(dir, '..'));
    const { disk, io } = fullDisk();
    const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: `${target.url}/`, journalIo: io, forwardConcurrency: 1 });
    spools.push(s);
    // The disk fills between the event's record and its forward's: the start record fails.
    disk.full = true;
    disk.startsOnly = true;
    expect(await s.accept(event(5))).toBe('stored');
    await waitFor(() => s.journalState.failed() !== undefined, { what: 'the start record refused' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(got).toHaveLength(0); // nothing goes out unrecorded
    expect(s.backlog).toBe(1);
    disk.full = false;
    await waitFor(() => got.length === 1 && s.backlog === 0, { what: 'forwarded once the journal healed', timeoutMs: 5000 });
    const lines = readFileSync(join(dir, 'journal.ndjson'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { t: string });
    expect(lines.map((l) => l.t)).toEqual(['event', 'start', 'delivered']);
  });
});

describe('the receiver after a full disk', () => {
  it('answers events and /healthz 503 while the journal cannot be written, then 200 by itself within seconds of the disk being freed', async () => {
    const k1 = ecKey('k1');
    const store = new KeyStore({ source: { kind: 'static', jwks: { keys: [k1.jwk] } } });
    const dir = join(mkdtempSync(join(tmpdir(), 'partner-heal-')), 'spool');
    dirs.push(join(dir, '..'));
    const { disk, io } = fullDisk();
    const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: `${target.url}/`, journalIo: io });
    spools.push(s);
    const probe = cachedProbe(() => spoolProblem({ dir, journalPath: s.journalState.path, journalIno: s.journalState.ino, failed: s.journalState.failed }));
    const receiver = await startReceiver({ host: '127.0.0.1', port: 0, path: '/hooks', forwardTo: `${target.url}/`, forwardTimeoutMs: 1000, spool: s, readTimeoutMs: 5000, maxConnections: 64, maxHeldBytes: 4 * 1024 * 1024, spoolProblem: probe }, store, () => undefined, () => undefined);
    try {
      let n = 0;
      const post = () => fetch(receiver.url, { method: 'POST', body: signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ note: `heal-${++n}` }), k1.privateKey), signal: AbortSignal.timeout(10_000) });
      const health = async () => {
        const r = await fetch(new URL('/healthz', receiver.url), { signal: AbortSignal.timeout(10_000) });
        return { status: r.status, body: (await r.json()) as { status: string; reasons?: string[] } };
      };
      expect((await post()).status).toBe(200);
      disk.full = true;
      expect((await post()).status).toBe(503);
      await new Promise((r) => setTimeout(r, 1100)); // past the probe's one-second cache
      expect(await health()).toEqual({ status: 503, body: { status: 'unavailable', reasons: ['the spool journal cannot be written (ENOSPC)'] } });
      disk.full = false;
      const freed = Date.now();
      let h!: Awaited<ReturnType<typeof health>>;
      // At most 8 s, then the assertions below say what was seen last.
      await waitFor(async () => (h = await health()).status === 200, { what: 'GET /healthz 200 again', timeoutMs: 8000, intervalMs: 200 }).catch(() => undefined);
      expect(h).toEqual({ status: 200, body: { status: 'ok' } });
      expect(Date.now() - freed).toBeLessThan(4000);
      expect((await post()).status).toBe(200);
      await waitFor(() => got.length === 2 && s.backlog === 0, { what: 'both kept events delivered' });
    } finally {
      await receiver.close();
    }
  });
});
