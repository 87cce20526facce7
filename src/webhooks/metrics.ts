// What `webhook listen` counts, as the receiver and the spool see it. The
// receiver reports to this interface; without --metrics it is the no-op
// below, so nothing is counted and prom-client is never loaded (with
// --metrics: metrics-prometheus.ts, imported only then).
import type { DeliveryAttempt } from './spool.js';

/** Why a POST was not acknowledged: a verdict reason (reasons.ts), or one of the receiver's own. */
export type RefusalReason = string;

export interface ReceiverMetrics {
  /** A POST arrived on the webhook path. */
  received(): void;
  /** Its signature and payload checked out. */
  verified(): void;
  refused(reason: RefusalReason): void;
  /** A connection closed to make room ('idle', 'slow') or turned away at the cap ('refused'). */
  connection(outcome: 'idle' | 'slow' | 'refused'): void;
  /** One delivery attempt of the spool, or one direct forward: its status, retry and parking. */
  delivery(a: Pick<DeliveryAttempt, 'result' | 'retryInMs' | 'parked'>): void;
  /** A POST on the webhook path was answered, after `seconds`. */
  answered(status: number, seconds: number): void;
}

/** Counts nothing. */
export const NO_METRICS: ReceiverMetrics = {
  received: () => undefined,
  verified: () => undefined,
  refused: () => undefined,
  connection: () => undefined,
  delivery: () => undefined,
  answered: () => undefined,
};

/** What the scrape reads at the moment it asks (no counting on the hot path). */
export interface ReceiverGauges {
  /** Undelivered events waiting or in flight (parked ones not included). */
  backlog(): number;
  /** Age of the oldest of them, seconds (0 when none). */
  oldestUndeliveredAgeSeconds(): number;
  parked(): number;
  /** Key-set fetches caused by an unknown kid (a rotation, or made-up kids). */
  keySetRefetches(): number;
  /** When the forward target became unreachable, seconds since the epoch (0 while it answers). */
  targetUnreachableSince(): number;
  openConnections(): number;
  heldBodyBytes(): number;
}

export interface MetricsEndpoint extends ReceiverMetrics {
  contentType: string;
  text(): Promise<string>;
}
