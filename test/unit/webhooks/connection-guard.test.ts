// The receiver's connection and body-budget accounting (connection-guard.ts):
// who is closed to make room, and when nobody can be.
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { ConnectionGuard, connectionCap, descriptorLimit, RESERVED_DESCRIPTORS, SLOW_AFTER_MS } from '../../../src/webhooks/connection-guard.js';

/** A socket stand-in: destroy() closes it, as a real one does. */
function sock(name: string): Socket & { name: string } {
  const s = Object.assign(new EventEmitter(), {
    name,
    destroyed: false,
    destroy() {
      s.destroyed = true;
      s.emit('close');
      return s;
    },
  });
  return s as unknown as Socket & { name: string };
}

function guard(maxConnections: number, maxHeld = 100) {
  let t = 0;
  const g = new ConnectionGuard(maxConnections, maxHeld, () => t);
  return { g, tick: (ms: number) => (t += ms) };
}

describe('ConnectionGuard.admit', () => {
  it('under the cap: admits; at it: closes the oldest idle connection first', () => {
    const { g } = guard(2);
    const a = sock('a');
    const b = sock('b');
    const c = sock('c');
    const evicted: string[] = [];
    expect(g.admit(a)).toBe(true);
    expect(g.admit(b)).toBe(true);
    expect(g.admit(c, (why) => evicted.push(why))).toBe(true);
    expect(a.destroyed).toBe(true);
    expect(b.destroyed).toBe(false);
    expect(evicted).toEqual(['idle']);
    expect(g.open).toBe(2);
  });

  it('no idle one: the body under way longest, once it is slow; busy ones never; none: refused', () => {
    const { g, tick } = guard(2);
    const a = sock('a');
    const b = sock('b');
    g.admit(a);
    g.admit(b);
    g.set(a, 'reading');
    g.set(b, 'busy');
    expect(g.active).toBe(2);
    // a's body started just now: not slow yet, b is busy: the newcomer is refused.
    expect(g.admit(sock('c'))).toBe(false);
    expect(a.destroyed).toBe(false);
    tick(SLOW_AFTER_MS);
    const why: string[] = [];
    expect(g.admit(sock('d'), (w) => why.push(w))).toBe(true);
    expect(a.destroyed).toBe(true);
    expect(b.destroyed).toBe(false);
    expect(why).toEqual(['slow']);
  });

  it('a connection answered goes back to idle (keep-alive) at the end of the line', () => {
    const { g } = guard(2);
    const a = sock('a');
    const b = sock('b');
    g.admit(a);
    g.admit(b);
    g.set(a, 'busy');
    g.set(a, 'idle'); // a now idle since after b
    g.admit(sock('c'));
    expect(b.destroyed).toBe(true);
    expect(a.destroyed).toBe(false);
  });

  it('forgets a closed connection (and its bytes)', () => {
    const { g } = guard(1, 10);
    const a = sock('a');
    g.admit(a);
    g.set(a, 'reading');
    expect(g.reserve(a, 10)).toBe(true);
    expect(g.heldBytes).toBe(10);
    a.destroy();
    expect(g.open).toBe(0);
    expect(g.heldBytes).toBe(0);
  });
});

describe('ConnectionGuard.reserve', () => {
  it('within the budget: taken; past it: the slowest body is closed, else nothing is taken', () => {
    const { g, tick } = guard(10, 100);
    const slow = sock('slow');
    const fresh = sock('fresh');
    g.admit(slow);
    g.admit(fresh);
    g.set(slow, 'reading');
    expect(g.reserve(slow, 80)).toBe(true);
    g.set(fresh, 'reading');
    // 80 + 30 > 100 and slow is not slow yet: refused, nothing taken.
    expect(g.reserve(fresh, 30)).toBe(false);
    expect(g.heldBytes).toBe(80);
    tick(SLOW_AFTER_MS);
    let evicted = 0;
    expect(g.reserve(fresh, 30, () => evicted++)).toBe(true);
    expect(slow.destroyed).toBe(true);
    expect(evicted).toBe(1);
    expect(g.heldBytes).toBe(30);
    g.release(fresh);
    expect(g.heldBytes).toBe(0);
  });

  it('never closes the asking connection itself', () => {
    const { g, tick } = guard(10, 10);
    const a = sock('a');
    g.admit(a);
    g.set(a, 'reading');
    g.reserve(a, 10);
    tick(SLOW_AFTER_MS * 5);
    expect(g.reserve(a, 1)).toBe(false);
    expect(a.destroyed).toBe(false);
  });
});

describe('the cap under the open-files limit', () => {
  it('reads the soft limit from /proc/self/limits text; unlimited or unreadable: none', () => {
    const text = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            256                  4096                 files\n';
    expect(descriptorLimit(() => text)).toBe(256);
    expect(descriptorLimit(() => text.replace('256 ', 'unlimited '))).toBeUndefined();
    expect(descriptorLimit(() => {
      throw new Error('ENOENT');
    })).toBeUndefined();
  });

  it('keeps RESERVED_DESCRIPTORS free, never under 16, never over what was asked', () => {
    expect(connectionCap(1000, 256)).toBe(256 - RESERVED_DESCRIPTORS);
    expect(connectionCap(1000, 100)).toBe(16);
    expect(connectionCap(50, 20000)).toBe(50);
    expect(connectionCap(1000, undefined)).toBe(1000);
  });
});
