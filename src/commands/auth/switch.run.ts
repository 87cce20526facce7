import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { switchProfile } from './switch.js';
import { UsageError } from '../../errors.js';
import type { ConfigStore } from '../../config/store.js';
import { unknownProfileError } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../text/sanitize.js';

export type SwitchOptions = OptionsOf<typeof switchProfile>;

export async function run(opts: SwitchOptions, ctx: Context): Promise<void> {
  if (ctx.globals.sandbox) throw new UsageError('auth switch does not apply to --sandbox', 'The sandbox uses no saved profile.');
  const store = await ctx.config();
  const name = opts.name ?? (await pickProfile(store, ctx));
  if (!(await store.setActiveProfile(name))) throw unknownProfile(name, store);
  const saved = store.getProfile(name);
  const where = saved?.baseUrl ? ` (${sanitizeTerminal(saved.baseUrl)})` : '';
  ctx.log.info(`Active profile: "${sanitizeTerminal(name)}"${where}.`);
  // Precedence: these still win over the active profile; say so rather than let the switch look ignored.
  if (ctx.env.PARTNER_PROFILE) ctx.log.warn(`PARTNER_PROFILE=${sanitizeTerminal(ctx.env.PARTNER_PROFILE)} is set and wins over the active profile; unset it to use "${sanitizeTerminal(name)}".`);
  if (ctx.env.PARTNER_TOKEN) ctx.log.warn('PARTNER_TOKEN is set and wins over the token of the active profile.');
}

/** No name given: on a terminal, a list of the saved profiles (the active one first selected); else a usage error naming them. */
async function pickProfile(store: ConfigStore, ctx: Context): Promise<string> {
  const known = store.profileNames();
  if (known.length === 0) throw new UsageError('auth switch needs a profile name, and no profiles are saved yet', 'Create one with `partner --profile NAME auth login --base-url URL`.', 'MISSING_ARGUMENT');
  if (!ctx.io.canPrompt) throw new UsageError(`auth switch needs a profile name; known: ${known.map(sanitizeTerminal).join(', ')}`, 'Not on a terminal, so partner cannot ask.', 'MISSING_ARGUMENT');
  const prompter = await ctx.prompter();
  const active = store.activeProfile;
  const choices = known.map((n) => ({ name: `${sanitizeTerminal(n)}${n === active ? ' (active)' : ''}`, value: n, description: sanitizeTerminal(store.getProfile(n)?.baseUrl ?? '') || undefined }));
  return prompter.select({ message: 'Profile to use', choices, default: active });
}

/** A name the config file does not have is a mistake in the command line: exit 2 (not "not authenticated"), naming the saved profiles. */
function unknownProfile(name: string, store: ConfigStore): UsageError {
  const e = unknownProfileError(name, store);
  return new UsageError(e.message, e.hint, e.code);
}
