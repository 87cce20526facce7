import type { Context } from '../../context.js';
import { CliError, ExitCode, worstExitCode } from '../../errors.js';
import { maskSecret, type Source } from '../../config/resolve.js';
import { writeRecord } from '../../output/writer.js';
import type { OptionsOf } from '../../command.js';
import type { status } from './status.js';
import { renderKeyValue } from '../../output/key-value.js';
import { sanitizeCell } from '../../output/sanitize.js';
import type { HttpClient } from '../../api/http.js';
import { probeToken } from './probe.js';
import { withoutCredentials } from '../../api/urls.js';

export type StatusOptions = OptionsOf<typeof status>;

interface ProfileLine {
  name: string;
  active: boolean;
  baseUrl: string | null;
  baseUrlSource: Source;
  token: string;
  tokenSource: Source;
  check: string;
  company?: string;
}

const FROM: Record<Source, string> = { flag: 'from a flag', env: 'from the environment', profile: 'from the config file', sandbox: 'the embedded sandbox', none: 'not set' };
const NOT_CHECKED = 'not checked (--all checks every profile)';

export async function run(opts: StatusOptions, ctx: Context): Promise<number> {
  const p = await ctx.profile();
  const active: ProfileLine = { name: p.name, active: true, baseUrl: p.baseUrl ?? null, baseUrlSource: p.baseUrlSource, token: maskSecret(p.token), tokenSource: p.tokenSource, check: 'not run' };
  const codes: number[] = [];
  const check = async (line: ProfileLine, baseUrl: string | undefined, token: string | undefined, http: () => Promise<HttpClient>) => {
    if (!baseUrl || !token) {
      line.check = baseUrl ? 'no token: run `partner auth login` or set PARTNER_TOKEN' : 'no base URL: run `partner auth login --base-url URL`';
      return ExitCode.NOT_AUTHENTICATED;
    }
    try {
      const probe = await probeToken(await http(), ctx.signal);
      line.check = probe.text;
      if (probe.company) line.company = probe.company;
      return probe.exitCode;
    } catch (err) {
      if (err instanceof CliError && err.code === 'INTERRUPTED') throw err;
      line.check = `failed: ${(err as Error).message}`;
      return err instanceof CliError ? err.exitCode : ExitCode.FAILURE;
    }
  };
  codes.push(await check(active, p.baseUrl, p.token, () => ctx.http()));

  // Every other saved profile, as the config file has it (environment overrides apply to the active one only).
  const lines: ProfileLine[] = [active];
  if (p.tokenSource !== 'sandbox') {
    const store = await ctx.config();
    for (const name of store.profileNames()) {
      if (name === p.name) continue;
      const saved = store.getProfile(name) ?? {};
      const line: ProfileLine = { name, active: false, baseUrl: saved.baseUrl === undefined ? null : withoutCredentials(saved.baseUrl), baseUrlSource: saved.baseUrl ? 'profile' : 'none', token: maskSecret(saved.token), tokenSource: saved.token ? 'profile' : 'none', check: NOT_CHECKED };
      if (opts.all) codes.push(await check(line, saved.baseUrl, saved.token, () => ctx.http({ baseUrl: saved.baseUrl!, token: saved.token! })));
      lines.push(line);
    }
  }
  const code = worstExitCode(codes);

  const { name: _n, active: _a, ...rest } = active;
  await writeRecord(ctx.io, ctx.io.stdout, { profile: p.name, profileSource: p.nameSource, ...rest, profiles: lines }, opts.out, {
    table: () => renderStatus(lines, p.nameSource, ctx.io.columns),
  });
  return code;
}

/** One block per profile, the active one first and marked. */
export function renderStatus(lines: ProfileLine[], activeSource: Source, width?: number): string {
  const out: string[] = [];
  for (const l of lines) {
    const why = l.active ? ` (active${activeSource === 'flag' ? ', --profile' : activeSource === 'env' ? ', PARTNER_PROFILE' : ''})` : '';
    const block: Record<string, string> = {
      baseUrl: l.baseUrl === null ? 'not set' : `${l.baseUrl}${l.active ? ` (${FROM[l.baseUrlSource]})` : ''}`,
      token: l.tokenSource === 'none' ? 'none' : `${l.token} (${l.tokenSource === 'env' ? 'from PARTNER_TOKEN' : FROM[l.tokenSource]})`,
      check: l.check,
    };
    if (l.company) block.company = l.company;
    out.push(`${l.active ? '* ' : '  '}${sanitizeCell(l.name)}${why}\n${renderKeyValue(block, 2, { labels: 'human', width })}`);
  }
  return out.join('\n');
}
