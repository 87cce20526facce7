// Whether the forward target can be reached, as the forwards find it: a
// target that does not answer (connection refused or reset, no answer in
// time) or answers that it is down or busy (502, 503, 504, 408, 429, and a
// 5xx the operator did not name in --park-on) is *unreachable*: its events
// wait and are retried, never parked. Any other answer means it is up. The
// state changes are told once each (the listener's line), never per attempt;
// /healthz and /metrics read it.
import type { ForwardResult } from './forward.js';

/** Answers that say the target is down or busy, not that it refuses the event. */
const WAIT_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);
/** 5xx statuses --park-on may not name: they are always an outage. */
export const ALWAYS_WAIT_5XX: readonly number[] = [502, 503, 504];

/** What a failed forward means: parked at once (the target said abort), a refusal of the event (counts towards --max-attempts), or an outage (waits). */
export type FailureKind = 'abort' | 'refusal' | 'outage';

/**
 * A failed forward's kind. `parkOn`: the 5xx statuses the operator counts as
 * refusals (--park-on); other 5xx wait like an outage.
 */
export function failureKind(r: ForwardResult, parkOn: ReadonlySet<number> = new Set()): FailureKind {
  if (r.abort) return 'abort';
  const s = r.status;
  if (s === undefined || WAIT_STATUSES.has(s)) return 'outage';
  if (s >= 400 && s < 500) return 'refusal';
  return parkOn.has(s) ? 'refusal' : 'outage';
}

/** Why an outage attempt failed, in a few words (HTTP 503, ECONNREFUSED, …). */
export function outageReason(r: ForwardResult): string {
  return r.status !== undefined ? `HTTP ${r.status}` : (r.error ?? 'no answer');
}

export type TargetChange = { reachable: false; since: number; reason: string } | { reachable: true; downForMs: number };

export class TargetHealth {
  private down?: { since: number; reason: string; lastTry: number };

  constructor(
    private readonly now: () => number = Date.now,
    private readonly onChange: (c: TargetChange) => void = () => undefined,
  ) {}

  /** A forward found the target unreachable (told once, when it becomes so). */
  unreachable(reason: string): void {
    const t = this.now();
    if (this.down) {
      this.down.reason = reason;
      this.down.lastTry = t;
      return;
    }
    this.down = { since: t, reason, lastTry: t };
    this.onChange({ reachable: false, since: t, reason });
  }

  /** The target answered (2xx or a refusal): it is up (told once, when it comes back). */
  reachable(): void {
    if (!this.down) return;
    const downForMs = this.now() - this.down.since;
    this.down = undefined;
    this.onChange({ reachable: true, downForMs });
  }

  /** Since when (ms) and why the target cannot be reached; undefined while it can. */
  get problem(): { since: number; reason: string; lastTry: number } | undefined {
    return this.down && { ...this.down };
  }

  /** The health check's sentence about it, or undefined while it answers. */
  describe(kept: 'spool' | 'refused'): string | undefined {
    const d = this.down;
    if (!d) return undefined;
    const since = new Date(d.since).toISOString();
    const what = kept === 'spool' ? 'events are kept in the spool and forwarded once it answers' : 'events are answered 503 until it answers';
    return `the target cannot be reached since ${since} (${d.reason}, last tried ${new Date(d.lastTry).toISOString()}): ${what}`;
  }
}
