import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { replayCommand } from './replay.js';
import { ExitCode } from '../../errors.js';
import { writeList } from '../../output/writer.js';
import { parseSince } from '../../webhooks/duration.js';
import { replayList, replayRecord } from '../../webhooks/render.js';
import { appendRecord, checkSpoolDir, lockReplays, replay, selectEvents, type ReplayFilter } from '../../webhooks/replay.js';
import type { SpooledEvent } from '../../webhooks/journal.js';
import { keyStoreFor } from '../../webhooks/source.js';
import type { KeyStore } from '../../webhooks/jwks.js';
import { verifyStored } from '../../webhooks/stored-verify.js';
import { countOf } from '../../text/count.js';

export type ReplayOptions = OptionsOf<typeof replayCommand>;

export async function run(opts: ReplayOptions, ctx: Context): Promise<number> {
  // --since is a point in time, or a duration back from now (the context's clock).
  const since = parseSince('--since', opts.since, ctx.clock.now());
  const filter: ReplayFilter = { since, eventTypes: opts.eventTypes ? new Set(opts.eventTypes) : undefined, to: opts.to, failed: opts.failed };
  checkSpoolDir(opts.spool);
  // One replay at a time per spool: a second one reads the journal once the first is done (its events unparked).
  const release = await lockReplays(opts.spool, ctx.signal, (pid) => ctx.log.info(`Waiting for another \`webhook replay\`${pid !== undefined ? ` (pid ${pid})` : ''} on ${opts.spool} to finish…`));
  if (!release) return ExitCode.INTERRUPTED;
  try {
    const events = await selectEvents(opts.spool, filter);
    if (events.length === 0) return await nothingToReplay(opts, ctx);
    return await send(events, filter, opts, ctx);
  } finally {
    release();
  }
}

/** One message on a terminal; the empty list for scripts (`[]` for JSON, a CSV header), with the note on stderr. */
async function nothingToReplay(opts: ReplayOptions, ctx: Context): Promise<number> {
  const output = opts.out;
  if (output.format !== 'table') await writeList(ctx.io, ctx.io.stdout, [], replayList(ctx.clock.now()), output);
  ctx.log.info(`No ${opts.failed ? 'parked' : 'stored'} event in ${opts.spool} matches; nothing replayed.`);
  return ExitCode.OK;
}

async function send(events: SpooledEvent[], filter: ReplayFilter, opts: ReplayOptions, ctx: Context): Promise<number> {
  // Every record is verified again before it goes (the journal is a file): the key set as `webhook listen` has it.
  const store: KeyStore = await keyStoreFor(ctx, opts.keys);
  // One event at a time: one connection; each delivery within --timeout.
  const client = await ctx.delivery({ connections: 1 });
  let sent = 0;
  let failed = 0;
  async function* records(): AsyncGenerator<Record<string, unknown>> {
    for await (const o of replay(events, filter, client, (e) => verifyStored(e, store), ctx.signal)) {
      if (o.ok) {
        sent++;
        // Unparked: its delivery recorded as the receiver records one.
        if (opts.failed) appendRecord(opts.spool, { t: 'delivered', id: o.event.id, at: new Date(ctx.clock.now()).toISOString(), status: o.result.status });
      } else failed++;
      // A record that failed its check is said on stderr too (its row may be cut on a terminal).
      if (!o.ok && o.result.error?.startsWith('not sent:')) ctx.log.warn(`event ${o.event.id} ${o.result.error}`);
      yield replayRecord(o);
    }
  }
  await writeList(ctx.io, ctx.io.stdout, records(), replayList(ctx.clock.now()), opts.out);
  ctx.log.info(`${countOf(sent + failed, 'event')} replayed: ${sent} delivered, ${failed} not delivered`);
  return failed > 0 ? ExitCode.FAILURE : ExitCode.OK;
}
