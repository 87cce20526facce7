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
 * The window of calls behind mapOrdered: pulls inputs from the source while
 * there is room, starts a call for each, and keeps the calls in input order.
 */
class OrderedWindow<T, R> {
  /** Calls started and not yet handed on, in input order. */
  readonly queue: Promise<R>[] = [];
  readonly controller = new AbortController();
  readonly signal: AbortSignal;
  /** The source is done, failed, or the consumer stopped: nothing more is pulled or started. */
  exhausted = false;
  /** An async source is busy with a pull. */
  pulling = false;
  sourceFailed: { error: unknown } | undefined;
  private running = 0;
  private index = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The consumer, waiting for the source (or a pause) while nothing is queued. */
  private wake: (() => void) | undefined;
  private readonly isAsync: boolean;
  readonly source: AsyncIterator<T> | Iterator<T>;

  constructor(
    inputs: Iterable<T> | AsyncIterable<T>,
    private readonly o: MapOrderedOptions,
    private readonly fn: (input: T, index: number, signal: AbortSignal) => Promise<R>,
  ) {
    this.signal = o.signal ? AbortSignal.any([o.signal, this.controller.signal]) : this.controller.signal;
    this.isAsync = Symbol.asyncIterator in inputs;
    this.source = this.isAsync ? (inputs as AsyncIterable<T>)[Symbol.asyncIterator]() : (inputs as Iterable<T>)[Symbol.iterator]();
  }

  /** Wakes the consumer waiting in next(). */
  readonly notify = (): void => {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  };

  /** Until something changes: a call queued, the source ended, an abort. */
  waitForChange(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private cap(): number {
    const limit = this.o.limit;
    return Math.max(1, Math.floor(typeof limit === 'function' ? limit() : limit));
  }

  private start(input: T): void {
    this.running++;
    let p: Promise<R>;
    try {
      p = this.fn(input, this.index++, this.signal);
    } catch (err) {
      p = Promise.reject(err);
    }
    const done = () => {
      this.running--;
      this.pump();
    };
    p.then(done, done);
    // Awaited in order by the consumer; until then a rejection must not count as unhandled.
    p.catch(() => undefined);
    this.queue.push(p);
    this.notify();
  }

  /** May another call start now? Schedules a retry when only a pause stands in the way. */
  private room(): boolean {
    if (this.exhausted || this.pulling || this.signal.aborted) return false;
    const n = this.cap();
    if (this.running >= n || this.queue.length >= n + (this.o.ahead ?? n)) return false;
    const wait = this.o.pauseMs?.() ?? 0;
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      return false;
    }
    return true;
  }

  private finish(failure?: { error: unknown }): void {
    this.exhausted = true;
    this.sourceFailed = failure;
    this.notify();
  }

  /** Starts calls while there is room: a sync source at once, an async one a pull at a time. */
  pump(): void {
    if (!this.isAsync) {
      while (this.room()) {
        let r: IteratorResult<T>;
        try {
          r = (this.source as Iterator<T>).next();
        } catch (error) {
          return this.finish({ error });
        }
        if (r.done) return this.finish();
        this.start(r.value);
      }
      return;
    }
    if (!this.room()) return;
    this.pulling = true;
    (this.source as AsyncIterator<T>).next().then(
      (r) => {
        this.pulling = false;
        if (r.done) return this.finish();
        if (!this.exhausted) this.start(r.value);
        this.pump();
      },
      (error: unknown) => {
        this.pulling = false;
        this.finish({ error });
      },
    );
  }

  /** The consumer stopped (or a call failed): cancel what is in flight, close the source. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.controller.abort();
    if (this.exhausted) return;
    this.exhausted = true;
    // An async source still busy with a pull closes once that pull is over: not waited for.
    if (this.pulling) void Promise.resolve(this.source.return?.()).catch(() => undefined);
    else await this.source.return?.();
  }
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
  const w = new OrderedWindow(inputs, o, fn);
  // Aborted from outside while waiting for the source or a pause: fail now, not when it ends.
  // (On the caller's signal, which outlives this call: the listener is removed below.)
  o.signal?.addEventListener('abort', w.notify);
  try {
    w.pump();
    for (;;) {
      const head = w.queue[0];
      if (head) {
        const result = await head;
        w.queue.shift();
        w.pump();
        yield result;
        continue;
      }
      if (w.sourceFailed) throw w.sourceFailed.error;
      if (w.exhausted) return;
      if (w.signal.aborted) throw w.signal.reason;
      await w.waitForChange();
    }
  } finally {
    o.signal?.removeEventListener('abort', w.notify);
    await w.close();
  }
}
