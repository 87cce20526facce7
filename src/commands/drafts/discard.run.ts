import { suggestion } from '../../text/command-line.js';
import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { discard } from './discard.js';
import { ExitCode, UsageError } from '../../errors.js';
import { draftName, type DamagedDraft, type Draft } from '../../forms/drafts.js';
import { countOf } from '../../text/count.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { selectDrafts } from './list.run.js';

export type DiscardOptions = OptionsOf<typeof discard>;

/** "1a2b3c4d (gp create, Acme India Pvt Ltd, Meera Iyer)": which draft, terminal-safe. */
function described(d: Draft): string {
  const who = [d.kind === 'gp-create' ? 'gp create' : 'dynamic-details submit', d.entity, d.kind === 'dynamic-details' ? (d.employeeCode ?? d.employeeId) : undefined, draftName(d.answers) || undefined];
  return `${d.id} (${sanitizeTerminal(who.filter((x) => x !== undefined).join(', '))})`;
}

export async function run(opts: DiscardOptions, ctx: Context): Promise<number> {
  const store = await ctx.drafts();
  const found = store.scan();
  const all = found.drafts;
  let chosen: Draft[];
  /** Damaged drafts discarded too: by their ids, or every one with --all and no filter (their entity is unknown). */
  let damaged: DamagedDraft[] = [];
  if (opts.all) {
    chosen = selectDrafts(all, opts);
    damaged = opts.entity === undefined && opts.employee === undefined ? found.damaged : [];
    const n = chosen.length + damaged.length;
    if (n === 0) {
      ctx.log.info('No saved drafts; nothing was discarded.');
      return ExitCode.OK;
    }
    if (!opts.yes) {
      if (!ctx.io.canPrompt) throw new UsageError(`--all would discard ${countOf(n, 'draft')}: pass --yes to confirm`, 'Not on a terminal, so partner cannot ask.', 'CONFIRMATION_REQUIRED');
      const prompter = await ctx.prompter();
      const ok = await prompter.confirm({ message: `Discard ${countOf(n, 'draft')}? This cannot be undone.`, default: false });
      if (!ok) {
        ctx.log.info('Nothing was discarded.');
        return ExitCode.INTERRUPTED;
      }
    }
  } else {
    // A damaged draft (listed as such) is discarded by its id too.
    damaged = found.damaged.filter((d) => opts.ids.includes(d.id));
    const unknown = opts.ids.filter((id) => !all.some((d) => d.id === id) && !damaged.some((d) => d.id === id));
    if (unknown.length) throw new UsageError(`No draft ${unknown.join(', ')}; nothing was discarded`, suggestion('See the drafts with:', 'partner drafts list'), 'NO_DRAFT');
    chosen = all.filter((d) => opts.ids.includes(d.id));
  }
  for (const d of damaged) {
    store.delete(d.id);
    ctx.io.stderr.write(`Discarded damaged draft ${d.id} (${d.kind === 'gp-create' ? 'gp create' : 'dynamic-details submit'}).\n`);
  }
  for (const d of chosen) {
    store.delete(d.id);
    ctx.log.info(`Discarded draft ${described(d)}.`);
  }
  return ExitCode.OK;
}
