// How many pages the walker keeps in flight: a window that listens to the server.

export interface AdaptiveConcurrencyOptions {
  /** The ceiling (--concurrency); also where it starts. */
  max: number;
  /** Where it starts, if lower than max. */
  initial?: number;
  now?: () => number;
  /** Told whenever the limit changes (debug log). */
  onChange?: (limit: number, why: 'congestion' | 'calm') => void;
}

/**
 * AIMD (additive increase, multiplicative decrease) for the page walker, as
 * TCP does for its window: the server's rate limits are unknown, so listen to
 * it. A 429 or 503 halves the limit (never below 1) and pauses new requests
 * for the server's Retry-After (or the retry's back-off); the congestion
 * signals of requests that were already in flight during that pause count
 * once. Each page that arrives while calm raises the limit by 1/limit, so
 * +1 per round trip of a full window, never above `max`.
 */
export class AdaptiveConcurrency {
  readonly max: number;
  private value: number;
  private pausedUntil = 0;
  private readonly now: () => number;
  private readonly onChange?: AdaptiveConcurrencyOptions['onChange'];

  constructor(opts: AdaptiveConcurrencyOptions) {
    this.max = Math.max(1, Math.floor(opts.max));
    this.value = Math.min(this.max, Math.max(1, opts.initial ?? this.max));
    this.now = opts.now ?? Date.now;
    this.onChange = opts.onChange;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.max(1, Math.floor(this.value));
  }

  /** Milliseconds until new requests may start (0: now). */
  get pauseMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** The server said 429 or 503: halve, and hold new requests back for waitMs. */
  congestion(waitMs: number): void {
    const now = this.now();
    if (now < this.pausedUntil) {
      // Same burst: requests sent before the decrease report it too; count it once.
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, waitMs));
      return;
    }
    this.pausedUntil = now + Math.max(0, waitMs);
    const before = this.limit;
    this.value = Math.max(1, Math.floor(this.value / 2));
    if (this.limit !== before || before === 1) this.onChange?.(this.limit, 'congestion');
  }

  /** A page arrived. While calm (not paused), add 1/limit: +1 per full window. */
  success(): void {
    if (this.now() < this.pausedUntil || this.value >= this.max) return;
    const before = this.limit;
    this.value = Math.min(this.max, this.value + 1 / this.limit);
    if (this.limit !== before) this.onChange?.(this.limit, 'calm');
  }
}
