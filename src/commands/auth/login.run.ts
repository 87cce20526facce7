import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { login } from './login.js';
import { AuthError, UsageError } from '../../errors.js';
import { readAll } from '../../input.js';
import { checkBaseUrl } from '../../api/urls.js';
import { profileName } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { MAX_TOKEN_LENGTH, tokenDefect } from '../../config/token-text.js';

export type LoginOptions = OptionsOf<typeof login>;

/** The token as pasted or piped, without the whitespace around it; a defect inside it is named (token-text.ts). */
export function checkToken(raw: string): string {
  const token = raw.trim();
  if (token === '') throw new UsageError('The token is empty', 'Paste the API token your account manager gave you.', 'EMPTY_TOKEN');
  const defect = tokenDefect(token);
  if (defect) throw new UsageError(`The token ${defect}; nothing was saved`, 'Paste only the token itself, on one line, without "Bearer".', 'INVALID_TOKEN');
  return token;
}

export async function run(opts: LoginOptions, ctx: Context): Promise<void> {
  if (ctx.globals.sandbox) throw new UsageError('auth login does not apply to --sandbox', 'The sandbox needs no login.');
  const store = await ctx.config();
  // The one precedence (config/resolve.ts): flag > env > the active profile > "default".
  // Logging in may create the profile, so an unknown name is not an error here.
  const { name } = profileName({ profile: ctx.globals.profile }, ctx.env, store);
  const baseUrl = ctx.globals.baseUrl ?? (ctx.env.PARTNER_BASE_URL || undefined) ?? store.getProfile(name)?.baseUrl;
  if (!baseUrl) throw new UsageError('auth login needs the API base URL', 'Pass --base-url https://… (or set PARTNER_BASE_URL).', 'NO_BASE_URL');
  checkBaseUrl(baseUrl);
  if (!opts.withToken && !ctx.io.canPrompt) {
    throw new UsageError('No terminal to prompt for the token', 'Pipe it in with --with-token, for example: echo "$TOKEN" | partner auth login --with-token --base-url URL');
  }
  // Where the token will go is settled before it is asked for or checked: a keyring that cannot store it is said now, not after a paste and a request.
  const tokens = await ctx.tokens();
  if (!opts.insecureStorage) await tokens.ensureWritable();

  const raw = opts.withToken ? await readAll(ctx.io.stdin, MAX_TOKEN_LENGTH * 2) : await (await ctx.prompter()).secret({ message: `Token for ${new URL(baseUrl).host}:` });
  const token = checkToken(raw);

  let company: string | undefined;
  if (opts.verify) {
    const http = await ctx.http({ baseUrl, token });
    const { listEmployees } = await import('../../api/employees.js');
    const { ApiError } = await import('../../errors.js');
    try {
      company = (await listEmployees(http, { pageSize: 1 })).data[0]?.customerName || undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw new AuthError('The server refused this token (HTTP 401); nothing was saved', 'Check the token and the base URL, then try again.');
      if (!(err instanceof ApiError && err.status === 403)) throw err;
      ctx.log.warn('The token was accepted but may not list employees (HTTP 403).');
    }
  }
  for (const w of await tokens.save(store, name, baseUrl, token, opts.insecureStorage)) ctx.log.warn(w);
  const where = opts.insecureStorage ? `token in ${store.path}, mode 0600` : `token in the system keyring, profile in ${store.path}`;
  ctx.log.info(`Logged in: profile "${name}" → ${new URL(baseUrl).origin} (${where}).`);
  ctx.log.info(`Active profile is now "${name}"${company ? `; the token belongs to ${sanitizeTerminal(company)}` : ''}.`);
}
