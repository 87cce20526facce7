// `webhook replay` in-process: a spool journal written here, the events re-sent through the context's
// delivery client (stubbed by nock: an unmatched or unused stub fails).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayCommand } from '../../../../src/commands/webhook/replay.js';
import { ORIGIN, runInProcess } from '../../../helpers/command.js';
import { ecKey, employeeCreated, signEs } from '../../webhooks/helpers.js';
import { payloadDigest } from '../../../../src/webhooks/forward.js';

let dir: string;
let spool: string;
const HOUR = 3_600_000;
const k1 = ecKey('k1');
// Genuine records: replay verifies each one again (against --jwks-file) before sending it.
const event = (id: string, eventType: string, hoursAgo: number) => {
  const payload = { ...employeeCreated({ id }), eventType, timestamp: new Date(Date.now() - hoursAgo * HOUR).toISOString() };
  return { t: 'event', id, digest: payloadDigest(payload), receivedAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(), eventType, kid: 'k1', jws: signEs({ alg: 'ES512', kid: 'k1' }, payload, k1.privateKey), payload, target: `${ORIGIN}/app` };
};
let jwksFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-replay-'));
  spool = join(dir, 'spool');
  mkdirSync(spool, { mode: 0o700 });
  const lines = [event('e1', 'EMPLOYEE_CREATED', 5), { t: 'delivered', id: 'e1', at: new Date().toISOString(), status: 200 }, event('e2', 'EMPLOYEE_UPDATED', 3), event('e3', 'EMPLOYEE_CREATED', 1)];
  writeFileSync(join(spool, 'journal.ndjson'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
  jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [k1.jwk] }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('webhook replay (in-process)', () => {
  it('re-sends every stored event in arrival order, to the URL each came for, delivered or not; one record each', async () => {
    const bodies: unknown[] = [];
    const r = await runInProcess(replayCommand, [], { spool, jwksFile, output: 'json' }, {
      stub: (api) => {
        for (const status of [200, 500, 204]) api.post('/app').reply(status, (_uri, body) => (bodies.push(typeof body === 'string' ? JSON.parse(body) : body), ''));
      },
    });
    expect(r.code).toBe(1); // one was not taken
    expect(bodies.map((b) => (b as { data: { id: string } }).data.id)).toEqual(['e1', 'e2', 'e3']);
    const records = JSON.parse(r.out);
    expect(records.map((x: { id: string; status: number; delivered: boolean }) => [x.id, x.status, x.delivered])).toEqual([
      ['e1', 200, true],
      ['e2', 500, false],
      ['e3', 204, true],
    ]);
    expect(r.err).toMatch(/3 events replayed: 2 delivered, 1 not delivered/);
  });

  it('--event-type, --since and --to choose what goes where; -q prints the spool ids', async () => {
    const r = await runInProcess(replayCommand, [], { spool, jwksFile, eventType: ['EMPLOYEE_CREATED'], since: '2h', to: `${ORIGIN}/other`, quiet: true }, {
      stub: (api) => api.post('/other').reply(200, ''),
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe('e3\n');
  });

  it('nothing matching: an empty list and a note, exit 0, nothing sent', async () => {
    const r = await runInProcess(replayCommand, [], { spool, eventType: ['EMPLOYEE_DELETED'], output: 'json' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual([]);
    expect(r.err).toMatch(/nothing replayed/);
  });

  it('--failed with nothing parked, on a terminal: one message, not "No results." as well', async () => {
    const r = await runInProcess(replayCommand, [], { spool, failed: true }, { tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toBe(`No parked event in ${spool} matches; nothing replayed.\n`);
  });

  it('--since 2h re-sends delivered events as redeliveries: x-partner-redelivery: 1 and their usual x-partner-event-id', async () => {
    const headers: Record<string, string>[] = [];
    const r = await runInProcess(replayCommand, [], { spool, jwksFile, since: '4h', output: 'json' }, {
      stub: (api) => {
        for (let i = 0; i < 2; i++) api.post('/app').reply(200, function () {
            headers.push(this.req.headers as Record<string, string>);
            return '';
          });
      },
    });
    expect(r.code).toBe(0);
    const journal = readFileSync(join(spool, 'journal.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; id: string; digest: string });
    const digests = journal.filter((x) => x.t === 'event' && x.id !== 'e1').map((x) => x.digest);
    expect(headers.map((h) => [h['x-partner-redelivery'], h['x-partner-event-id']])).toEqual(digests.map((d) => ['1', d]));
  });

  it('a record edited after it was verified is not sent; the row and a warning say why; exit 1', async () => {
    const path = join(spool, 'journal.ndjson');
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const e3 = lines.find((l) => l.id === 'e3')!;
    (e3.payload as { data: Record<string, unknown> }).data.employeeCode = 'EVIL-1';
    writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    const r = await runInProcess(replayCommand, [], { spool, jwksFile, since: '2h', output: 'json' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual([expect.objectContaining({ id: 'e3', delivered: false, status: null, error: 'not sent: its payload is not what its signature covers: the record was changed after it was verified' })]);
    expect(r.err).toMatch(/event e3 not sent: its payload is not what its signature covers/);
  });
});
