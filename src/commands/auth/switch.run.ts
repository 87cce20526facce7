import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { switchProfile } from './switch.js';
import { UsageError } from '../../errors.js';
import { unknownProfileError } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../output/sanitize.js';

export type SwitchOptions = OptionsOf<typeof switchProfile>;

export async function run(opts: SwitchOptions, ctx: Context): Promise<void> {
  if (ctx.globals.sandbox) throw new UsageError('auth switch does not apply to --sandbox', 'The sandbox uses no saved profile.');
  const store = await ctx.config();
  if (!(await store.setActiveProfile(opts.name))) throw unknownProfileError(opts.name, store);
  const saved = store.getProfile(opts.name);
  const where = saved?.baseUrl ? ` (${sanitizeTerminal(saved.baseUrl)})` : '';
  ctx.log.info(`Active profile: "${sanitizeTerminal(opts.name)}"${where}.`);
  // Precedence: these still win over the active profile; say so rather than let the switch look ignored.
  if (ctx.env.PARTNER_PROFILE) ctx.log.warn(`PARTNER_PROFILE=${sanitizeTerminal(ctx.env.PARTNER_PROFILE)} is set and wins over the active profile; unset it to use "${sanitizeTerminal(opts.name)}".`);
  if (ctx.env.PARTNER_TOKEN) ctx.log.warn('PARTNER_TOKEN is set and wins over the token of the active profile.');
}
