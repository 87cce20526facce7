import type { Context } from '../../context.js';
import { profileName } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../text/sanitize.js';

export async function run(_opts: unknown, ctx: Context): Promise<void> {
  const store = await ctx.config();
  // The one precedence (config/resolve.ts): --profile > PARTNER_PROFILE > the active profile > "default".
  const { name } = profileName({ profile: ctx.globals.profile }, ctx.env, store);
  const shown = sanitizeTerminal(name);
  const saved = store.getProfile(name);
  const where = saved?.tokenStorage === 'keyring' ? ' (from the system keyring)' : '';
  // The profile first, then its keyring entry (config/token-store.ts): a keyring out of reach does not keep the profile, and is said.
  const { removed, warnings } = await (await ctx.tokens()).forget(store, name);
  if (!removed) ctx.log.info(`No saved profile "${shown}"; nothing to do.`);
  else if (warnings.length === 0) ctx.log.info(`Logged out: profile "${shown}" and its token${where} were removed.`);
  else ctx.log.info(`Logged out: profile "${shown}" was removed.`);
  for (const w of warnings) ctx.log.warn(sanitizeTerminal(w));
  if (ctx.env.PARTNER_TOKEN) ctx.log.warn('PARTNER_TOKEN is still set in your environment; unset it to stop using that token.');
}
