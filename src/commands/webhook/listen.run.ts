import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import { writeRecord } from '../../output/writer.js';
import { isEventType } from '../../webhooks/events.js';
import { isLoopback } from '../../api/urls.js';
import { startReceiver, type ReceivedEvent } from '../../webhooks/listen.js';
import { deliveryLine, deliveryRecord, eventLine, eventRecord, fieldsLine, showEventType } from '../../webhooks/render.js';
import { openSpool, type DeliveryAttempt } from '../../webhooks/spool.js';
import { wrapMessage } from '../../text/wrap.js';
import { abandonAfterMs, FORWARD_CONNECTIONS } from '../../webhooks/forward.js';
import { keyStoreFor } from '../../webhooks/source.js';
import { listen } from './listen.js';

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
  const delivery = opts.forwardTo ? await ctx.delivery({ timeoutMs: abandonAfterMs(opts.forwardTimeoutMs), connections: FORWARD_CONNECTIONS }) : undefined;
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
  const printDelivery = (a: DeliveryAttempt) => {
    const record = deliveryRecord(a, new Date(ctx.clock.now()).toISOString());
    void write(record, () => deliveryLine(record, ctx.colors));
  };
  const spool = opts.spool !== undefined ? await openSpool(opts.spool, { forwardTo: opts.forwardTo, forwardTimeoutMs: opts.forwardTimeoutMs, forwardConcurrency: opts.forwardConcurrency, delivery, now: () => ctx.clock.now(), log: (m) => ctx.log.warn(m), debug: (m) => ctx.log.debug(m), onDelivery: printDelivery }) : undefined;
  if (spool) ctx.onCleanup(() => spool.close());
  const receiver = await startReceiver(
    { host: opts.host, port: opts.port, path: opts.path, forwardTo: opts.forwardTo, events: opts.events ? new Set(opts.events) : undefined, forwardTimeoutMs: opts.forwardTimeoutMs, delivery, spool, maxAgeMs: opts.maxAgeMs, now: () => ctx.clock.now() },
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
  const forward = (opts.forwardTo ? `, forwarding valid events to ${opts.forwardTo}` : '') + (spool ? `, spooling to ${spool.dir}` : '');
  ctx.io.stderr.write(`${wrapMessage(`Ready! Listening for webhooks on ${receiver.url} (keys from ${store.origin}${forward}). Press Ctrl-C to stop.`, ctx.io.stderrColumns)}\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await receiver.close();
  await spool?.close();
  await queue;
}
