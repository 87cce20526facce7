import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeCell } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { parseSince } from '../../webhooks/duration.js';
import { showEventType } from '../../webhooks/render.js';
import { replay, selectEvents } from '../../webhooks/replay.js';

export interface ReplayOptions {
  spool: string;
  since?: number;
  eventTypes?: string[];
  to?: string;
}

export function parse(_args: string[], raw: Record<string, unknown>): ReplayOptions {
  if (raw.spool === undefined || String(raw.spool).trim() === '') throw new UsageError('--spool DIR is required', 'Pass the directory given to `partner webhook listen --spool`.');
  const since = parseSince('--since', raw.since, Date.now());
  let eventTypes: string[] | undefined;
  if (raw.eventType !== undefined) {
    eventTypes = String(raw.eventType)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (eventTypes.length === 0) throw new UsageError('--event-type needs at least one event type');
  }
  let to: string | undefined;
  if (raw.to !== undefined) {
    try {
      const u = new URL(String(raw.to));
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      to = u.toString();
    } catch {
      throw new UsageError(`--to must be an http(s) URL, not "${String(raw.to).slice(0, 80)}"`, 'For example --to http://localhost:3000/webhooks');
    }
  }
  return { spool: String(raw.spool), since, eventTypes, to };
}

export async function run(opts: ReplayOptions, ctx: Context): Promise<number> {
  const filter = { since: opts.since, eventTypes: opts.eventTypes ? new Set(opts.eventTypes) : undefined, to: opts.to };
  const events = await selectEvents(opts.spool, filter);
  if (events.length === 0) {
    ctx.io.stderr.write(`No stored event in ${opts.spool} matches; nothing replayed.\n`);
    return ExitCode.OK;
  }
  const { sent, failed } = await replay(
    events,
    filter,
    ctx.globals.timeout * 1000,
    (o) =>
      writeChunk(
        ctx.io.stdout,
        `${o.event.receivedAt}  ${showEventType(o.event.eventType)}  ${o.event.id}  -> ${o.result.status !== undefined ? `HTTP ${o.result.status}` : `failed: ${sanitizeCell(o.result.error ?? '')}`}${o.ok ? '' : ctx.colors.red('  (not delivered)')}\n`,
      ),
    ctx.signal,
  );
  ctx.io.stderr.write(`${sent + failed} event${sent + failed === 1 ? '' : 's'} replayed: ${sent} delivered, ${failed} not delivered\n`);
  return failed > 0 ? ExitCode.FAILURE : ExitCode.OK;
}
