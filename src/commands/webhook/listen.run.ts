import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { DeliveryClient } from '../../api/delivery.js';
import { writeRecord } from '../../output/writer.js';
import { isEventType } from '../../webhooks/events.js';
import { isLoopback } from '../../api/urls.js';
import { startReceiver, type ReceivedEvent, type Receiver } from '../../webhooks/listen.js';
import { deliveryLine, deliveryRecord, eventLine, eventRecord, fieldsLine, showEventType, targetLine, targetRecord } from '../../webhooks/render.js';
import { TargetHealth, type TargetChange } from '../../webhooks/target-health.js';
import { openSpool, type DeliveryAttempt, type Spool, type SpoolOptions } from '../../webhooks/spool.js';
import { verifyStored } from '../../webhooks/stored-verify.js';
import { wrapMessage } from '../../text/wrap.js';
import { countOf } from '../../text/count.js';
import { abandonAfterMs, FORWARD_CONNECTIONS } from '../../webhooks/forward.js';
import { keyStoreFor } from '../../webhooks/source.js';
import type { KeyStore } from '../../webhooks/jwks.js';
import { connectionCap, descriptorLimit } from '../../webhooks/connection-guard.js';
import { NO_METRICS, type MetricsEndpoint, type ReceiverMetrics } from '../../webhooks/metrics.js';
import { cachedProbe, spoolProblem } from '../../webhooks/spool-health.js';
import { listen, MAX_DRAIN_MS } from './listen.js';
import type { InterruptedError } from '../../errors.js';
import { setTimeout as delay } from 'node:timers/promises';

export type ListenOptions = OptionsOf<typeof listen>;

/** What the gauges read at each scrape; set once the spool and the receiver exist. */
interface GaugeSources {
  spool?: Spool;
  target?: TargetHealth;
  receiver?: Receiver;
}

export async function run(opts: ListenOptions, ctx: Context): Promise<void> {
  warnAboutFlags(opts, ctx);
  const store = await openKeyStore(opts, ctx);
  if (!store) return;
  const delivery = await forwardClient(opts, ctx);
  const printer = eventPrinter(opts, ctx);
  // Said once when the target stops answering and once when it is back (not per attempt).
  const target = opts.forwardTo ? new TargetHealth(() => ctx.clock.now(), (c) => printer.target(c, opts.forwardTo!, opts.spool !== undefined)) : undefined;
  const gauges: GaugeSources = { target };
  const metrics = await receiverMetrics(opts, store, gauges);
  const spool = await openListenSpool(opts, ctx, { delivery, target, verify: (e) => verifyStored(e, store) }, (a) => {
    metrics.delivery(a);
    if (!a.waiting) printer.delivery(a);
  });
  gauges.spool = spool;
  const receiver = await startReceiver({ ...receiverOptions(opts, ctx, delivery, spool, metrics), target }, store, (e) => printer.event(e), (m) => ctx.log.warn(m));
  ctx.onCleanup(() => receiver.close());
  gauges.receiver = receiver;
  const forward = (opts.forwardTo ? `, forwarding valid events to ${opts.forwardTo}` : '') + (spool ? `, spooling to ${spool.dir}` : '') + (receiver.statusUrl ? `, /healthz and /metrics on ${receiver.statusUrl}` : '');
  ctx.log.info(`Ready! Listening for webhooks on ${receiver.url} (keys from ${store.origin}${forward}). Press Ctrl-C to stop.`);
  await stopRequested(ctx);
  await windDown(opts, ctx, receiver, spool);
  await printer.drained();
}

function warnAboutFlags(opts: ListenOptions, ctx: Context): void {
  if (!isLoopback(opts.host)) ctx.log.warn(`listening on ${opts.host}, not loopback: anyone who can reach this address can send to it${opts.metricsListen ? '' : ', and read /healthz (and /metrics with --metrics); --metrics-listen 127.0.0.1:PORT serves those apart'}`);
  if (opts.metricsListen && !isLoopback(opts.metricsListen.host)) ctx.log.warn(`--metrics-listen on ${opts.metricsListen.host}, not loopback: anyone who can reach this address can read /healthz and /metrics`);
  if (opts.events) {
    const unknown = opts.events.filter((e) => !isEventType(e));
    if (unknown.length > 0) ctx.log.warn(`--events: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not in the spec's event catalogue`);
  }
}

