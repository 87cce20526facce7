// The one bounded, in-order concurrency helper: up to `limit` calls of `fn`
// in flight, results yielded in input order. A call that finishes frees its
// slot at once, even while an earlier result is still awaited or the consumer
// is still busy with the last one (writing it), so the window stays full the
// way N independent workers keep it full; finished results wait for their
// turn, at most `ahead` of them, which bounds memory.

export interface MapOrderedOptions {
  /** Calls in flight at most (below 1 counts as 1): a number, or read before each start (an adaptive window). */
  limit: number | (() => number);
  /** Finished results held for their turn, at most (beyond the calls in flight); default: the limit. */
  ahead?: number;
  /** Milliseconds to hold new calls back (a server's Retry-After); read before each start, 0 or less: none. */
  pauseMs?: () => number;
  /** Aborting it aborts every call in flight (their `signal`); the consumer then sees the failure in order. */
  signal?: AbortSignal;
}

/**
 * Maps `inputs` through `fn` with bounded concurrency, in order. `fn` gets a
 * signal that is aborted when the consumer stops early (break, return, an
 * error, a failed call): calls still in flight are cancelled, not left
 * running, and the source is closed.
 */
export async function* mapOrdered<T, R>(
  inputs: Iterable<T> | AsyncIterable<T>,
  limit: number | (() => number) | MapOrderedOptions,
  fn: (input: T, index: number, signal: AbortSignal) => Promise<R>,
): AsyncGenerator<R> {
  const o: MapOrderedOptions = typeof limit === 'object' ? limit : { limit };
  const readLimit = o.limit;
  const cap = () => Math.max(1, Math.floor(typeof readLimit === 'function' ? readLimit() : readLimit));
  const controller = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, controller.signal]) : controller.signal;
  const isAsync = Symbol.asyncIterator in inputs;
  const source: AsyncIterator<T> | Iterator<T> = isAsync ? (inputs as AsyncIterable<T>)[Symbol.asyncIterator]() : (inputs as Iterable<T>)[Symbol.iterator]();
  /** Calls started and not yet handed on, in input order. */
  const queue: Promise<R>[] = [];
  let running = 0;
  let index = 0;
  /** The source is done, failed, or the consumer stopped: nothing more is pulled or started. */
  let exhausted = false;
  let pulling = false;
  let sourceFailed: { error: unknown } | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The consumer, waiting for the source (or a pause) while nothing is queued. */
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const start = (input: T) => {
    running++;
    let p: Promise<R>;
    try {
      p = fn(input, index++, signal);
    } catch (err) {
      p = Promise.reject(err);
    }
    const done = () => {
      running--;
      pump();
    };
    p.then(done, done);
    // Awaited in order below; until then a rejection must not count as unhandled.
    p.catch(() => undefined);
    queue.push(p);
    notify();
  };

  /** May another call start now? Schedules a retry when only a pause stands in the way. */
  const room = (): boolean => {
    if (exhausted || pulling || signal.aborted) return false;
    const n = cap();
    if (running >= n || queue.length >= n + (o.ahead ?? n)) return false;
    const wait = o.pauseMs?.() ?? 0;
    if (wait > 0) {
      timer ??= setTimeout(() => {
        timer = undefined;
        pump();
      }, wait);
      return false;
    }
    return true;
  };

  const finish = (failure?: { error: unknown }) => {
    exhausted = true;
    sourceFailed = failure;
    notify();
  };

  function pump(): void {
    if (!isAsync) {
      while (room()) {
        let r: IteratorResult<T>;
        try {
          r = (source as Iterator<T>).next();
        } catch (error) {
          return finish({ error });
        }
        if (r.done) return finish();
        start(r.value);
      }
      return;
    }
    if (!room()) return;
    pulling = true;
    (source as AsyncIterator<T>).next().then(
      (r) => {
        pulling = false;
        if (r.done) return finish();
        if (!exhausted) start(r.value);
        pump();
      },
      (error: unknown) => {
        pulling = false;
        finish({ error });
      },
    );
  }

  // Aborted from outside while waiting for the source or a pause: fail now, not when it ends.
  // (On the caller's signal, which outlives this call: the listener is removed below.)
  o.signal?.addEventListener('abort', notify);
  try {
    pump();
    for (;;) {
      const head = queue[0];
      if (head) {
        const result = await head;
        queue.shift();
        pump();
        yield result;
        continue;
      }
      if (sourceFailed) throw sourceFailed.error;
      if (exhausted) return;
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // The consumer stopped early (or a call failed): cancel what is in flight, close the source.
    o.signal?.removeEventListener('abort', notify);
    clearTimeout(timer);
    controller.abort();
    if (!exhausted) {
      exhausted = true;
      // An async source still busy with a pull closes once that pull is over: not waited for.
      if (pulling) void Promise.resolve(source.return?.()).catch(() => undefined);
      else await source.return?.();
    }
  }
}
