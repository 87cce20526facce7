// `webhook replay` in-process: a spool journal written here, the events re-sent through the context's
// delivery client (stubbed by nock: an unmatched or unused stub fails).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayCommand } from '../../../../src/commands/webhook/replay.js';
import { ORIGIN, runInProcess } from '../../../helpers/command.js';

let dir: string;
let spool: string;
const HOUR = 3_600_000;
const event = (id: string, eventType: string, hoursAgo: number) => {
  const payload = { eventType, timestamp: new Date(Date.now() - hoursAgo * HOUR).toISOString(), data: { id } };
  return { t: 'event', id, digest: `d-${id}`, receivedAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(), eventType, kid: 'k1', jws: 'h.p.s', payload, target: `${ORIGIN}/app` };
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-replay-'));
  spool = join(dir, 'spool');
  mkdirSync(spool, { mode: 0o700 });
  const lines = [event('e1', 'EMPLOYEE_CREATED', 5), { t: 'delivered', id: 'e1', at: new Date().toISOString(), status: 200 }, event('e2', 'EMPLOYEE_UPDATED', 3), event('e3', 'EMPLOYEE_CREATED', 1)];
  writeFileSync(join(spool, 'journal.ndjson'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('webhook replay (in-process)', () => {
  it('re-sends every stored event in arrival order, to the URL each came for, delivered or not; one record each', async () => {
    const bodies: unknown[] = [];
    const r = await runInProcess(replayCommand, [], { spool, output: 'json' }, {
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
    const r = await runInProcess(replayCommand, [], { spool, eventType: ['EMPLOYEE_CREATED'], since: '2h', to: `${ORIGIN}/other`, quiet: true }, {
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
});
