// `webhook replay`'s delivery loop: every selected event once, in order,
// through one delivery client; --to overrides each event's own target; an
// event kept without a target is a failure that says what to do; a record
// that fails its check (verified again) is not sent and says why; every send
// is a redelivery (x-partner-redelivery: 1).
import { describe, expect, it } from 'vitest';
import type { DeliveryClient } from '../../../src/api/delivery.js';
import { replay, type ReplayOutcome } from '../../../src/webhooks/replay.js';
import type { SpooledEvent } from '../../../src/webhooks/spool.js';
import type { StoredCheck } from '../../../src/webhooks/stored-verify.js';

const event = (n: number, target: string | null): SpooledEvent => ({ t: 'event', id: `e${n}`, digest: `d${n}`, receivedAt: '2026-11-22T10:00:00.000Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: 'a.b.c', payload: { n }, target });

function client(statusFor: (body: string) => number): DeliveryClient & { sent: { url: string; body: string }[]; headers: Record<string, string>[] } {
  const sent: { url: string; body: string }[] = [];
  const headers: Record<string, string>[] = [];
  return { sent, headers, timeoutMs: 1000, close: async () => undefined, deliver: async (url, init) => (sent.push({ url, body: init.body }), headers.push(init.headers as Record<string, string>), { status: statusFor(init.body), excerpt: '' }) };
}
/** Every record passes, its payload sent as stored. */
const passes = async (e: SpooledEvent): Promise<StoredCheck> => ({ ok: true, body: JSON.stringify(e.payload) });

describe('replay', () => {
  it('sends each event once, in order, to its own target; a 5xx is not delivered; no target is a failure', async () => {
    const c = client((body) => (body.includes('2') ? 500 : 200));
    const outcomes: ReplayOutcome[] = [];
    for await (const o of replay([event(1, 'http://a/'), event(2, 'http://b/'), event(3, null), event(4, 'http://a/')], {}, c, passes)) outcomes.push(o);
    expect(c.sent).toEqual([
      { url: 'http://a/', body: '{"n":1}' },
      { url: 'http://b/', body: '{"n":2}' },
      { url: 'http://a/', body: '{"n":4}' },
    ]);
    expect(outcomes.map((o) => [o.event.id, o.ok])).toEqual([['e1', true], ['e2', false], ['e3', false], ['e4', true]]);
    expect(outcomes[2]!.result.error).toMatch(/pass --to URL/);
    // Not only --failed: every replayed event was received before.
    expect(c.headers.map((h) => [h['x-partner-redelivery'], h['x-partner-event-id']])).toEqual([['1', 'd1'], ['1', 'd2'], ['1', 'd4']]);
  });

  it('a record that fails its check is not sent; its error says why', async () => {
    const c = client(() => 200);
    const outcomes: ReplayOutcome[] = [];
    const check = async (e: SpooledEvent): Promise<StoredCheck> => (e.id === 'e2' ? { ok: false, reason: 'its payload is not what its signature covers', transient: false } : passes(e));
    for await (const o of replay([event(1, 'http://a/'), event(2, 'http://a/')], {}, c, check)) outcomes.push(o);
    expect(c.sent.map((x) => x.body)).toEqual(['{"n":1}']);
    expect(outcomes[1]).toMatchObject({ ok: false, result: { error: 'not sent: its payload is not what its signature covers' } });
  });

  it('--to sends every event there; an aborted signal stops before the next event', async () => {
    const c = client(() => 204);
    const stop = new AbortController();
    const seen: string[] = [];
    for await (const o of replay([event(1, null), event(2, 'http://b/'), event(3, 'http://b/')], { to: 'http://to/' }, c, passes, stop.signal)) {
      seen.push(o.event.id);
      if (o.event.id === 'e2') stop.abort();
    }
    expect(c.sent.map((s) => s.url)).toEqual(['http://to/', 'http://to/']);
    expect(seen).toEqual(['e1', 'e2']);
  });
});
