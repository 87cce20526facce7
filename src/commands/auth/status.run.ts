import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { status } from './status.js';
import { outputOptions } from '../../output/options.js';
import { ApiError, CliError } from '../../errors.js';
import { maskSecret } from '../../config/resolve.js';
import { writeRecord } from '../../output/writer.js';


export async function run(opts: OptionsOf<typeof status>, ctx: Context): Promise<number> {
  const p = await ctx.profile();
  const report: Record<string, unknown> = {
    profile: p.name,
    profileSource: p.nameSource,
    baseUrl: p.baseUrl ?? null,
    baseUrlSource: p.baseUrlSource,
    token: maskSecret(p.token),
    tokenSource: p.tokenSource,
    check: 'not run',
  };
  let code = 0;
  if (p.baseUrl && p.token) {
    try {
      const http = await ctx.http();
      const { listEmployees } = await import('../../api/employees.js');
      await listEmployees(http, { pageSize: 1 });
      report.check = 'token accepted';
    } catch (err) {
      report.check = err instanceof ApiError ? `refused: HTTP ${err.status} ${err.message}` : `failed: ${(err as Error).message}`;
      code = err instanceof CliError ? err.exitCode : 1;
    }
  } else {
    report.check = p.baseUrl ? 'no token: run `partner auth login` or set PARTNER_TOKEN' : 'no base URL: run `partner auth login --base-url URL`';
    code = 3;
  }
  await writeRecord(ctx.io, ctx.io.stdout, report, outputOptions(opts, ctx.io));
  return code;
}
