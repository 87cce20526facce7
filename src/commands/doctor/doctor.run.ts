// `partner doctor`: checks the set-up a command depends on, one line each,
// OK or a fix. Read-only except for what any command does anyway (opening
// the config tightens a too-wide file, and says so). Exit code: the worst
// failure's (3 no/refused token, 4 forbidden, 1 anything else); warnings
// alone exit 0.
import type { OptionsOf } from '../../command.js';
import type { doctor } from './doctor.js';
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode, NetworkError, UsageError, worstExitCode } from '../../errors.js';
import { checkBaseUrl, type HttpClient } from '../../api/http.js';
import { configDir, cacheDir } from '../../config/paths.js';
import { maskSecret, type ResolvedProfile } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
import { writeRecord } from '../../output/writer.js';
import { secretRedactor } from '../../api/redact.js';
import { cacheSecret } from '../../webhooks/cache-secret.js';
import { type Check, MAX_SKEW_S, SOURCE, checkConfig, checkSpool, checkNode, checkProxy, checkTokenStorage, describeError, formatAge, headerText, keyAge, mode, octal, renderChecks } from './checks.js';

export type DoctorOptions = OptionsOf<typeof doctor>;

export async function run(opts: DoctorOptions, ctx: Context): Promise<number> {
  const checks: Check[] = [checkNode(ctx.system.node)];
  const config = checkConfig(ctx.env);
  checks.push(config.check);

  let profile: ResolvedProfile | undefined;
  try {
    profile = await ctx.profile();
  } catch (err) {
    checks.push({ name: 'profile', status: 'fail', message: describeError(err), fix: err instanceof CliError ? err.hint : undefined, exitCode: err instanceof CliError ? err.exitCode : ExitCode.FAILURE });
  }
  // Opening the config tightens a too-wide file: say what happened rather than ask for a chmod already done.
  if (config.check.status === 'fail' && config.fileMode !== undefined && (config.fileMode & 0o077) !== 0) {
    const now = mode(config.file);
    const dirNow = mode(config.dir);
    if (now !== undefined && (now & 0o077) === 0 && (dirNow === undefined || (dirNow & 0o077) === 0)) {
      config.check.status = 'warn';
      config.check.message = `${config.file} was ${octal(config.fileMode)}; partner tightened it to ${octal(now)} just now`;
      config.check.fix = 'Check who could read it: tokens saved there may have leaked; log in again with a new token if so.';
      delete config.check.exitCode;
    }
  }

  let http: HttpClient | undefined;
  let baseUrl: string | undefined;
  // "base URL OK" only once the server answered something: a valid URL that nobody answers on is a failure.
  let baseCheck: Check | undefined;
  let answered = false;
  let unreachable: NetworkError | undefined;
  const noted = (err: unknown) => {
    if (err instanceof ApiError) answered = true;
    else if (err instanceof NetworkError) unreachable ??= err;
  };
  if (profile) {
    checks.push({ name: 'profile', status: 'ok', message: `"${profile.name}" (${SOURCE[profile.nameSource] ?? profile.nameSource})` });
    if (!profile.baseUrl) {
      checks.push({ name: 'base URL', status: 'fail', message: 'none configured', fix: 'Run `partner auth login --base-url URL`, set PARTNER_BASE_URL, pass --base-url, or try --sandbox.', exitCode: ExitCode.FAILURE });
    } else {
      try {
        checkBaseUrl(profile.baseUrl);
        baseUrl = profile.baseUrl;
        baseCheck = { name: 'base URL', status: 'ok', message: `${profile.baseUrl} (${SOURCE[profile.baseUrlSource] ?? profile.baseUrlSource})` };
        checks.push(baseCheck);
      } catch (err) {
        checks.push({ name: 'base URL', status: 'fail', message: `${profile.baseUrl}: ${(err as Error).message}`, fix: err instanceof UsageError ? (err.hint ?? 'Use an https:// URL (http:// only for loopback).') : undefined, exitCode: ExitCode.FAILURE });
      }
    }
    if (baseUrl) {
      try {
        http = await ctx.http();
      } catch (err) {
        checks.push({ name: 'connection', status: 'fail', message: describeError(err), exitCode: ExitCode.FAILURE });
      }
    }
    // Token: present, then accepted by one cheap call.
    if (profile.tokenProblem) {
      // Set or saved, and cannot be used (a line break in PARTNER_TOKEN, a locked keyring): said as such.
      checks.push({ name: 'token', status: 'fail', message: profile.tokenProblem.message, fix: profile.tokenProblem.hint, exitCode: profile.tokenProblem.exitCode });
    } else if (!profile.token) {
      checks.push({ name: 'token', status: 'fail', message: `none for profile "${profile.name}"`, fix: 'Run `partner auth login --base-url URL` (or `partner --profile NAME auth login …`), or set PARTNER_TOKEN.', exitCode: ExitCode.NOT_AUTHENTICATED });
    } else if (!http) {
      checks.push({ name: 'token', status: 'skip', message: `${maskSecret(profile.token)} (${SOURCE[profile.tokenSource] ?? profile.tokenSource}); not checked without a valid base URL` });
    } else {
      const { listEmployees } = await import('../../api/employees.js');
      try {
        await listEmployees(http, { pageSize: 1 }, ctx.signal);
        answered = true;
        checks.push({ name: 'token', status: 'ok', message: `${maskSecret(profile.token)} (${SOURCE[profile.tokenSource] ?? profile.tokenSource}), accepted by GET /v1/employees` });
      } catch (err) {
        if (err instanceof CliError && err.code === 'INTERRUPTED') throw err;
        noted(err);
        const refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
        if (unreachable && !answered) checks.push({ name: 'token', status: 'skip', message: `${maskSecret(profile.token)} (${SOURCE[profile.tokenSource] ?? profile.tokenSource}); not checked: the server could not be reached` });
        else checks.push({
          name: 'token',
          status: 'fail',
          message: `${maskSecret(profile.token)} ${refused ? 'refused' : 'not checked'}: ${describeError(err)}`,
          fix: err instanceof CliError ? err.hint : undefined,
          exitCode: err instanceof CliError ? err.exitCode : ExitCode.FAILURE,
        });
      }
    }
  }

  // JWKS: fetched live (reachability), through the same client; the Date header gives the clock skew.
  let serverDate: { date: number; localMid: number } | undefined;
  if (unreachable && !answered) {
    checks.push({ name: 'webhook keys', status: 'skip', message: 'not checked: the server could not be reached' });
  } else if (http && baseUrl) {
    const { JWKS_PATH, KeyStore, MAX_CACHE_MS } = await import('../../webhooks/jwks.js');
    const base = new URL(baseUrl);
    const url = new URL(base.pathname.replace(/\/$/, '') + JWKS_PATH, base).toString();
    const client = http;
    const live = new KeyStore({
      source: {
        kind: 'url',
        url,
        fetch: async () => {
          const started = ctx.clock.now();
          const res = await client.send('GET', JWKS_PATH, { signal: ctx.signal }).catch((err: unknown) => {
            noted(err);
            throw err;
          });
          answered = true;
          const date = Date.parse(headerText(res.headers.date) ?? '');
          if (!Number.isNaN(date)) serverDate = { date, localMid: (started + ctx.clock.now()) / 2 };
          return { body: res.body, cacheControl: headerText(res.headers['cache-control']) };
        },
      },
      useCache: false,
      now: () => ctx.clock.now(),
    });
    try {
      const snap = await live.current();
      const now = ctx.clock.now();
      const keys = snap.keys.map((k) => ({ kid: k.kid ?? null, usable: k.usable, problem: k.problem ?? null, ageSeconds: keyAge(k.jwk as Record<string, unknown>, now) }));
      const usable = keys.filter((k) => k.usable);
      const kidText = keys.map((k) => `${sanitizeTerminal(k.kid ?? '(no kid)')}${k.ageSeconds === null ? '' : ` ${formatAge(k.ageSeconds)} old`}${k.usable ? '' : ' (unusable)'}`).join(', ');
      const base = { details: { url, keys } };
      if (usable.length === 0) {
        checks.push({ name: 'webhook keys', status: 'fail', message: `${url}: no ES512 (EC P-521) key among ${keys.length}${kidText ? `: ${kidText}` : ''}`, fix: 'Webhooks cannot be verified with this key set; check the base URL.', exitCode: ExitCode.FAILURE, ...base });
      } else {
        const ageNote = keys.some((k) => k.ageSeconds !== null) ? '' : '; key ages not published';
        checks.push({ name: 'webhook keys', status: keys.length > usable.length ? 'warn' : 'ok', message: `reachable, ${keys.length} key(s): ${kidText}${ageNote}`, ...base });
      }
    } catch (err) {
      if (err instanceof CliError && err.code === 'INTERRUPTED') throw err;
      checks.push({ name: 'webhook keys', status: 'fail', message: `${url}: ${describeError(err)}`, fix: err instanceof CliError ? err.hint : 'Check the base URL and your network.', exitCode: ExitCode.FAILURE });
    }
    // The disk cache `webhook verify` uses: its age, read through the same loader.
    const cached = new KeyStore({
      source: { kind: 'url', url, fetch: () => Promise.reject(new NoCachedCopy()) },
      cacheDir: cacheDir(ctx.env),
      cacheKey: () => cacheSecret(configDir(ctx.env), undefined, { create: false }),
      now: () => ctx.clock.now(),
    });
    try {
      const snap = await cached.current();
      const age = Math.max(0, Math.round((ctx.clock.now() - snap.fetchedAt) / 1000));
      checks.push({ name: 'key cache', status: 'ok', message: `${snap.keys.length} key(s) cached ${formatAge(age)} ago; used for up to ${Math.round(Math.min(MAX_CACHE_MS, snap.maxAgeMs) / 60000)} min` });
    } catch (err) {
      if (!(err instanceof NoCachedCopy)) throw err;
      checks.push({ name: 'key cache', status: 'ok', message: 'no fresh cached copy (kept at most 1 h); `webhook verify` fetches the key set when needed' });
    }
  }

  if (baseCheck && unreachable && !answered) {
    baseCheck.status = 'fail';
    baseCheck.message = `${baseCheck.message}: no answer: ${unreachable.message}`;
    baseCheck.fix = unreachable.hint ?? 'Check the base URL, your network and any proxy settings.';
    baseCheck.exitCode = ExitCode.FAILURE;
  } else if (baseCheck && answered) {
    baseCheck.message = `${baseCheck.message}, answering`;
  }

  if (serverDate) {
    const skew = Math.round((serverDate.date - serverDate.localMid) / 1000);
    const text = skew === 0 ? 'in step with the server (within 1 s)' : `${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the server`;
    if (Math.abs(skew) > MAX_SKEW_S) checks.push({ name: 'clock', status: 'warn', message: `this computer's clock is ${text}`, fix: 'Synchronise the clock (NTP, e.g. `timedatectl set-ntp true`): key-set cache ages and webhook timestamps depend on it.', details: { skewSeconds: skew } });
    else checks.push({ name: 'clock', status: 'ok', message: `${text} (Date header)`, details: { skewSeconds: skew } });
  } else {
    checks.push({ name: 'clock', status: 'skip', message: 'not checked: no answer with a Date header from the server' });
  }

  checks.push(checkProxy(ctx.env, baseUrl));
  if (profile) checks.push(await checkTokenStorage(profile, () => ctx.tokens()));
  if (opts.spool !== undefined) checks.push(await checkSpool(opts.spool));

  // Anything a server said (error bodies, headers) may echo the token: mask any run of 8+ of its characters.
  if (profile?.token) {
    const redact = secretRedactor(profile.token);
    for (const c of checks) {
      c.message = redact(c.message);
      if (c.fix) c.fix = redact(c.fix);
    }
  }
  const code = worstExitCode(checks.filter((c) => c.status === 'fail').map((c) => c.exitCode ?? ExitCode.FAILURE));
  await writeRecord(ctx.io, ctx.io.stdout, { ok: code === 0, exitCode: code, checks }, opts.out, { table: () => renderChecks(checks, ctx) });
  return code;
}

class NoCachedCopy extends Error {}
