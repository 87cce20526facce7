import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isLoopback } from '../../api/http.js';
import { parseInteger } from '../../options.js';
import { jsonText, sanitizeCell } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { isEventType, EVENT_TYPES } from '../../webhooks/events.js';
import { parseDuration } from '../../webhooks/duration.js';
import { startReceiver, type ReceivedEvent } from '../../webhooks/listen.js';
import { showEventType, verdictJson } from '../../webhooks/render.js';
import { openSpool } from '../../webhooks/spool.js';
import { keyStoreFor, parseKeyFlags, type KeyFlags } from '../../webhooks/source.js';

export const LISTEN_FORMATS = ['table', 'ndjson'] as const;

export interface ListenOptions {
  keys: KeyFlags;
  host: string;
  port: number;
  path: string;
  forwardTo?: string;
  events?: string[];
  output: (typeof LISTEN_FORMATS)[number];
  /** Total deadline of one forward, ms. */
  forwardTimeoutMs: number;
  spool?: string;
  maxAgeMs?: number;
}

/** Well under the 10 s after which common senders give up and retry. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;

export function parse(_args: string[], raw: Record<string, unknown>): ListenOptions {
  const keys = parseKeyFlags(raw);
  const host = String(raw.host ?? '127.0.0.1').trim();
  if (host === '') throw new UsageError('--host must not be empty');
  const port = parseInteger('--port', raw.port, { min: 0, max: 65535 }) ?? 0;
  let path = String(raw.path ?? '/').trim();
  if (!path.startsWith('/')) path = `/${path}`;
  if (/[\s?#]/.test(path)) throw new UsageError(`--path must be a URL path like /webhooks, not "${path.slice(0, 40)}"`);
  let forwardTo: string | undefined;
  if (raw.forwardTo !== undefined) {
    try {
      const u = new URL(String(raw.forwardTo));
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      forwardTo = u.toString();
    } catch {
      throw new UsageError(`--forward-to must be an http(s) URL, not "${String(raw.forwardTo).slice(0, 80)}"`, 'For example --forward-to http://localhost:3000/webhooks');
    }
  }
  let events: string[] | undefined;
  if (raw.events !== undefined) {
    events = String(raw.events)
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter((s) => s !== '');
    if (events.length === 0) throw new UsageError('--events needs at least one event type', `Event types: ${EVENT_TYPES.join(', ')}`);
    for (const e of events) if (!/^[A-Z0-9_]+$/.test(e)) throw new UsageError(`--events: "${e.slice(0, 40)}" is not an event type name`, `Event types: ${EVENT_TYPES.join(', ')}`);
  }
  const output = (raw.output as string | undefined) ?? 'table';
  if (!(LISTEN_FORMATS as readonly string[]).includes(output)) throw new UsageError(`-o/--output must be table or ndjson for webhook listen, not "${output.slice(0, 20)}"`);
  const forwardTimeoutMs = parseDuration('--forward-timeout', raw.forwardTimeout, { minMs: 100, maxMs: 600_000 }) ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const maxAgeMs = parseDuration('--max-age', raw.maxAge, { minMs: 1000, maxMs: 365 * 86_400_000 });
  const spool = raw.spool === undefined ? undefined : String(raw.spool);
  if (spool !== undefined && spool.trim() === '') throw new UsageError('--spool must name a directory');
  return { keys, host, port, path, forwardTo, events, output: output as ListenOptions['output'], forwardTimeoutMs, spool, maxAgeMs };
}

function line(e: ReceivedEvent, ctx: Context): string {
  const c = ctx.colors;
  const v = e.verdict;
  const status = e.httpStatus === 200 ? c.green(String(e.httpStatus)) : c.red(String(e.httpStatus));
  let text: string;
  if (v.valid) {
    const cells = [showEventType(v.eventType), sanitizeCell(v.subject ?? '-'), sanitizeCell(v.status ?? '-')];
    text = `${e.time}  ${status}  ${cells.join('  ')}`;
    if (v.warnings.length > 0) text += c.yellow(`  (${v.warnings.length} warning${v.warnings.length > 1 ? 's' : ''}: ${sanitizeCell(v.warnings[0]!)})`);
  } else {
    text = `${e.time}  ${status}  INVALID ${v.reason}  ${sanitizeCell(v.message ?? '')}`;
  }
  if (e.forward?.duplicate) text += '  -> already delivered (duplicate not forwarded)';
  else if (e.forward) {
    text += e.forward.status !== undefined ? `  -> forwarded ${e.forward.status}` : c.red(`  -> forward failed: ${sanitizeCell(e.forward.error ?? '')}`);
  }
  if (e.spooled) text += e.spooled === 'stored' ? '  -> spooled' : '  -> already spooled (duplicate)';
  if (e.problem) text += c.red(`  (${sanitizeCell(e.problem)})`);
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
  const spool = opts.spool !== undefined ? await openSpool(opts.spool, { forwardTo: opts.forwardTo, forwardTimeoutMs: opts.forwardTimeoutMs, now: () => ctx.now(), log: (m) => ctx.log.warn(m), debug: (m) => ctx.log.debug(m) }) : undefined;
  if (spool) ctx.onCleanup(() => spool.close());
  let queue = Promise.resolve();
  // Each write is isolated: one failure (a closed pipe, a rendering error) is reported and the next event still prints.
  const print = (make: () => string) => {
    queue = queue
      .then(() => writeChunk(ctx.io.stdout, make()))
      .catch((err: unknown) => ctx.log.warn(`could not print an event: ${(err as Error).message}`));
    return queue;
  };
  const receiver = await startReceiver(
    { host: opts.host, port: opts.port, path: opts.path, forwardTo: opts.forwardTo, events: opts.events ? new Set(opts.events) : undefined, forwardTimeoutMs: opts.forwardTimeoutMs, spool, maxAgeMs: opts.maxAgeMs, now: () => ctx.now() },
    store,
    (e) => {
      if (e.filtered) {
        ctx.log.debug(`ignored ${showEventType(e.verdict.eventType)} (not in --events)`);
        return;
      }
      // Print in arrival order, with backpressure.
      return print(() =>
        opts.output === 'ndjson'
          ? `${jsonText({ time: e.time, httpStatus: e.httpStatus, ...verdictJson(e.verdict), forward: e.forward ?? null, ...(e.spooled ? { spooled: e.spooled } : {}), ...(e.problem ? { problem: e.problem } : {}) })}\n`
          : line(e, ctx),
      );
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
