// `trackers onboarding|offboarding --changes-since FILE | --state FILE`: the
// tracker's one answer is the whole list; src/changes/ diffs it.
import type { Context } from '../../context.js';
import { exportChanges } from '../../changes/export-changes.js';
import type { ListSpec } from '../../output/writer.js';
import { changesTargetOf, type ChangesChoice } from '../changes-flags.js';
import { TRACKER_FIELDS } from './tracker.js';
import type { TrackerOptions } from './tracker.run.js';

export async function trackerChanges(opts: TrackerOptions, changes: ChangesChoice, ctx: Context, items: unknown[], spec: ListSpec): Promise<void> {
  await exportChanges(changes, {
    ...(await changesTargetOf(ctx, changes, { out: opts.out, outputFile: opts.outputFile, spec })),
    command: `trackers ${opts.kind}`,
    filters: { ...opts.query },
    recordFields: TRACKER_FIELDS[opts.kind],
    noun: 'employee',
    paged: false,
  }, async () => items);
}
