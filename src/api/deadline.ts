// The total deadline of one HTTP attempt (the API client's --timeout).

/**
 * The --timeout of one attempt, as a total deadline: headers AND the whole
 * body within it (undici's own timeouts only bound the gap between bytes, so
 * a server sending a byte a second was never cut off). Paused while the retry
 * policy waits between attempts, restarted for the next attempt.
 *
 * Its signal is the one request's signal: it also aborts when any of the
 * `stops` does (Ctrl-C, a walk that ended). One listener each, removed by
 * dispose(), instead of AbortSignal.any per request: that showed in the
 * profile of a long export (~12 ms in 200 pages), and listen sends hundreds
 * of deliveries a second.
 */
export class Deadline {
  private readonly ctrl = new AbortController();
  private timer?: NodeJS.Timeout;
  private timedOut = false;
  private readonly stops: AbortSignal[];
  private readonly onStop = (e: Event) => this.ctrl.abort((e.target as AbortSignal).reason);

  constructor(
    private readonly ms: number,
    stops: (AbortSignal | undefined)[] = [],
  ) {
    this.stops = stops.filter((s): s is AbortSignal => s !== undefined);
    for (const s of this.stops) {
      if (s.aborted) this.ctrl.abort(s.reason);
      else s.addEventListener('abort', this.onStop, { once: true });
    }
    this.start();
  }

  /** Aborts at the deadline, or when one of the stops aborts. */
  get signal(): AbortSignal {
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
      this.ctrl.abort(new Error('deadline'));
    }, this.ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The request is over: no timer, no listeners left on the stops. */
  dispose(): void {
    this.stop();
    for (const s of this.stops) s.removeEventListener('abort', this.onStop);
  }
}
