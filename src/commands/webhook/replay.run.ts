import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { replayCommand } from './replay.js';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeCell } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { parseSince } from '../../webhooks/duration.js';
import { showEventType } from '../../webhooks/render.js';
import { replay, selectEvents } from '../../webhooks/replay.js';

export type ReplayOptions = OptionsOf<typeof replayCommand>;

export async function run(opts: ReplayOptions, ctx: Context): Promise<number> {
  // --since is a point in time, or a duration back from now (the context's clock).
  const since = parseSince('--since', opts.since, ctx.clock.now());
  const filter = { since, eventTypes: opts.eventTypes ? new Set(opts.eventTypes) : undefined, to: opts.to };
  const events = await selectEvents(opts.spool, filter);
  if (events.length === 0) {
    ctx.io.stderr.write(`No stored event in ${opts.spool} matches; nothing replayed.\n`);
    return ExitCode.OK;
  }
  // One event at a time: one connection; each delivery within --timeout.
  const client = await ctx.http({ target: 'delivery', connections: 1 });
  const { sent, failed } = await replay(
    events,
    filter,
    client,
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
