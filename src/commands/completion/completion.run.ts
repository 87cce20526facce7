import type { OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { completion } from './completion.js';

/** Prints the script generated from the whole command tree (the same text as the checked-in completions/). */
export async function run(opts: OptionsOf<typeof completion>, ctx: Context): Promise<void> {
  const [{ completionScript }, { buildProgram }] = await Promise.all([import('../../completion/index.js'), import('../../program.js')]);
  const program = buildProgram({ io: ctx.io, env: ctx.env, signal: ctx.signal, exitCode: 0 }, { full: true });
  ctx.io.stdout.write(completionScript(opts.shell, program));
}