/** The key set, fetched now so a wrong base URL shows at start, not at the first event. Undefined when stopped meanwhile. */
async function openKeyStore(opts: ListenOptions, ctx: Context): Promise<KeyStore | undefined> {
  const store = await keyStoreFor(ctx, opts.keys);
  try {
    const snap = await store.current();
    ctx.log.debug(`key set from ${snap.origin}: ${snap.keys.length} key(s)`);
  } catch (err) {
    if (ctx.signal.aborted) return undefined;
    if (opts.keys.jwksFile !== undefined) throw err;
    ctx.log.warn(`${(err as Error).message}; will try again when a webhook arrives`);
  }
  return store;
}

/**
 * One delivery client for every forward: a pool sized for concurrent
 * deliveries; its deadline is the abandon time (a slow target has usually
 * done the work), the sender is answered at --forward-timeout. Ctrl-C stops
 * forwards at once; SIGTERM lets those in flight finish (bounded in
 * windDown, then the spool and forwarder stop them).
 */
async function forwardClient(opts: ListenOptions, ctx: Context): Promise<DeliveryClient | undefined> {
  if (!opts.forwardTo) return undefined;
  const forwardsStop = new AbortController();
  const onAbort = () => (ctx.signal.reason as InterruptedError | undefined)?.signal !== 'SIGTERM' && forwardsStop.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  return ctx.delivery({ timeoutMs: abandonAfterMs(opts.forwardTimeoutMs), connections: FORWARD_CONNECTIONS, signal: forwardsStop.signal });
}

/**
 * Each event is one record, written as it happens through the output layer:
 * a line for people at a terminal, one JSON object per line when piped
 * (JSON's streaming form: there is no end to close an array). Written in
 * arrival order, with backpressure; each write is isolated: one failure (a
 * closed pipe, a rendering error, a --jq error) is reported and the next
 * record still prints.
 */
function eventPrinter(opts: ListenOptions, ctx: Context) {
  const output = opts.out;
  let queue = Promise.resolve();
  const write = (record: Record<string, unknown>, line: () => string) => {
    queue = queue
      .then(() => writeRecord(ctx.io, ctx.io.stdout, record, output, { unknownFields: 'ignore', tableFields: true, table: () => (output.fields ? fieldsLine(record, output.fields) : wrapMessage(line(), ctx.io.columns)) }))
      .catch((err: unknown) => ctx.log.warn(`could not print an event: ${(err as Error).message}`));
    return queue;
  };
  return {
    event(e: ReceivedEvent): Promise<void> | undefined {
      if (e.filtered) {
        ctx.log.debug(`ignored ${showEventType(e.verdict.eventType)} (not in --events)`);
        return undefined;
      }
      return write(eventRecord(e), () => eventLine(e, ctx.colors));
    },
    /** With --spool the sender's answer is only the start: each delivery attempt of the workers prints too. */
    delivery(a: DeliveryAttempt): void {
      const record = deliveryRecord(a, new Date(ctx.clock.now()).toISOString());
      void write(record, () => deliveryLine(record, ctx.colors));
    },
    /** The target's state changed (once each way). */
    target(c: TargetChange, url: string, spooled: boolean): void {
      const record = targetRecord(c, url, new Date(ctx.clock.now()).toISOString());
      void write(record, () => targetLine(record, spooled, ctx.colors));
    },
    drained: () => queue,
  };
}

