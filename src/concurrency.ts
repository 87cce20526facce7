// The one bounded, in-order concurrency helper: up to `limit` calls of `fn`
// in flight, results yielded in input order, the next input started as soon
// as a result is handed on (so work overlaps the consumer's writing).

export async function* mapOrdered<T, R>(inputs: Iterable<T> | AsyncIterable<T>, limit: number, fn: (input: T, index: number) => Promise<R>): AsyncGenerator<R> {
  const source: AsyncIterator<T> | Iterator<T> = Symbol.asyncIterator in inputs ? inputs[Symbol.asyncIterator]() : (inputs as Iterable<T>)[Symbol.iterator]();
  const window: Promise<R>[] = [];
  let exhausted = false;
  let index = 0;
  const fill = async () => {
    while (!exhausted && window.length < Math.max(1, limit)) {
      const next = await source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const p = fn(next.value, index++);
      // Awaited in order below; until then a rejection must not count as unhandled.
      p.catch(() => undefined);
      window.push(p);
    }
  };
  try {
    await fill();
    while (window.length > 0) {
      const result = await window.shift()!;
      await fill();
      yield result;
    }
  } finally {
    // The consumer stopped early (or a call failed): let the source clean up.
    if (!exhausted) await source.return?.();
  }
}
