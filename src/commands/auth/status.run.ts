import type { Context } from '../../context.js';
import { CliError, ExitCode, worstExitCode } from '../../errors.js';
import { maskSecret, TOKEN_STORAGE_TEXT, type ResolvedProfile, type Source } from '../../config/resolve.js';
import { storageOf } from '../../config/token-store.js';
import { writeRecord } from '../../output/writer.js';
import type { OptionsOf } from '../../command.js';
import type { status } from './status.js';
import { renderKeyValue } from '../../output/key-value.js';
import { sanitizeCell } from '../../text/sanitize.js';
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
  /** Where the token lives: environment (PARTNER_TOKEN), keyring, file (the config file), sandbox, none. */
  tokenStorage: ResolvedProfile['tokenStorage'];
  check: string;
  company?: string;
}

const FROM: Record<Source, string> = { flag: 'from a flag', env: 'from the environment', profile: 'from the config file', sandbox: 'the embedded sandbox', none: 'not set' };
const NOT_CHECKED = 'not checked (--all checks every profile)';

export async function run(opts: StatusOptions, ctx: Context): Promise<number> {
  const p = await ctx.profile();
  const active: ProfileLine = { name: p.name, active: true, baseUrl: p.baseUrl ?? null, baseUrlSource: p.baseUrlSource, token: maskSecret(p.token), tokenSource: p.tokenSource, tokenStorage: p.tokenStorage, check: 'not run' };
  const codes: number[] = [];
  const check = async (line: ProfileLine, baseUrl: string | undefined, token: string | undefined, problem: CliError | undefined, http: () => Promise<HttpClient>) => {
    // A token set or saved that cannot be used (locked keyring, a line break in PARTNER_TOKEN): said, not probed.
    if (problem) {
      line.check = `${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`;
      return problem.exitCode;
    }
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
  codes.push(await check(active, p.baseUrl, p.token, p.tokenProblem, () => ctx.http()));

  // Every other saved profile, as the config file has it (environment overrides apply to the active one only).
  const lines: ProfileLine[] = [active];
  if (p.tokenSource !== 'sandbox') {
    const store = await ctx.config();
    for (const name of store.profileNames()) {
      if (name === p.name) continue;
      const saved = store.getProfile(name) ?? {};
      const storage = storageOf(saved);
      // Where the token lives is in the config file; the keyring is only read to check it (--all).
      const line: ProfileLine = { name, active: false, baseUrl: saved.baseUrl === undefined ? null : withoutCredentials(saved.baseUrl), baseUrlSource: saved.baseUrl ? 'profile' : 'none', token: storage === 'keyring' ? 'not read' : maskSecret(saved.token), tokenSource: storage === 'none' ? 'none' : 'profile', tokenStorage: storage, check: NOT_CHECKED };
      if (opts.all) {
        const read = await (await ctx.tokens()).read(name, saved);
        if (read.token) line.token = maskSecret(read.token);
        codes.push(await check(line, saved.baseUrl, read.token, read.problem, () => ctx.http({ baseUrl: saved.baseUrl!, token: read.token! })));
      }
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
      token: l.tokenStorage === 'none' ? 'none' : `${l.token} (${TOKEN_STORAGE_TEXT[l.tokenStorage]})`,
      check: l.check,
    };
    if (l.company) block.company = l.company;
    out.push(`${l.active ? '* ' : '  '}${sanitizeCell(l.name)}${why}\n${renderKeyValue(block, 2, { labels: 'human', width })}`);
  }
  return out.join('\n');
}
