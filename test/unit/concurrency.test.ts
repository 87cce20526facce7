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