/** Counting for --metrics (prom-client is loaded only then); the gauges read the spool and the receiver at each scrape. */
async function receiverMetrics(opts: ListenOptions, store: KeyStore, g: GaugeSources): Promise<ReceiverMetrics | MetricsEndpoint> {
  if (!opts.metrics) return NO_METRICS;
  return (await import('../../webhooks/metrics-prometheus.js')).prometheusMetrics({
    backlog: () => g.spool?.backlog ?? 0,
    oldestUndeliveredAgeSeconds: () => (g.spool?.oldestWaitingMs() ?? 0) / 1000,
    parked: () => g.spool?.parked ?? 0,
    keySetRefetches: () => store.refetches,
    targetUnreachableSince: () => (g.target?.problem?.since ?? 0) / 1000,
    openConnections: () => g.receiver?.guard.open ?? 0,
    heldBodyBytes: () => g.receiver?.guard.heldBytes ?? 0,
  });
}

/** The spool, with what it shares with the receiver: the delivery client, the target's health, the check of events read back. */
async function openListenSpool(opts: ListenOptions, ctx: Context, shared: Pick<SpoolOptions, 'delivery' | 'target' | 'verify'>, onDelivery: (a: DeliveryAttempt) => void): Promise<Spool | undefined> {
  if (opts.spool === undefined) return undefined;
  const spool = await openSpool(opts.spool, { ...shared, forwardTo: opts.forwardTo, forwardTimeoutMs: opts.forwardTimeoutMs, forwardConcurrency: opts.forwardConcurrency, now: () => ctx.clock.now(), log: (m) => ctx.log.warn(m), debug: (m) => ctx.log.debug(m), onDelivery, maxAttempts: opts.maxAttempts, parkOn: opts.parkOn });
  ctx.onCleanup(() => spool.close());
  return spool;
}

function receiverOptions(opts: ListenOptions, ctx: Context, delivery: DeliveryClient | undefined, spool: Spool | undefined, metrics: ReceiverMetrics | MetricsEndpoint) {
  const probe = spool ? cachedProbe(() => spoolProblem({ dir: spool.dir, journalPath: spool.journalState.path, journalIno: spool.journalState.ino, failed: spool.journalState.failed })) : undefined;
  // Under the open-files limit, with room for the journal, forwards and the key set: a flood of connections
  // must never make the receiver fail to accept (EMFILE closes whatever is waiting, genuine senders too).
  const maxConnections = connectionCap(opts.maxConnections, descriptorLimit());
  if (maxConnections < opts.maxConnections) ctx.log.debug(`at most ${maxConnections} connections (the open-files limit)`);
  return { host: opts.host, port: opts.port, path: opts.path, forwardTo: opts.forwardTo, events: opts.events ? new Set(opts.events) : undefined, forwardTimeoutMs: opts.forwardTimeoutMs, delivery, spool, maxAgeMs: opts.maxAgeMs, now: () => ctx.clock.now(), readTimeoutMs: opts.readTimeoutMs, maxConnections, maxHeldBytes: opts.maxHeldBytes, metrics, spoolProblem: probe, statusOn: opts.metricsListen };
}

function stopRequested(ctx: Context): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * SIGTERM (a service manager): stop taking connections, let what is in flight
 * finish within the bound. Ctrl-C: at once. Either way one line says it stopped.
 */
async function windDown(opts: ListenOptions, ctx: Context, receiver: Receiver, spool: Spool | undefined): Promise<void> {
  const term = (ctx.signal.reason as InterruptedError | undefined)?.signal === 'SIGTERM';
  if (term) {
    const until = ctx.clock.now() + Math.min(opts.forwardTimeoutMs, MAX_DRAIN_MS);
    receiver.stopAccepting();
    while (receiver.guard.active > 0 && ctx.clock.now() < until) await delay(20);
    await spool?.close(Math.max(0, until - ctx.clock.now()));
  }
  await receiver.close();
  await spool?.close();
  const kept = spool && spool.backlog > 0 ? `: ${countOf(spool.backlog, 'undelivered event')} kept in ${spool.dir}, forwarded at the next start` : '';
  ctx.log.info(`Stopped (${term ? 'SIGTERM' : 'Ctrl-C'})${kept}.`);
}
