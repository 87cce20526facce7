const IDLE = Symbol('idle');
const BATCHES = Symbol('batches');

/** A stream of items that also offers them a batch (a page) at a time. */
export interface Batched<T> extends AsyncIterable<T> {
  [BATCHES](): AsyncIterable<T[]>;
}

/**
 * Items that come in batches (a page walk's pages), for writeList: read item
 * by item (table, --jq, -q) they are the items in order; readyBatches hands
 * the batches on as they are, with no per-item await in between. Read once.
 */
export function batched<T>(batches: AsyncIterable<T[]>): Batched<T> {
  return {
    [BATCHES]: () => batches,
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches) yield* batch;
    },
  };
}

/**
 * Regroups a stream of items into the batches that are ready together: all
 * the items available now (a page the walker emits in one go), up to `max`,
 * then the batch is handed on as soon as the source has to wait (for the
 * network) — checked with one setImmediate per batch, which only fires once
 * the pending microtasks, the items already in hand, are done. So a writer
 * makes one write per page instead of one per row (each row to a file is a
 * system call), and still shows rows as soon as their page arrives.
 */
export async function* readyBatches<T>(source: AsyncIterable<T> | Iterable<T>, max = 1000): AsyncGenerator<T[]> {
  if (BATCHES in source) {
    // Already in batches (a page each): as they are, empty ones skipped.
    for await (const batch of (source as Batched<T>)[BATCHES]()) {
      for (let i = 0; i < batch.length; i += max) yield i === 0 && batch.length <= max ? batch : batch.slice(i, i + max);
    }
    return;
  }
  if (!(Symbol.asyncIterator in source)) {
    // All in hand already (one page): batches of max.
    let batch: T[] = [];
    for (const item of source) {
      batch.push(item);
      if (batch.length >= max) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  const it = source[Symbol.asyncIterator]();
  let idle: Promise<typeof IDLE> | undefined;
  const whenIdle = () =>
    (idle ??= new Promise((resolve) =>
      setImmediate(() => {
        idle = undefined;
        resolve(IDLE);
      }),
    ));
  let batch: T[] = [];
  let finished = false;
  try {
    let pending = it.next();
    for (;;) {
      const r = batch.length === 0 ? await pending : await Promise.race([pending, whenIdle()]);
      if (r === IDLE) {
        yield batch;
        batch = [];
        continue;
      }
      if (r.done) break;
      batch.push(r.value);
      pending = it.next();
      if (batch.length >= max) {
        yield batch;
        batch = [];
      }
    }
    finished = true;
    if (batch.length > 0) yield batch;
  } finally {
    // The consumer stopped early (the reader left, an error): stop the source too.
    if (!finished) await it.return?.();
  }
}
