import type { Context } from '../../context.js';

/** Profile names only, never tokens. */
export async function run(_opts: unknown, ctx: Context): Promise<void> {
  const { profileNames } = await import('../../completion/profiles.js');
  const names = profileNames(ctx.env);
  if (names.length > 0) ctx.io.stdout.write(`${names.join('\n')}\n`);
}
