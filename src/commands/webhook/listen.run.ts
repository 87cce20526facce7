import type { OptionsOf } from '../../command.js';
import type { listen } from './listen.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isLoopback } from '../../api/http.js';
import { parseInteger } from '../../options.js';
import { jsonText, sanitizeCell } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { isEventType, EVENT_TYPES } from '../../webhooks/events.js';
import { startReceiver, type ReceivedEvent } from '../../webhooks/listen.js';
import { verdictJson } from '../../webhooks/render.js';
import { keyStoreFor } from '../../webhooks/source.js';

export type ListenOptions = OptionsOf<typeof listen>;

function line(e: ReceivedEvent, ctx: Context): string {
  const c = ctx.colors;
  const v = e.verdict;
  const status = e.httpStatus === 200 ? c.green(String(e.httpStatus)) : c.red(String(e.httpStatus));
  let text: string;
  if (v.valid) {
    const cells = [v.eventType, v.subject, v.status].map((x) => sanitizeCell(x ?? '-'));
    text = `${e.time}  ${status}  ${cells.join('  ')}`;
    if (v.warnings.length > 0) text += c.yellow(`  (${v.warnings.length} warning${v.warnings.length > 1 ? 's' : ''}: ${sanitizeCell(v.warnings[0]!)})`);
  } else {
    text = `${e.time}  ${status}  INVALID ${v.reason}  ${sanitizeCell(v.message ?? '')}`;
  }
  if (e.forward) {
    text += e.forward.status !== undefined ? `  -> forwarded ${e.forward.status}` : c.red(`  -> forward failed: ${sanitizeCell(e.forward.error ?? '')}`);
  }
  return `${text}\n`;
}

export async function run(opts: ListenOptions, ctx: Context): Promise<void> {
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
  let queue = Promise.resolve();
  const receiver = await startReceiver(
    { host: opts.host, port: opts.port, path: opts.path, forwardTo: opts.forwardTo, events: opts.events ? new Set(opts.events) : undefined, timeoutMs: ctx.globals.timeout * 1000, now: () => ctx.clock.now() },
    store,
    (e) => {
      if (e.filtered) {
        ctx.log.debug(`ignored ${e.verdict.eventType} (not in --events)`);
        return;
      }
      // Print in arrival order, with backpressure.
      queue = queue.then(() =>
        writeChunk(ctx.io.stdout, opts.output === 'ndjson' ? `${jsonText({ time: e.time, httpStatus: e.httpStatus, ...verdictJson(e.verdict), forward: e.forward ?? null })}\n` : line(e, ctx)),
      );
      return queue;
    },
    (m) => ctx.log.warn(m),
  );
  ctx.onCleanup(() => receiver.close());
  const forward = opts.forwardTo ? `, forwarding valid events to ${opts.forwardTo}` : '';
  ctx.io.stderr.write(`Ready! Listening for webhooks on ${receiver.url} (keys from ${store.origin}${forward}). Press Ctrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await receiver.close();
  await queue;
}
