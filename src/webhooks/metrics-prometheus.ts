// The receiver's metrics in Prometheus text (`webhook listen --metrics`,
// `GET /metrics`), through prom-client: the format's escaping, histogram
// buckets and content type are its job, not hand-written here. Imported only
// with --metrics. Its own registry (not the global one), and no default
// process metrics beyond what is asked: each series has a bounded label set
// (reasons are the receiver's codes, statuses are HTTP codes).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsEndpoint, ReceiverGauges } from './metrics.js';

const P = 'partner_webhook_';

export function prometheusMetrics(gauges: ReceiverGauges): MetricsEndpoint {
  const registers = [new Registry()];
  const received = new Counter({ name: `${P}events_received_total`, help: 'POSTs received on the webhook path', registers });
  const verified = new Counter({ name: `${P}events_verified_total`, help: 'Events whose signature and payload checked out', registers });
  const refused = new Counter({ name: `${P}events_refused_total`, help: 'POSTs not acknowledged with 2xx, by reason', labelNames: ['reason'], registers });
  const forwarded = new Counter({ name: `${P}forwards_total`, help: 'Forwards to the target, by its HTTP status ("error": no status)', labelNames: ['status'], registers });
  const retries = new Counter({ name: `${P}forward_retries_total`, help: 'Failed forwards that will be tried again', registers });
  const parkedTotal = new Counter({ name: `${P}events_parked_total`, help: 'Events parked (dead letters) since start', registers });
  const connections = new Counter({ name: `${P}connections_closed_total`, help: 'Connections closed to make room (idle, slow) or refused at the cap', labelNames: ['outcome'], registers });
  const duration = new Histogram({ name: `${P}request_duration_seconds`, help: 'Time to answer a POST on the webhook path, by HTTP status', labelNames: ['status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name: `${P}${name}`,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge('backlog', 'Undelivered events in the spool, waiting or in flight (parked ones not included)', gauges.backlog);
  gauge('oldest_undelivered_age_seconds', 'Age of the oldest undelivered event in the spool (0 when none)', gauges.oldestUndeliveredAgeSeconds);
  gauge('parked_events', 'Events parked in the spool (dead letters): `webhook replay --failed` sends them again', gauges.parked);
  // Counted by the key store; a counter the scrape reads, so rate() and resets work as for the others.
  new Counter({
    name: `${P}keyset_refetches_total`,
    help: 'Key-set fetches caused by an unknown kid since start',
    registers,
    collect() {
      this.reset();
      this.inc(gauges.keySetRefetches());
    },
  });
  gauge('target_up', 'Whether the forward target answers (0 while it cannot be reached: events wait, none is parked for it)', () => (gauges.targetUnreachableSince() > 0 ? 0 : 1));
  gauge('target_unreachable_since_seconds', 'When the forward target became unreachable, Unix time (0 while it answers)', gauges.targetUnreachableSince);
  gauge('open_connections', 'Sender connections open', gauges.openConnections);
  gauge('held_body_bytes', 'Bytes of request bodies held in memory', gauges.heldBodyBytes);
  return {
    contentType: registers[0]!.contentType,
    text: () => registers[0]!.metrics(),
    received: () => received.inc(),
    verified: () => verified.inc(),
    refused: (reason) => refused.inc({ reason }),
    connection: (outcome) => connections.inc({ outcome }),
    delivery: (a) => {
      forwarded.inc({ status: a.result.status !== undefined ? String(a.result.status) : 'error' });
      if (a.parked) parkedTotal.inc();
      else if (a.retryInMs !== undefined) retries.inc();
    },
    answered: (status, seconds) => duration.observe({ status: String(status) }, seconds),
  };
}
