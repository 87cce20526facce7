import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { writeChunk } from '../../output/stream.js';
import { sanitizeTerminal } from '../../text/sanitize.js';

/** The token of the resolved profile (PARTNER_TOKEN > keyring or file), alone on stdout: for `$(partner auth token)`. */
export async function run(_opts: unknown, ctx: Context): Promise<void> {
  const p = await ctx.profile();
  if (p.tokenProblem) throw p.tokenProblem;
  if (!p.token) throw new AuthError(`No token for profile "${sanitizeTerminal(p.name)}"`, 'Log in with `partner auth login --base-url URL`, or set PARTNER_TOKEN.', 'NO_TOKEN');
  await writeChunk(ctx.io.stdout, `${p.token}\n`);
}
