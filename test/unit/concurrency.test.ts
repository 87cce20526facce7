import { describe, expect, it } from 'vitest';
import { mapOrdered } from '../../src/concurrency.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function collect<R>(g: AsyncGenerator<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const r of g) out.push(r);
  return out;
}

describe('mapOrdered', () => {
  it('yields results in input order whatever order they finish in', async () => {
    const delays = [30, 5, 20, 1, 10];
    expect(await collect(mapOrdered(delays, 3, async (d, i) => (await tick(d), i)))).toEqual([0, 1, 2, 3, 4]);
  });

  it('never has more than `limit` calls in flight, and uses all of them', async () => {
    let running = 0;
    let peak = 0;
    await collect(
      mapOrdered(Array.from({ length: 20 }, (_, i) => i), 4, async () => {
        running++;
        peak = Math.max(peak, running);
        await tick(2);
        running--;
      }),
    );
    expect(peak).toBe(4);
  });

  it('reads an async source lazily and stops it when the consumer stops', async () => {
    let pulled = 0;
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; i < 1000; i++) {
          pulled++;
          yield i;
        }
      } finally {
        closed = true;
      }
    }
    for await (const r of mapOrdered(source(), 2, async (x) => x)) if (r === 3) break;
    // The 4 consumed, and at most 2 in flight plus 2 held for their turn.
    expect(pulled).toBeLessThanOrEqual(8);
    expect(closed).toBe(true);
  });

  it('passes a failure on at its place in the order', async () => {
    const g = mapOrdered([1, 2, 3], 3, async (x) => {
      if (x === 2) throw new Error('two');
      return x;
    });
    expect((await g.next()).value).toBe(1);
    await expect(g.next()).rejects.toThrow('two');
  });

  it('treats a limit below 1 as 1', async () => {
    expect(await collect(mapOrdered([1, 2], 0, async (x) => x * 2))).toEqual([2, 4]);
  });
});

/** A call that settles only when told to: resolve(i) / reject(i), with the signal it was given. */
function deferredCalls() {
  const calls = new Map<number, { resolve: (v: number) => void; reject: (e: Error) => void; signal: AbortSignal }>();
  const fn = (x: number, _i: number, signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      calls.set(x, { resolve, reject, signal });
    });
  return { calls, fn };
}

