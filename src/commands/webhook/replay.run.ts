import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { replayCommand } from './replay.js';
import { ExitCode } from '../../errors.js';
import { writeList } from '../../output/writer.js';
import { parseSince } from '../../webhooks/duration.js';
import { replayList, replayRecord } from '../../webhooks/render.js';
import { appendRecord, replay, selectEvents } from '../../webhooks/replay.js';
import { countOf } from '../../text/count.js';

export type ReplayOptions = OptionsOf<typeof replayCommand>;

export async function run(opts: ReplayOptions, ctx: Context): Promise<number> {
  // --since is a point in time, or a duration back from now (the context's clock).
  const since = parseSince('--since', opts.since, ctx.clock.now());
  const filter = { since, eventTypes: opts.eventTypes ? new Set(opts.eventTypes) : undefined, to: opts.to, failed: opts.failed };
  const events = await selectEvents(opts.spool, filter);
  const output = opts.out;
  if (events.length === 0) {
    // Still the output of an empty list (`[]` for JSON, "No results." on a terminal), for scripts and people alike.
    await writeList(ctx.io, ctx.io.stdout, [], replayList(ctx.clock.now()), output);
    ctx.io.stderr.write(`No ${opts.failed ? 'parked' : 'stored'} event in ${opts.spool} matches; nothing replayed.\n`);
    return ExitCode.OK;
  }
  // One event at a time: one connection; each delivery within --timeout.
  const client = await ctx.delivery({ connections: 1 });
  let sent = 0;
  let failed = 0;
  async function* records(): AsyncGenerator<Record<string, unknown>> {
    for await (const o of replay(events, filter, client, ctx.signal)) {
      if (o.ok) {
        sent++;
        // Unparked: its delivery recorded as the receiver records one.
        if (opts.failed) appendRecord(opts.spool, { t: 'delivered', id: o.event.id, at: new Date(ctx.clock.now()).toISOString(), status: o.result.status });
      } else failed++;
      yield replayRecord(o);
    }
  }
  await writeList(ctx.io, ctx.io.stdout, records(), replayList(ctx.clock.now()), output);
  ctx.io.stderr.write(`${countOf(sent + failed, 'event')} replayed: ${sent} delivered, ${failed} not delivered\n`);
  return failed > 0 ? ExitCode.FAILURE : ExitCode.OK;
}
