// `partner doctor`: checks the set-up a command depends on, one line each,
// OK or a fix. Read-only except for what any command does anyway (opening
// the config tightens a too-wide file, and says so). Exit code: the worst
// failure's (3 no/refused token, 4 forbidden, 1 anything else); warnings
// alone exit 0.
import type { OptionsOf } from '../../command.js';
import type { doctor } from './doctor.js';
import { outputOptions } from '../../output/options.js';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode, NetworkError, UsageError, worstExitCode } from '../../errors.js';
import { formatPairs } from '../../output/key-value.js';
import { checkBaseUrl, type HttpClient } from '../../api/http.js';
import { configDir, cacheDir } from '../../config/paths.js';
import { maskSecret, type ResolvedProfile } from '../../config/resolve.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
import { writeRecord } from '../../output/writer.js';
import { secretRedactor } from '../../api/redact.js';
import { cacheSecret } from '../../webhooks/cache-secret.js';

export const MIN_NODE = [20, 18, 0] as const;
/** Clock skew against the server's Date header above this is reported. */
export const MAX_SKEW_S = 60;

export type DoctorOptions = OptionsOf<typeof doctor>;

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  name: string;
  status: Status;
  message: string;
  /** What to do about a warning or failure. */
  fix?: string;
  /** The exit code this failure stands for. */
  exitCode?: number;
  details?: Record<string, unknown>;
}


/** Compares dotted versions: negative when a < b. */
export function compareVersions(a: string, b: readonly number[]): number {
  const pa = a.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < b.length; i++) {
    const d = (pa[i] ?? 0) - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

function mode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

const octal = (m: number) => `0${m.toString(8).padStart(3, '0')}`;

export function checkNode(version: string): Check {
  const need = MIN_NODE.slice(0, 2).join('.');
  if (compareVersions(version, MIN_NODE) >= 0) return { name: 'Node.js', status: 'ok', message: `v${version.replace(/^v/, '')} (${need} or newer needed)` };
  return { name: 'Node.js', status: 'fail', message: `v${version.replace(/^v/, '')} is too old`, fix: `Install Node.js ${need} or newer (https://nodejs.org), then run \`npm ci\` again.`, exitCode: ExitCode.FAILURE };
}

interface ConfigState {
  check: Check;
  file: string;
  dir: string;
  fileMode?: number;
  dirMode?: number;
}

/** The config file and directory as found, before anything opens them. */
export function checkConfig(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ConfigState {
  const dir = configDir(env);
  const file = join(dir, 'config.json');
  const dirMode = mode(dir);
  const fileMode = mode(file);
  const state = { file, dir, fileMode, dirMode };
  if (fileMode === undefined) {
    return { ...state, check: { name: 'config file', status: 'skip', message: `none yet at ${file}`, fix: 'Profiles are saved by `partner auth login --base-url URL`; PARTNER_TOKEN and PARTNER_BASE_URL work without one.' } };
  }
  try {
    JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? 'not valid JSON';
    return { ...state, check: { name: 'config file', status: 'fail', message: `${file} cannot be read: ${why}`, fix: `Fix or remove ${file}, then run \`partner auth login\` again.`, exitCode: ExitCode.FAILURE } };
  }
  if (platform !== 'win32') {
    const wide: string[] = [];
    const fixes: string[] = [];
    if ((fileMode & 0o077) !== 0) {
      wide.push(`the file is ${octal(fileMode)}`);
      fixes.push(`chmod 600 ${file}`);
    }
    if (dirMode !== undefined && (dirMode & 0o077) !== 0) {
      wide.push(`the directory is ${octal(dirMode)}`);
      fixes.push(`chmod 700 ${dir}`);
    }
    if (wide.length > 0) {
      return { ...state, check: { name: 'config file', status: 'fail', message: `${file}: ${wide.join(', ')}; others can read your tokens`, fix: `Run \`${fixes.join(' && ')}\`.`, exitCode: ExitCode.FAILURE } };
    }
  }
  return { ...state, check: { name: 'config file', status: 'ok', message: `${file} (file ${octal(fileMode)}, directory ${dirMode === undefined ? '?' : octal(dirMode)})` } };
}

const SOURCE: Record<string, string> = { flag: 'from a flag', env: 'from the environment', profile: 'from the config file', sandbox: 'the embedded sandbox', none: 'default' };

/** Proxy variables in use (as undici reads them), credentials masked, and whether the base URL goes through one. */
export function checkProxy(env: NodeJS.ProcessEnv, baseUrl?: string): Check {
  const pick = (lower: string, upper: string) => (env[lower] !== undefined ? { name: lower, value: env[lower]! } : env[upper] !== undefined ? { name: upper, value: env[upper]! } : undefined);
  const vars = [pick('https_proxy', 'HTTPS_PROXY'), pick('http_proxy', 'HTTP_PROXY'), pick('no_proxy', 'NO_PROXY')].filter((v): v is { name: string; value: string } => v !== undefined && v.value !== '');
  if (vars.length === 0) return { name: 'proxy', status: 'ok', message: 'none set (HTTPS_PROXY, HTTP_PROXY, NO_PROXY): direct connections' };
  const shown: string[] = [];
  const bad: string[] = [];
  for (const v of vars) {
    if (/no_proxy/i.test(v.name)) {
      shown.push(`${v.name}=${v.value}`);
      continue;
    }
    const masked = maskProxyUrl(v.value);
    if (masked === undefined) bad.push(v.name);
    shown.push(`${v.name}=${masked ?? '(not a URL)'}`);
  }
  if (bad.length > 0) {
    return { name: 'proxy', status: 'fail', message: `${shown.join(', ')}`, fix: `Set ${bad.join(' and ')} to a URL such as http://proxy.example.com:3128, or unset it.`, exitCode: ExitCode.FAILURE };
  }
  let route = '';
  if (baseUrl) {
    try {
      const u = new URL(baseUrl);
      const proxyVar = u.protocol === 'https:' ? (pick('https_proxy', 'HTTPS_PROXY') ?? pick('http_proxy', 'HTTP_PROXY')) : pick('http_proxy', 'HTTP_PROXY');
      const noProxy = pick('no_proxy', 'NO_PROXY')?.value ?? '';
      if (!proxyVar || proxyVar.value === '') route = `; ${u.host} is reached directly`;
      else if (bypassed(u, noProxy)) route = `; ${u.host} bypasses the proxy (NO_PROXY)`;
      else route = `; ${u.host} goes through ${proxyVar.name}`;
    } catch {
      // An invalid base URL is reported by its own check.
    }
  }
  return { name: 'proxy', status: 'ok', message: `${shown.join(', ')}${route}` };
}

/** Shows a proxy URL with any user name and password replaced; undefined when it is not an http(s) URL. */
export function maskProxyUrl(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  // "proxy.corp:3128" parses as a URL with the scheme "proxy.corp:"; a proxy needs http(s)://.
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password) {
    u.username = '***';
    if (u.password) u.password = '***';
  }
  return u.toString().replace(/\/$/, '');
}

/** The NO_PROXY rule of undici's EnvHttpProxyAgent. */
function bypassed(url: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const m = /^(.+):(\d+)$/.exec(entry);
    const h = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase().replace(/^\[|\]$/g, '');
    if (m && Number(m[2]) !== port) continue;
    if (host === h || host.endsWith(`.${h}`)) return true;
  }
  return false;
}

