// The spool's delivery queue: several events in flight, one per subject at a
// time, in arrival order per subject; a failed one goes first again.
import { describe, expect, it } from 'vitest';
import { DeliveryQueue, orderKey, subjectOf } from '../../../src/webhooks/delivery-queue.js';
import type { SpooledEvent } from '../../../src/webhooks/journal.js';

const ev = (id: string, eventType: string, data: Record<string, unknown> | null): SpooledEvent => ({ t: 'event', id, digest: `d-${id}`, receivedAt: '2026-11-01T00:00:00.000Z', eventType, kid: 'k1', jws: 'j', payload: data === null ? null : { eventType, data }, target: null });
const emp = (id: string, code: string) => ev(id, 'EMPLOYEE_UPDATED', { employeeCode: code });

describe('orderKey', () => {
  it('the subject the receiver shows; approvals apart from employees; none: the event alone', () => {
    expect(orderKey(emp('1', 'ACME-1'))).toBe('subject:ACME-1');
    expect(orderKey(ev('2', 'EMPLOYEE_CREATED', { employeeId: 'E-9' }))).toBe('subject:E-9');
    expect(orderKey(ev('3', 'APPROVAL_REQUEST_APPROVED', { resource: { id: 'R-1' } }))).toBe('approval:R-1');
    expect(orderKey(ev('4', 'EMPLOYEE_UPDATED', null))).toBe('event:4');
    expect(orderKey(ev('5', 'EMPLOYEE_UPDATED', {}))).toBe('event:5');
    expect(subjectOf({ eventType: 'X', data: [] })).toBeUndefined();
    expect(subjectOf('text')).toBeUndefined();
  });
});

describe('DeliveryQueue', () => {
  it('one event per subject in flight, in arrival order; other subjects side by side', () => {
    const q = new DeliveryQueue();
    const [a1, b1, a2, c1, a3] = [emp('a1', 'A'), emp('b1', 'B'), emp('a2', 'A'), emp('c1', 'C'), emp('a3', 'A')];
    for (const e of [a1, b1, a2, c1, a3]) q.push(e);
    expect(q.size).toBe(5);
    expect([q.take(), q.take(), q.take(), q.take()].map((e) => e?.id)).toEqual(['a1', 'b1', 'c1', undefined]);
    expect(q.inFlight).toBe(3);
    q.done(a1);
    expect(q.take()?.id).toBe('a2');
    q.done(b1);
    q.done(c1);
    expect(q.take()).toBeUndefined(); // a2 in flight: a3 waits
    q.done(a2);
    expect(q.take()?.id).toBe('a3');
    q.done(a3);
    expect([q.size, q.inFlight, q.take()]).toEqual([0, 0, undefined]);
    q.done(a3); // twice: nothing changes
    expect(q.size).toBe(0);
  });

  it('a failed event is taken again before younger subjects, and its subject stays blocked meanwhile', () => {
    const q = new DeliveryQueue();
    const [a1, a2, b1, c1] = [emp('a1', 'A'), emp('a2', 'A'), emp('b1', 'B'), emp('c1', 'C')];
    for (const e of [a1, a2, b1, c1]) q.push(e);
    expect(q.take()?.id).toBe('a1');
    q.retry(a1);
    expect(q.inFlight).toBe(0);
    expect([q.take()?.id, q.take()?.id, q.take()?.id, q.take()]).toEqual(['a1', 'b1', 'c1', undefined]);
    q.retry(emp('zz', 'Z')); // unknown: nothing
    q.retry(b1);
    q.retry(b1); // not in flight any more: nothing
    expect(q.take()?.id).toBe('b1');
    expect(q.size).toBe(4);
  });

  it('a new event of a subject in flight waits; of an idle subject, is ready at once; the ready list is reclaimed as it is consumed', () => {
    const q = new DeliveryQueue();
    const first = emp('x0', 'X');
    q.push(first);
    expect(q.take()?.id).toBe('x0');
    q.push(emp('x1', 'X'));
    expect(q.take()).toBeUndefined();
    q.done(first);
    expect(q.take()?.id).toBe('x1');
    // Many subjects through: memory follows the backlog (the deque compacts), order stays FIFO.
    const many = Array.from({ length: 5000 }, (_, i) => emp(`m${i}`, `S${i}`));
    for (const e of many) q.push(e);
    const out: string[] = [];
    for (let e = q.take(); e; e = q.take()) {
      out.push(e.id);
      q.done(e);
    }
    expect(out).toEqual(many.map((e) => e.id));
  });
});
