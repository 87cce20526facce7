import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import { writeRecord } from '../../output/writer.js';
import { isEventType } from '../../webhooks/events.js';
import { isLoopback } from '../../api/urls.js';
import { startReceiver, type ReceivedEvent } from '../../webhooks/listen.js';
import { eventLine, eventRecord, fieldsLine, showEventType } from '../../webhooks/render.js';
import { openSpool } from '../../webhooks/spool.js';
import { abandonAfterMs, FORWARD_CONNECTIONS } from '../../webhooks/forward.js';
import { keyStoreFor } from '../../webhooks/source.js';
import { listen } from './listen.js';
import { outputOptions } from '../../output/options.js';

export type ListenOptions = OptionsOf<typeof listen>;

export async function run(opts: ListenOptions, ctx: Context): Promise<void> {
  // Each event is one record, written as it happens through the output layer: a line for people at a
  // terminal, one JSON object per line when piped (JSON's streaming form: there is no end to close an array).
  const output = outputOptions(opts, ctx.io, listen.output?.piped);
  // A filter that does not compile is a usage error now, not a warning at every event.
  if (opts.jq !== undefined) await (await import('../../output/jq.js')).checkJqFilter(opts.jq);
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
  const spool = opts.spool !== undefined ? await openSpool(opts.spool, { forwardTo: opts.forwardTo, forwardTimeoutMs: opts.forwardTimeoutMs, delivery, now: () => ctx.clock.now(), log: (m) => ctx.log.warn(m), debug: (m) => ctx.log.debug(m) }) : undefined;
  if (spool) ctx.onCleanup(() => spool.close());
  let queue = Promise.resolve();
  // Each write is isolated: one failure (a closed pipe, a rendering error, a --jq error) is reported and the next event still prints.
  const print = (e: ReceivedEvent) => {
    queue = queue
      .then(() => {
        const record = eventRecord(e);
        return writeRecord(ctx.io, ctx.io.stdout, record, output, { warnUnknownFields: false, tableFields: true, table: () => (output.fields ? fieldsLine(record, output.fields) : eventLine(e, ctx.colors)) });
      })
      .catch((err: unknown) => ctx.log.warn(`could not print an event: ${(err as Error).message}`));
    return queue;
  };
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
  ctx.io.stderr.write(`Ready! Listening for webhooks on ${receiver.url} (keys from ${store.origin}${forward}). Press Ctrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await receiver.close();
  await spool?.close();
  await queue;
}