function describeError(err: unknown): string {
  if (err instanceof ApiError) return `HTTP ${err.status} ${err.apiCode ?? ''} ${err.message}${err.correlationId ? ` (correlation id ${err.correlationId})` : ''}`.replace(/\s+/g, ' ').trim();
  return (err as Error).message;
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

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
    if (!profile.token) {
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

  // Anything a server said (error bodies, headers) may echo the token: mask any run of 8+ of its characters.
  if (profile?.token) {
    const redact = secretRedactor(profile.token);
    for (const c of checks) {
      c.message = redact(c.message);
      if (c.fix) c.fix = redact(c.fix);
    }
  }
  const code = worstExitCode(checks.filter((c) => c.status === 'fail').map((c) => c.exitCode ?? ExitCode.FAILURE));
  await writeRecord(ctx.io, ctx.io.stdout, { ok: code === 0, exitCode: code, checks }, outputOptions(opts, ctx.io), { table: () => renderChecks(checks, ctx) });
  return code;
}

class NoCachedCopy extends Error {}

/** Age of a key from iat/nbf (seconds since epoch), when the JWKS publishes one. */
function keyAge(jwk: Record<string, unknown>, now: number): number | null {
  const t = typeof jwk.iat === 'number' ? jwk.iat : typeof jwk.nbf === 'number' ? jwk.nbf : undefined;
  return t === undefined ? null : Math.max(0, Math.round(now / 1000 - t));
}

export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

export function renderChecks(checks: Check[], ctx: Pick<Context, 'colors'> & { io?: { columns?: number } }): string {
  const c = ctx.colors;
  const label: Record<Status, string> = { ok: c.green('OK  '), warn: c.yellow('WARN'), fail: c.red('FAIL'), skip: c.dim('--  ') };
  const width = Math.max(...checks.map((k) => k.name.length));
  // One aligned block, messages wrapped at the terminal width (never mid-word); a fix goes under its message.
  const pairs: [string, string][] = [];
  for (const k of checks) {
    pairs.push([`${label[k.status]}  ${k.name.padEnd(width)}`, sanitizeTerminal(k.message)]);
    if (k.fix && k.status !== 'ok') pairs.push(['', `${c.dim('fix:')} ${sanitizeTerminal(k.fix)}`]);
  }
  const lines: string[] = [formatPairs(pairs, { width: ctx.io?.columns }).trimEnd()];
  const failed = checks.filter((k) => k.status === 'fail').length;
  const warned = checks.filter((k) => k.status === 'warn').length;
  lines.push('');
  lines.push(failed === 0 ? `All checks passed${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.` : `${failed} problem${failed > 1 ? 's' : ''} found${warned ? `, ${warned} warning${warned > 1 ? 's' : ''}` : ''}.`);
  return `${lines.join('\n')}\n`;
}
