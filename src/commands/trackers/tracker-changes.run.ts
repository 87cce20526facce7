// `trackers onboarding|offboarding --changes-since FILE | --state FILE`: the
// tracker's one answer is the whole list; src/changes/ diffs it.
import type { Context } from '../../context.js';
import { exportChanges } from '../../changes/export-changes.js';
import type { ListSpec } from '../../output/writer.js';
import type { ChangesChoice } from '../changes-flags.js';
import { TRACKER_FIELDS } from './tracker.js';
import type { TrackerOptions } from './tracker.run.js';

export async function trackerChanges(opts: TrackerOptions, changes: ChangesChoice, ctx: Context, items: unknown[], spec: ListSpec): Promise<void> {
  const profile = await ctx.profile();
  await exportChanges(changes, {
    command: `trackers ${opts.kind}`,
    baseUrl: profile.baseUrlSource === 'sandbox' ? 'sandbox' : (profile.baseUrl ?? ''),
    filters: { ...opts.query },
    recordFields: TRACKER_FIELDS[opts.kind],
    noun: 'employee',
    io: ctx.io,
    stdout: ctx.io.stdout,
    log: ctx.log,
    onCleanup: (fn) => ctx.onCleanup(fn),
    out: opts.out,
    outputFile: opts.outputFile,
    spec,
    paged: false,
    killBeforeState: changes.killBeforeState,
  }, async () => items);
}
