// Each parked event replayed once, and verified (a spool's records are read
// back from a file): two `webhook replay --failed` at once take turns and
// deliver each parked event once; a record edited after it was verified is
// refused, not forwarded, by a restarted listener and by replay, saying so.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli } from '../helpers/cli.js';
import { listen as listenOn, receiverFixture } from '../helpers/listen.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';
import { waitFor } from '../helpers/wait-for.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';
import { payloadDigest } from '../../src/webhooks/forward.js';

const children: ChildProcessWithoutNullStreams[] = [];
const k1 = ecKey('k1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;
const app = { got: [] as { body: string; id?: string; redelivery?: string }[], hold: false, held: [] as (() => void)[], url: '', close: () => Promise.resolve() };

/** A spool whose journal holds these genuine events, each parked after 3 refusals. */
function parkedSpool(name: string, codes: string[]): { spool: string; records: Record<string, unknown>[] } {
  const spool = join(dir.path, name);
  mkdirSync(spool, { mode: 0o700 });
  const at = new Date().toISOString();
  const records = codes.flatMap((code, i) => {
    const payload = employeeCreated({ employeeCode: code });
    const event = { t: 'event', id: `p${i}`, digest: payloadDigest(payload), receivedAt: at, eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: signEs({ alg: 'ES512', kid: 'k1' }, payload, k1.privateKey), payload, target: app.url };
    return [event, { t: 'start', id: `p${i}`, at }, { t: 'parked', id: `p${i}`, at, n: 3, reason: 'max-attempts' }];
  });
  writeFileSync(join(spool, 'journal.ndjson'), records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
  return { spool, records };
}

beforeAll(async () => {
  ({ dir, env, jwksFile } = receiverFixture([k1.jwk]));
  const target = await startLoopbackServer((req, res, body) => {
    app.got.push({ body, id: req.headers['x-partner-event-id'] as string | undefined, redelivery: req.headers['x-partner-redelivery'] as string | undefined });
    const answer = () => res.writeHead(200).end();
    if (app.hold) app.held.push(answer);
    else answer();
  });
  app.url = `${target.url}/hooks`;
  app.close = target.close;
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  app.got.length = 0;
  app.hold = false;
  for (const answer of app.held.splice(0)) answer();
});
afterAll(async () => {
  await app.close();
  dir.cleanup();
});

describe('webhook replay --failed, twice at once', () => {
  it('each parked event is delivered once: the second waits for the first, then finds nothing parked', async () => {
    const { spool, records } = parkedSpool('spool-twice', ['T-1', 'T-2', 'T-3']);
    const args = ['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--failed', '-o', 'json'];
    // The first delivery is held until both replays run: the one sending, and the other waiting for it (or, without a lock, sending too).
    app.hold = true;
    const [pa, pb] = [spawnCli(args, { env, timeoutMs: 30_000 }), spawnCli(args, { env, timeoutMs: 30_000 })];
    await waitFor(() => /Waiting for another/.test(pa.stderr() + pb.stderr()) || app.held.length >= 2, { what: 'both replays under way', timeoutMs: 20_000 });
    app.hold = false;
    for (const answer of app.held.splice(0)) answer();
    const [a, b] = await Promise.all([pa.done, pb.done]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(app.got).toHaveLength(3);
    expect(app.got.map((g) => g.id)).toEqual(records.filter((r) => r.t === 'event').map((r) => r.digest));
    expect(app.got.every((g) => g.redelivery === '1')).toBe(true);
    const outs = [a, b].map((r) => JSON.parse(r.stdout) as unknown[]);
    expect(outs.map((o) => o.length).sort()).toEqual([0, 3]);
    const second = outs[0]!.length === 0 ? a : b;
    expect(second.stderr).toMatch(/Waiting for another `webhook replay`/);
    expect(second.stderr).toMatch(/No parked event in .* matches; nothing replayed/);
  }, 60_000);
});

describe('a record edited after it was verified', () => {
  it('is not forwarded by a restarted listener (parked, said on stderr) nor by replay --failed (refused, exit 1); the genuine one goes', async () => {
    const { spool, records } = parkedSpool('spool-edited', ['G-1', 'X-1']);
    // Unparked and edited: the listener would forward both at start-up.
    const edited = records.filter((r) => r.t === 'event').map((r) => (r.id === 'p1' ? { ...r, payload: employeeCreated({ employeeCode: 'EVIL-1' }) } : r));
    writeFileSync(join(spool, 'journal.ndjson'), edited.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    const l = await listenOn(['--jwks-file', jwksFile, '--forward-to', app.url, '--spool', spool, '-o', 'ndjson'], env, children);
    await waitFor(() => app.got.length === 1 && /event p1 not forwarded/.test(l.stderr()), { what: 'the genuine event delivered and the edited one refused' });
    await new Promise((r) => setTimeout(r, 500));
    expect(app.got.map((g) => JSON.parse(g.body).data.employeeCode)).toEqual(['G-1']);
    expect(l.stderr()).toMatch(/event p1 not forwarded: its payload is not what its signature covers: the record was changed after it was verified/);
    await waitFor(() => l.stdout().includes('"parked":"unverified"'), { what: 'its parked line' });
    l.child.kill('SIGINT');
    await l.exited;
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((x) => JSON.parse(x) as Record<string, unknown>);
    expect(journal.filter((r) => r.t === 'parked')).toEqual([expect.objectContaining({ id: 'p1', reason: 'unverified' })]);
    const r = await runCli(['webhook', 'replay', '--jwks-file', jwksFile, '--spool', spool, '--failed', '-o', 'json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: 'p1', delivered: false, error: expect.stringMatching(/^not sent: its payload is not what its signature covers/) })]);
    expect(r.stderr).toMatch(/1 event replayed: 0 delivered, 1 not delivered/);
    expect(app.got).toHaveLength(1);
  }, 60_000);
});
