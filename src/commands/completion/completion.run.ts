import type { OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { completion } from './completion.js';

/** Prints the script generated from the whole command tree (the same text as the checked-in completions/). */
export async function run(opts: OptionsOf<typeof completion>, ctx: Context): Promise<void> {
  const { completionScript } = await import('../../completion/index.js');
  ctx.io.stdout.write(completionScript(opts.shell, ctx.commandTree()));
}
