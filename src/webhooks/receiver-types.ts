// The receiver's shapes (`webhook listen`), apart from its routes so that the
// spool, the routes and the command share them without importing each other.
import type { DeliveryClient } from '../api/delivery.js';
import type { ForwardResult } from './forward.js';
import type { MetricsEndpoint, ReceiverMetrics } from './metrics.js';
import type { TargetHealth } from './target-health.js';
import type { Verdict } from './verify.js';

/** A verified event to keep. */
export interface StoredEvent {
  digest: string;
  jws: string;
  verdict: Verdict;
  receivedAt: string;
  /** The payload as stringifyExact writes it (what the digest is of), when the receiver has it already. */
  payloadJson?: string;
  /** The payload's text as signed (what the target receives), when the receiver has it already. */
  payloadText?: string;
}

/** Where verified events are kept durably before they are acknowledged (the spool). */
export interface EventStore {
  /** Resolves once the event is on disk: 'stored', or 'duplicate' when its digest is already kept. Rejects when it cannot be kept. */
  accept(e: StoredEvent): Promise<'stored' | 'duplicate'>;
}

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Only POSTs to this path are webhooks; others get 404. */
  path: string;
  forwardTo?: string;
  /** Only these event types are reported and forwarded (others still get 200). */
  events?: ReadonlySet<string>;
  /** Total deadline of one forward, ms. */
  forwardTimeoutMs: number;
  /** The client forwards go through (the context's delivery client, deadline abandonAfterMs); without it the forwarder makes its own. */
  delivery?: DeliveryClient;
  /** Durable store: when set, an event is acknowledged once stored, and delivered from there. */
  spool?: EventStore;
  /** Refuse events whose timestamp is older than this (replay protection); off when undefined. */
  maxAgeMs?: number;
  now?: () => number;
  /** A sender has this long for its headers, and as long again for its body (408 when over). */
  readTimeoutMs: number;
  /** Sender connections open at once (connection-guard.ts: idle and slow ones make room first). */
  maxConnections: number;
  /** Bytes of request bodies held at once (503 with Retry-After past it). */
  maxHeldBytes: number;
  /** Counted events and, with --metrics, `GET /metrics`. */
  metrics?: ReceiverMetrics | MetricsEndpoint;
  /** Why the spool cannot take an event now (spool-health.ts), for `GET /healthz`. */
  spoolProblem?: () => Promise<string | undefined>;
  /** Whether the forward target answers: the forwards tell it, /healthz reads it. */
  target?: TargetHealth;
  /** Serve /healthz and /metrics here instead of on the webhook port (--metrics-listen). */
  statusOn?: { host: string; port: number };
}

export interface ReceivedEvent {
  /** When it arrived, ISO 8601. */
  time: string;
  /** What the receiver answered. */
  httpStatus: number;
  verdict: Verdict;
  forward?: ForwardResult;
  /** Valid but not in --events: acknowledged, not reported further. */
  filtered: boolean;
  /** Stored in the spool ('duplicate': a copy was already there). */
  spooled?: 'stored' | 'duplicate';
  /** Why a valid event was answered 503 or 400 (not kept, or too old). */
  problem?: string;
}

/** Whether the receiver still takes requests; shared by its routes and its shutdown. */
export interface ReceiverState {
  accepting: boolean;
  closed: boolean;
}

/** Seconds a sender is asked to wait before retrying an event that was not kept. */
export const RETRY_AFTER_S = 5;
