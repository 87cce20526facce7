// The spool's undelivered events, for several forwards in flight with the
// order per subject kept: events about one employee (one contract, one
// approval request) go out one at a time in arrival order; events about
// different ones run side by side. Every operation is O(1) (amortised): a
// queue per subject and a queue of subjects whose next event may start.
import { checkEvent } from './events.js';
import type { SpooledEvent } from './journal.js';

/**
 * What ties events together for ordering: the subject the receiver shows
 * (employee code or id, contract id, approval request id). An event without
 * one is ordered with nothing (its own key).
 */
export function orderKey(e: SpooledEvent): string {
  const subject = subjectOf(e.payload);
  if (subject === undefined) return `event:${e.id}`;
  return `${String(e.eventType).startsWith('APPROVAL_') ? 'approval' : 'subject'}:${subject}`;
}

/** The subject of a stored payload, as `webhook listen` shows it (employee code, contract or approval request id). */
export function subjectOf(payload: unknown): string | undefined {
  const p = payload as { eventType?: unknown; data?: unknown } | null;
  if (!p || typeof p !== 'object' || typeof p.eventType !== 'string' || p.data === null || typeof p.data !== 'object' || Array.isArray(p.data)) return undefined;
  return checkEvent(p as Record<string, unknown>).subject;
}

/** A FIFO with O(1) shift and unshift (the ready subjects). */
class Deque<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(v: T): void {
    this.items.push(v);
  }

  unshift(v: T): void {
    if (this.head > 0) this.items[--this.head] = v;
    else this.items.unshift(v);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const v = this.items[this.head];
    this.items[this.head++] = undefined;
    // Reclaim the consumed front now and then: memory follows the backlog, not the total.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return v;
  }
}

export class DeliveryQueue {
  /** Undelivered events per key, oldest first; the head of a busy key is in flight (or waiting to be retried). */
  private readonly byKey = new Map<string, SpooledEvent[]>();
  private readonly ready = new Deque<string>();
  private readonly busy = new Set<string>();
  private readonly keys = new Map<string, string>();
  private count = 0;

  constructor(private readonly keyOf: (e: SpooledEvent) => string = orderKey) {}

  /** Undelivered events, in flight included. */
  get size(): number {
    return this.count;
  }

  /** Events being forwarded (or waiting for their retry). */
  get inFlight(): number {
    return this.busy.size;
  }

  push(e: SpooledEvent): void {
    const key = this.keyOf(e);
    this.keys.set(e.id, key);
    this.count++;
    const list = this.byKey.get(key);
    if (list) {
      list.push(e);
      return;
    }
    this.byKey.set(key, [e]);
    if (!this.busy.has(key)) this.ready.push(key);
  }

  /** The next event that may start now (the oldest of a key with nothing in flight), or undefined. */
  take(): SpooledEvent | undefined {
    for (let key = this.ready.shift(); key !== undefined; key = this.ready.shift()) {
      const list = this.byKey.get(key);
      if (!list) continue;
      this.busy.add(key);
      return list[0];
    }
    return undefined;
  }

  /** The event was delivered: the next one of its key may start. */
  done(e: SpooledEvent): void {
    const key = this.keys.get(e.id);
    if (key === undefined) return;
    this.keys.delete(e.id);
    const list = this.byKey.get(key)!;
    list.shift();
    this.count--;
    this.busy.delete(key);
    if (list.length === 0) this.byKey.delete(key);
    else this.ready.push(key);
  }

  /** The forward failed: the event stays first of its key and is taken again before younger keys. */
  retry(e: SpooledEvent): void {
    const key = this.keys.get(e.id);
    if (key === undefined || !this.busy.delete(key)) return;
    this.ready.unshift(key);
  }
}
