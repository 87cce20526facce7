// --changes-since and --state, as the commands that offer them check them
// (employees list --all, the trackers). The work is in src/changes/.
import type { ChangesTarget } from '../changes/export-changes.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ListSpec, OutputOptions } from '../output/writer.js';

export { CHANGE_FIELDS } from '../changes/fields.js';

export interface ChangesChoice {
  changesSince?: string;
  state?: string;
  /** Test hook (PARTNER_TEST_KILL_BEFORE_STATE=1): killed after the output, before the state is replaced. */
  killBeforeState: boolean;
}

/** The two flags, checked together; undefined when neither is given. */
export function changesFlags(o: { changesSince?: string; state?: string; out: { fields?: string[] } }, env: NodeJS.ProcessEnv, how: { walksAll: boolean; walkFlag?: string }): ChangesChoice | undefined {
  if (o.changesSince === undefined && o.state === undefined) {
    const named = o.out.fields?.map((f) => f.split('.')[0]).find((f) => f === 'change' || f === 'changedFields');
    if (named) throw new UsageError(`--fields ${named} is only there with --changes-since or --state`, 'Add --changes-since FILE or --state FILE, or drop that field.', 'UNKNOWN_FIELD');
    return undefined;
  }
  if (!how.walksAll) throw new UsageError(`--changes-since and --state need ${how.walkFlag}: only a walk of every record tells who was removed`, `Add ${how.walkFlag}.`);
  return { changesSince: o.changesSince, state: o.state, killBeforeState: env.PARTNER_TEST_KILL_BEFORE_STATE === '1' };
}

/**
 * What every command's diff export shares (the profile's base URL, the
 * context's streams and clean-up, the output resolved, the test hook): the
 * command adds what it is, its filters and its records' fields.
 */
export async function changesTargetOf(
  ctx: Context,
  changes: ChangesChoice,
  o: { out: OutputOptions; outputFile?: string; spec: ListSpec },
): Promise<Pick<ChangesTarget, 'baseUrl' | 'io' | 'stdout' | 'log' | 'onCleanup' | 'out' | 'outputFile' | 'spec' | 'killBeforeState'>> {
  const profile = await ctx.profile();
  return {
    baseUrl: profile.baseUrlSource === 'sandbox' ? 'sandbox' : (profile.baseUrl ?? ''),
    io: ctx.io,
    stdout: ctx.io.stdout,
    log: ctx.log,
    onCleanup: (fn) => ctx.onCleanup(fn),
    out: o.out,
    outputFile: o.outputFile,
    spec: o.spec,
    killBeforeState: changes.killBeforeState,
  };
}