/** Lets pending promise callbacks and timers of 0 ms run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('mapOrdered keeps the window full', () => {
  it('starts the next call as soon as any call finishes, while an earlier one is still awaited', async () => {
    const { calls, fn } = deferredCalls();
    const g = mapOrdered([0, 1, 2, 3, 4, 5], 2, fn);
    const first = g.next();
    await settle();
    expect([...calls.keys()]).toEqual([0, 1]);
    // 1 finishes before 0: its slot goes to 2 at once, though 0 (first in order) is still out.
    calls.get(1)!.resolve(1);
    await settle();
    expect([...calls.keys()]).toEqual([0, 1, 2]);
    calls.get(0)!.resolve(0);
    expect((await first).value).toBe(0);
    await g.return(undefined);
  });

  it('holds at most `ahead` finished results beyond the calls in flight', async () => {
    const { calls, fn } = deferredCalls();
    const g = mapOrdered(Array.from({ length: 20 }, (_, i) => i), { limit: 2, ahead: 1 }, fn);
    const first = g.next();
    await settle();
    // 0 stays out; 1, 2, … finish as soon as they start: 3 started and unconsumed at most (2 + 1).
    for (let k = 1; k < 10; k++) {
      calls.get(k)?.resolve(k);
      await settle();
    }
    expect([...calls.keys()]).toEqual([0, 1, 2]);
    calls.get(0)!.resolve(0);
    expect((await first).value).toBe(0);
    // Taking one makes room for one more.
    await settle();
    expect([...calls.keys()]).toEqual([0, 1, 2, 3]);
    await g.return(undefined);
  });

  it('reads the limit before each start (an adaptive window)', async () => {
    let limit = 3;
    let running = 0;
    const peaks: number[] = [];
    const out: number[] = [];
    for await (const r of mapOrdered(
      Array.from({ length: 30 }, (_, i) => i),
      { limit: () => limit },
      async (x) => {
        running++;
        peaks.push(running);
        await tick(1);
        running--;
        return x;
      },
    )) {
      out.push(r);
      if (r === 9) limit = 1;
    }
    expect(out).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(Math.max(...peaks)).toBe(3);
    // Once lowered to 1, the calls started from then on ran alone.
    expect(peaks.slice(-10).every((p) => p === 1)).toBe(true);
  });

  it('starts nothing during a pause, then goes on', async () => {
    let pausedUntil = 0;
    const starts: number[] = [];
    const t0 = performance.now();
    const out: number[] = [];
    for await (const r of mapOrdered([0, 1, 2, 3], { limit: 1, pauseMs: () => Math.max(0, pausedUntil - performance.now()) }, async (x) => {
      starts.push(performance.now() - t0);
      if (x === 1) pausedUntil = performance.now() + 60;
      return x;
    })) out.push(r);
    expect(out).toEqual([0, 1, 2, 3]);
    // The call after the one that asked for the pause started no sooner than the pause allowed.
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(55);
  });
});

describe('mapOrdered stops what it started', () => {
  it('aborts the calls in flight when the consumer stops, and closes the source', async () => {
    const { calls, fn } = deferredCalls();
    let closed = false;
    function* source() {
      try {
        for (let i = 0; i < 100; i++) yield i;
      } finally {
        closed = true;
      }
    }
    const g = mapOrdered(source(), 3, fn);
    const first = g.next();
    await settle();
    calls.get(0)!.resolve(0);
    expect((await first).value).toBe(0);
    await g.return(undefined);
    const inFlight = [...calls.entries()].filter(([k]) => k > 0);
    expect(inFlight.map(([k]) => k)).toEqual([1, 2, 3]);
    expect(inFlight.every(([, c]) => c.signal.aborted)).toBe(true);
    expect(calls.get(0)!.signal.aborted).toBe(true);
    expect(closed).toBe(true);
  });

  it('a failed call aborts the others', async () => {
    const { calls, fn } = deferredCalls();
    const g = mapOrdered([0, 1, 2], 3, fn);
    const first = g.next();
    await settle();
    calls.get(0)!.reject(new Error('zero'));
    await expect(first).rejects.toThrow('zero');
    expect(calls.get(1)!.signal.aborted).toBe(true);
    expect(calls.get(2)!.signal.aborted).toBe(true);
  });

  it("passes the caller's abort on to every call in flight", async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const g = mapOrdered([1, 2, 3], { limit: 2, signal: controller.signal }, (x, _i, signal) => {
      seen.push(signal);
      return new Promise<number>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`aborted ${x}`))));
    });
    const first = g.next();
    await settle();
    controller.abort();
    await expect(first).rejects.toThrow('aborted 1');
    // Nothing new is started once aborted.
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.aborted)).toBe(true);
  });

  it('an abort while waiting for a slow source fails at once', async () => {
    const controller = new AbortController();
    async function* source() {
      yield 1;
      // Longer than any test timeout: waiting for this pull to end would fail the test.
      await new Promise((r) => setTimeout(r, 60_000).unref());
      yield 2;
    }
    const g = mapOrdered(source(), { limit: 2, signal: controller.signal }, async (x) => x);
    expect((await g.next()).value).toBe(1);
    const next = g.next();
    setTimeout(() => controller.abort(new Error('stop now')), 5);
    await expect(next).rejects.toThrow('stop now');
  });

  it('an async source without return() is left alone when the consumer stops, pulling or not', async () => {
    for (const limit of [1, 3]) {
      let i = 0;
      const source: AsyncIterable<number> = {
        [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<number>>((r) => setTimeout(() => r({ done: false, value: i++ }), 2)) }),
      };
      const got: number[] = [];
      for await (const x of mapOrdered(source, limit, async (x) => x)) {
        got.push(x);
        if (got.length === 3) break;
      }
      expect(got).toEqual([0, 1, 2]);
    }
  });

  it('starts nothing for what a slow source hands over after the consumer stopped', async () => {
    const started: number[] = [];
    let release: () => void = () => undefined;
    async function* source() {
      yield 1;
      await new Promise<void>((r) => (release = r));
      yield 2;
    }
    const g = mapOrdered(source(), 2, async (x) => (started.push(x), x));
    expect((await g.next()).value).toBe(1);
    await g.return(undefined);
    release();
    await settle();
    expect(started).toEqual([1]);
  });

  it('an async source that ends is read to its end, and nothing more', async () => {
    async function* source() {
      for (let i = 0; i < 5; i++) {
        await tick(1);
        yield i;
      }
    }
    const calls: number[] = [];
    expect(await collect(mapOrdered(source(), 2, async (x) => (calls.push(x), x * 2)))).toEqual([0, 2, 4, 6, 8]);
    expect(calls).toEqual([0, 1, 2, 3, 4]);
  });

  it('removes what it listened to on the caller\'s signal once done', async () => {
    const { getEventListeners } = await import('node:events') as unknown as { getEventListeners: (target: EventTarget, name: string) => unknown[] };
    const controller = new AbortController();
    const before = getEventListeners(controller.signal, 'abort').length;
    await collect(mapOrdered([1, 2], { limit: 2, signal: controller.signal }, async (x) => x));
    const g = mapOrdered([1, 2, 3], { limit: 1, signal: controller.signal }, async (x) => x);
    await g.next();
    await g.return(undefined);
    expect(getEventListeners(controller.signal, 'abort').length).toBe(before);
  });

  it('a source that fails is reported after the results before it', async () => {
    async function* source() {
      yield 1;
      yield 2;
      throw new Error('source broke');
    }
    const g = mapOrdered(source(), 2, async (x) => x * 10);
    expect((await g.next()).value).toBe(10);
    expect((await g.next()).value).toBe(20);
    const err: unknown = await g.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('source broke');
  });

  it('a plain iterable that throws is reported in order too', async () => {
    function* source() {
      yield 1;
      throw new Error('iterable broke');
    }
    const g = mapOrdered(source(), 4, async (x) => x);
    expect((await g.next()).value).toBe(1);
    const err: unknown = await g.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('iterable broke');
  });

  it('a call that throws synchronously fails at its place', async () => {
    const g = mapOrdered([1, 2], 2, (x) => {
      if (x === 2) throw new Error('sync two');
      return Promise.resolve(x);
    });
    expect((await g.next()).value).toBe(1);
    await expect(g.next()).rejects.toThrow('sync two');
  });

  it('gives each call its index', async () => {
    expect(await collect(mapOrdered(['a', 'b', 'c'], 2, async (x, i) => `${x}${i}`))).toEqual(['a0', 'b1', 'c2']);
    expect(await collect(mapOrdered([], 2, async (x) => x))).toEqual([]);
  });
});
