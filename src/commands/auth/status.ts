import type { Context } from '../../context.js';
import { ApiError, CliError } from '../../errors.js';
import { maskSecret } from '../../config/resolve.js';
import { parseOutputFlags, type OutputFlags } from '../../output/options.js';
import { writeJson } from '../../output/writer.js';
import { renderKeyValue } from '../../output/table.js';

export function parse(_args: string[], raw: Record<string, unknown>): OutputFlags {
  return parseOutputFlags(raw);
}

export async function run(opts: OutputFlags, ctx: Context): Promise<number> {
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
      const http = await ctx.api();
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
  // A status report reads as text unless JSON is asked for explicitly.
  if (opts.output === 'json' || opts.output === 'ndjson') await writeJson(ctx.io.stdout, report);
  else ctx.io.stdout.write(renderKeyValue(report));
  return code;
}
