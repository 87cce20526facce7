// The total deadline of one HTTP attempt (the API client's --timeout), and
// the time limits of the connections under it.

/**
 * Idle connections closed after 10 s; connecting within at most 10 s (or the
 * request's whole time limit if shorter): the transport's (transport.ts), for
 * the API client and the deliveries alike.
 */
export function connectionLimits(timeoutMs: number): { keepAliveTimeout: number; connectTimeout: number } {
  return { keepAliveTimeout: 10_000, connectTimeout: Math.min(timeoutMs, 10_000) };
}

/**
 * What ends a request early: its deadline, or a stop (Ctrl-C). It tells one
 * listener, the attempt in flight (answer-reader.ts), through a plain
 * callback: an AbortSignal per request (an EventTarget, its listener added
 * and removed) was about 4% of the CPU of `profile get` of 100 employees,
 * 700 requests in a process that lives half a second.
 */
export interface RequestStop {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Called once, when it ends; set by the attempt waiting on it, which clears it when it settles. */
  onEnd?: (reason: unknown) => void;
}

/**
 * The --timeout of one attempt, as a total deadline: headers AND the whole
 * body within it (a limit on the gap between bytes never cuts off a server
 * sending a byte a second). Paused while the retry
 * policy waits between attempts, restarted for the next attempt.
 *
 * It also ends when any of the `stops` aborts (Ctrl-C, a walk that ended),
 * through ONE listener per stop signal shared by every deadline waiting on it
 * (see `watch`), removed when the last of them is disposed. Not
 * AbortSignal.any per request: that showed in the profile of a long export
 * (~12 ms in 200 pages), and listen sends hundreds of deliveries a second.
 * Not a listener per request either: dozens of requests in flight on the
 * CLI's one Ctrl-C signal (`profile get` with several employees) made Node
 * warn of a listener leak.
 */
export class Deadline implements RequestStop {
  onEnd?: (reason: unknown) => void;
  private ended = false;
  private why: unknown;
  /** Made only when asked for (`signal`): the retry policy's wait between attempts. */
  private ctrl?: AbortController;
  private timer?: NodeJS.Timeout;
  private timedOut = false;
  private readonly stops: AbortSignal[];

  constructor(
    private readonly ms: number,
    stops: (AbortSignal | undefined)[] = [],
  ) {
    // A signal named twice (the client's and the caller's are often the same) is watched once.
    this.stops = [...new Set(stops.filter((s): s is AbortSignal => s !== undefined))];
    for (const s of this.stops) {
      if (s.aborted) this.end(s.reason);
      else watch(s, this);
    }
    this.start();
  }

  /** A stop signal aborted: so does this request. */
  stopBy(signal: AbortSignal): void {
    this.end(signal.reason);
  }

  get aborted(): boolean {
    return this.ended;
  }

  get reason(): unknown {
    return this.why;
  }

  /** Aborts at the deadline, or when one of the stops aborts (already aborted if it has). */
  get signal(): AbortSignal {
    if (!this.ctrl) {
      this.ctrl = new AbortController();
      if (this.ended) this.ctrl.abort(this.why);
    }
    return this.ctrl.signal;
  }

  /** The deadline passed (not a stop). */
  get expired(): boolean {
    return this.timedOut;
  }

  /** One of the stops aborted (Ctrl-C, or the caller gave up). */
  get stopped(): boolean {
    return this.stops.some((s) => s.aborted);
  }

  start(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.end(new Error('deadline'));
    }, this.ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The request is over: no timer, no listeners left on the stops. */
  dispose(): void {
    this.stop();
    for (const s of this.stops) unwatch(s, this);
  }

  /** Ends once, with the first reason: told to the attempt in flight and to the signal, if one was asked for. */
  private end(reason: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.why = reason;
    this.ctrl?.abort(reason);
    this.onEnd?.(reason);
  }
}

/** What a stop signal stops: a Deadline, or a delivery in flight (delivery.ts). */
export interface Stoppable {
  stopBy(signal: AbortSignal): void;
}

/** The requests in flight on one stop signal, and the one listener that stops them all. */
interface Watchers {
  deadlines: Set<Stoppable>;
  onAbort: () => void;
}

const watched = new WeakMap<AbortSignal, Watchers>();

/** Stops `d` when `signal` aborts, through the one listener shared by everything waiting on it; unwatch when done. */
export function watch(signal: AbortSignal, d: Stoppable): void {
  let w = watched.get(signal);
  if (!w) {
    const deadlines = new Set<Stoppable>();
    w = { deadlines, onAbort: () => [...deadlines].forEach((x) => x.stopBy(signal)) };
    watched.set(signal, w);
    signal.addEventListener('abort', w.onAbort, { once: true });
  }
  w.deadlines.add(d);
}

export function unwatch(signal: AbortSignal, d: Stoppable): void {
  const w = watched.get(signal);
  if (!w?.deadlines.delete(d) || w.deadlines.size > 0) return;
  // The last one: no listener is left on a signal that outlives the requests (the CLI's Ctrl-C).
  signal.removeEventListener('abort', w.onAbort);
  watched.delete(signal);
}
