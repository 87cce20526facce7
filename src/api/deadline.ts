// The total deadline of one HTTP attempt (the API client's --timeout).

/**
 * The --timeout of one attempt, as a total deadline: headers AND the whole
 * body within it (undici's own timeouts only bound the gap between bytes, so
 * a server sending a byte a second was never cut off). Paused while the retry
 * policy waits between attempts, restarted for the next attempt.
 */
export class Deadline {
  private readonly ctrl = new AbortController();
  private timer?: NodeJS.Timeout;

  constructor(private readonly ms: number) {
    this.start();
  }

  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  get expired(): boolean {
    return this.ctrl.signal.aborted;
  }

  start(): void {
    this.stop();
    this.timer = setTimeout(() => this.ctrl.abort(new Error('deadline')), this.ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
