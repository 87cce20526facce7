import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import { writeRecord } from '../../output/writer.js';
import { isEventType } from '../../webhooks/events.js';
import { isLoopback } from '../../api/urls.js';
import { startReceiver, type ReceivedEvent } from '../../webhooks/listen.js';
import { deliveryLine, deliveryRecord, eventLine, eventRecord, fieldsLine, showEventType } from '../../webhooks/render.js';
import { openSpool, type DeliveryAttempt } from '../../webhooks/spool.js';
import { wrapMessage } from '../../text/wrap.js';
import { countOf } from '../../text/count.js';
import { abandonAfterMs, FORWARD_CONNECTIONS } from '../../webhooks/forward.js';
import { keyStoreFor } from '../../webhooks/source.js';
import { connectionCap, descriptorLimit } from '../../webhooks/connection-guard.js';
import { NO_METRICS, type MetricsEndpoint, type ReceiverMetrics } from '../../webhooks/metrics.js';
import { cachedProbe, spoolProblem } from '../../webhooks/spool-health.js';
import { listen, MAX_DRAIN_MS } from './listen.js';
import type { InterruptedError } from '../../errors.js';
import { setTimeout as delay } from 'node:timers/promises';

export type ListenOptions = OptionsOf<typeof listen>;

export async function run(opts: ListenOptions, ctx: Context): Promise<void> {
  // Each event is one record, written as it happens through the output layer: a line for people at a
  // terminal, one JSON object per line when piped (JSON's streaming form: there is no end to close an array).
  const output = opts.out;
  // A filter that does not compile is a usage error now, not a warning at every event.
  if (!isLoopback(opts.host)) ctx.log.warn(`listening on ${opts.host}, not loopback: anyone who can reach this address can send to it`);
  if (opts.events) {
    const unknown = opts.events.filter((e) => !isEventType(e));
    if (unknown.length > 0) ctx.log.warn(`--events: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not in the spec's event catalogue`);
  }
  const store = await keyStoreFor(ctx, opts.keys);
  // Fetch the keys now, so a wrong base URL shows at start, not at the first event.
  try {
    const snap = await store.current();
    ctx.log.debug(`key set from ${snap.origin}: ${snap.keys.length} key(s)`);
  } catch (err) {
    if (ctx.signal.aborted) return;
    if (opts.keys.jwksFile !== undefined) throw err;
    ctx.log.warn(`${(err as Error).message}; will try again when a webhook arrives`);
  }
  // One delivery client for every forward: a pool sized for concurrent deliveries; its deadline is the
  // abandon time (a slow target has usually done the work), the sender is answered at --forward-timeout.
  // Ctrl-C stops forwards at once; SIGTERM lets those in flight finish (bounded below, then the spool and forwarder stop them).
  const forwardsStop = new AbortController();
  const onAbort = () => (ctx.signal.reason as InterruptedError | undefined)?.signal !== 'SIGTERM' && forwardsStop.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  const delivery = opts.forwardTo ? await ctx.delivery({ timeoutMs: abandonAfterMs(opts.forwardTimeoutMs), connections: FORWARD_CONNECTIONS, signal: forwardsStop.signal }) : undefined;
  let queue = Promise.resolve();
  // Each write is isolated: one failure (a closed pipe, a rendering error, a --jq error) is reported and the next record still prints.
  const write = (record: Record<string, unknown>, line: () => string) => {
    queue = queue
      .then(() => writeRecord(ctx.io, ctx.io.stdout, record, output, { unknownFields: 'ignore', tableFields: true, table: () => (output.fields ? fieldsLine(record, output.fields) : wrapMessage(line(), ctx.io.columns)) }))
      .catch((err: unknown) => ctx.log.warn(`could not print an event: ${(err as Error).message}`));
    return queue;
  };
  const print = (e: ReceivedEvent) => {
    const record = eventRecord(e);
    return write(record, () => eventLine(e, ctx.colors));
  };
  // With --spool the sender's answer is only the start: each delivery attempt of the workers prints too.
  // Set once the spool and the receiver exist (the gauges read them at each scrape).
  let gaugesOf: { spool?: Awaited<ReturnType<typeof openSpool>>; open: () => number; held: () => number } = { open: () => 0, held: () => 0 };
  // prom-client is loaded only with --metrics.
  const metrics: ReceiverMetrics | MetricsEndpoint = opts.metrics
    ? (await import('../../webhooks/metrics-prometheus.js')).prometheusMetrics({
        backlog: () => gaugesOf.spool?.backlog ?? 0,
        oldestUndeliveredAgeSeconds: () => (gaugesOf.spool?.oldestWaitingMs() ?? 0) / 1000,
        parked: () => gaugesOf.spool?.parked ?? 0,
        keySetRefetches: () => store.refetches,
        openConnections: () => gaugesOf.open(),
        heldBodyBytes: () => gaugesOf.held(),
      })
    : NO_METRICS;
  const printDelivery = (a: DeliveryAttempt) => {
    metrics.delivery(a);
    const record = deliveryRecord(a, new Date(ctx.clock.now()).toISOString());
    void write(record, () => deliveryLine(record, ctx.colors));
  };
  const spool = opts.spool !== undefined ? await openSpool(opts.spool, { forwardTo: opts.forwardTo, forwardTimeoutMs: opts.forwardTimeoutMs, forwardConcurrency: opts.forwardConcurrency, delivery, now: () => ctx.clock.now(), log: (m) => ctx.log.warn(m), debug: (m) => ctx.log.debug(m), onDelivery: printDelivery, maxAttempts: opts.maxAttempts }) : undefined;
  gaugesOf.spool = spool;
  const probe = spool ? cachedProbe(() => spoolProblem({ dir: spool.dir, journalPath: spool.journalState.path, journalIno: spool.journalState.ino, failed: spool.journalState.failed })) : undefined;
  // Under the open-files limit, with room for the journal, forwards and the key set: a flood of connections
  // must never make the receiver fail to accept (EMFILE closes whatever is waiting, genuine senders too).
  const maxConnections = connectionCap(opts.maxConnections, descriptorLimit());
  if (maxConnections < opts.maxConnections) ctx.log.debug(`at most ${maxConnections} connections (the open-files limit)`);
  if (spool) ctx.onCleanup(() => spool.close());
  const receiver = await startReceiver(
    { host: opts.host, port: opts.port, path: opts.path, forwardTo: opts.forwardTo, events: opts.events ? new Set(opts.events) : undefined, forwardTimeoutMs: opts.forwardTimeoutMs, delivery, spool, maxAgeMs: opts.maxAgeMs, now: () => ctx.clock.now(), readTimeoutMs: opts.readTimeoutMs, maxConnections, maxHeldBytes: opts.maxHeldBytes, metrics, spoolProblem: probe },
    store,
    (e) => {
      if (e.filtered) {
        ctx.log.debug(`ignored ${showEventType(e.verdict.eventType)} (not in --events)`);
        return;
      }
      // Print in arrival order, with backpressure.
      return print(e);
    },
    (m) => ctx.log.warn(m),
  );
  ctx.onCleanup(() => receiver.close());
  gaugesOf = { spool, open: () => receiver.guard.open, held: () => receiver.guard.heldBytes };
  const forward = (opts.forwardTo ? `, forwarding valid events to ${opts.forwardTo}` : '') + (spool ? `, spooling to ${spool.dir}` : '');
  ctx.io.stderr.write(`${wrapMessage(`Ready! Listening for webhooks on ${receiver.url} (keys from ${store.origin}${forward}). Press Ctrl-C to stop.`, ctx.io.stderrColumns)}\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // SIGTERM (a service manager): stop taking connections, let what is in flight finish within the bound.
  if ((ctx.signal.reason as InterruptedError | undefined)?.signal === 'SIGTERM') {
    const until = ctx.clock.now() + Math.min(opts.forwardTimeoutMs, MAX_DRAIN_MS);
    receiver.stopAccepting();
    while (receiver.guard.active > 0 && ctx.clock.now() < until) await delay(20);
    await spool?.close(Math.max(0, until - ctx.clock.now()));
    ctx.log.info(`Stopped (SIGTERM)${spool && spool.backlog > 0 ? `: ${countOf(spool.backlog, 'undelivered event')} kept in ${spool.dir}, forwarded at the next start` : ''}.`);
  }
  await receiver.close();
  await spool?.close();
  await queue;
}
