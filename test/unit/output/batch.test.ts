import { describe, expect, it } from 'vitest';
import { readyBatches } from '../../../src/output/batch.js';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Pages of `size` items, each page after a real wait (a timer), its items all at once. */
async function* pages(count: number, size: number, waitMs = 2): AsyncGenerator<number> {
  for (let p = 0; p < count; p++) {
    await new Promise((r) => setTimeout(r, waitMs));
    for (let i = 0; i < size; i++) yield p * size + i;
  }
}

describe('readyBatches', () => {
  it('hands on the items ready together as one batch: one per page', async () => {
    const batches = await collect(readyBatches(pages(4, 25)));
    expect(batches.map((b) => b.length)).toEqual([25, 25, 25, 25]);
    expect(batches.flat()).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('never holds more than max', async () => {
    const batches = await collect(readyBatches(pages(2, 25), 10));
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5, 10, 10, 5]);
  });

  it('hands a page on before the next one arrives (no waiting for a full batch)', async () => {
    const seen: number[] = [];
    const source = (async function* () {
      yield* [1, 2, 3];
      // The consumer must have the first batch before the source goes on.
      await new Promise((r) => setTimeout(r, 20));
      seen.push(-1);
      yield 4;
    })();
    for await (const batch of readyBatches(source)) seen.push(batch.length);
    expect(seen).toEqual([3, -1, 1]);
  });

  it('batches a plain iterable too', async () => {
    expect(await collect(readyBatches([1, 2, 3, 4, 5], 2))).toEqual([[1, 2], [3, 4], [5]]);
    expect(await collect(readyBatches([]))).toEqual([]);
  });

  it('stops the source when the consumer stops', async () => {
    let finallyRan = false;
    const source = (async function* () {
      try {
        for (let i = 0; ; i++) {
          await new Promise((r) => setTimeout(r, 1));
          yield i;
        }
      } finally {
        finallyRan = true;
      }
    })();
    for await (const _ of readyBatches(source)) break;
    expect(finallyRan).toBe(true);
  });

  it('passes the source error on', async () => {
    const source = (async function* () {
      yield 1;
      await new Promise((r) => setTimeout(r, 1));
      throw new Error('page 2 failed');
    })();
    const got: number[][] = [];
    await expect(
      (async () => {
        for await (const b of readyBatches(source)) got.push(b);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(got).toEqual([[1]]);
  });
});
