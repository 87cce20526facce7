// `webhook replay`'s delivery loop: every selected event once, in order,
// through one delivery client; --to overrides each event's own target; an
// event kept without a target is a failure that says what to do.
import { describe, expect, it } from 'vitest';
import type { DeliveryClient } from '../../../src/api/delivery.js';
import { replay, type ReplayOutcome } from '../../../src/webhooks/replay.js';
import type { SpooledEvent } from '../../../src/webhooks/spool.js';

const event = (n: number, target: string | null): SpooledEvent => ({ t: 'event', id: `e${n}`, digest: `d${n}`, receivedAt: '2026-11-22T10:00:00.000Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: 'a.b.c', payload: { n }, target });

function client(statusFor: (body: string) => number): DeliveryClient & { sent: { url: string; body: string }[] } {
  const sent: { url: string; body: string }[] = [];
  return { sent, timeoutMs: 1000, close: async () => undefined, deliver: async (url, init) => (sent.push({ url, body: init.body }), { status: statusFor(init.body), excerpt: '' }) };
}

describe('replay', () => {
  it('sends each event once, in order, to its own target; a 5xx is not delivered; no target is a failure', async () => {
    const c = client((body) => (body.includes('2') ? 500 : 200));
    const outcomes: ReplayOutcome[] = [];
    for await (const o of replay([event(1, 'http://a/'), event(2, 'http://b/'), event(3, null), event(4, 'http://a/')], {}, c)) outcomes.push(o);
    expect(c.sent).toEqual([
      { url: 'http://a/', body: '{"n":1}' },
      { url: 'http://b/', body: '{"n":2}' },
      { url: 'http://a/', body: '{"n":4}' },
    ]);
    expect(outcomes.map((o) => [o.event.id, o.ok])).toEqual([['e1', true], ['e2', false], ['e3', false], ['e4', true]]);
    expect(outcomes[2]!.result.error).toMatch(/pass --to URL/);
  });

  it('--to sends every event there; an aborted signal stops before the next event', async () => {
    const c = client(() => 204);
    const stop = new AbortController();
    const seen: string[] = [];
    for await (const o of replay([event(1, null), event(2, 'http://b/'), event(3, 'http://b/')], { to: 'http://to/' }, c, stop.signal)) {
      seen.push(o.event.id);
      if (o.event.id === 'e2') stop.abort();
    }
    expect(c.sent.map((s) => s.url)).toEqual(['http://to/', 'http://to/']);
    expect(seen).toEqual(['e1', 'e2']);
  });
});
