import type { Context } from '../../context.js';
import { DEFAULT_PROFILE } from '../../config/store.js';


export async function run(_opts: unknown, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = ctx.globals.profile ?? ctx.env.PARTNER_PROFILE ?? store.activeProfile ?? DEFAULT_PROFILE;
  if (store.deleteProfile(name)) ctx.log.info(`Logged out: profile "${name}" and its token were removed.`);
  else ctx.log.info(`No saved profile "${name}"; nothing to do.`);
  if (ctx.env.PARTNER_TOKEN) ctx.log.warn('PARTNER_TOKEN is still set in your environment; unset it to stop using that token.');
}
