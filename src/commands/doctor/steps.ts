// The checks of `partner doctor` that need the run's shared state (the
// profile, the HTTP client, whether the server answered), one named function
// each; the list and its order are in ./doctor.run.ts.
import { ApiError, CliError, ExitCode, UsageError } from '../../errors.js';
import { checkBaseUrl } from '../../api/http.js';
import { maskSecret, TOKEN_STORAGE_TEXT } from '../../config/resolve.js';
import { type Check, MAX_SKEW_S, SOURCE, checkConfig, checkNode, checkProxy, checkSpool, checkTokenStorage, describeError, mode, octal } from './checks.js';
import type { DoctorSession } from './session.js';

export const nodeVersion = (s: DoctorSession): Check => checkNode(s.ctx.system.node);

/**
 * The config file as found; then the profile is resolved, which opens it as
 * any command does and tightens a too-wide file: that is said as what
 * happened, rather than a chmod to run that is already done.
 */
export async function configFile(s: DoctorSession): Promise<Check> {
  const config = checkConfig(s.ctx.env);
  await s.resolveProfile();
  const check = config.check;
  if (check.status !== 'fail' || config.fileMode === undefined || (config.fileMode & 0o077) === 0) return check;
  const now = mode(config.file);
  const dirNow = mode(config.dir);
  if (now === undefined || (now & 0o077) !== 0 || (dirNow !== undefined && (dirNow & 0o077) !== 0)) return check;
  return {
    name: check.name,
    status: 'warn',
    message: `${config.file} was ${octal(config.fileMode)}; partner tightened it to ${octal(now)} just now`,
    fix: 'Check who could read it: tokens saved there may have leaked; log in again with a new token if so.',
  };
}

export function profile(s: DoctorSession): Check {
  if (s.profile) return { name: 'profile', status: 'ok', message: `"${s.profile.name}" (${SOURCE[s.profile.nameSource] ?? s.profile.nameSource})` };
  const err = s.profileError;
  return { name: 'profile', status: 'fail', message: describeError(err), fix: err instanceof CliError ? err.hint : undefined, exitCode: err instanceof CliError ? err.exitCode : ExitCode.FAILURE };
}

/** Set and valid (https, or loopback); whether the server answers on it is settled by `baseUrlAnswer`. */
export function baseUrl(s: DoctorSession): Check | undefined {
  const p = s.profile;
  if (!p) return undefined;
  if (!p.baseUrl) return { name: 'base URL', status: 'fail', message: 'none configured', fix: 'Run `partner auth login --base-url URL`, set PARTNER_BASE_URL, pass --base-url, or try --sandbox.', exitCode: ExitCode.FAILURE };
  try {
    checkBaseUrl(p.baseUrl);
  } catch (err) {
    return { name: 'base URL', status: 'fail', message: `${p.baseUrl}: ${(err as Error).message}`, fix: err instanceof UsageError ? (err.hint ?? 'Use an https:// URL (http:// only for loopback).') : undefined, exitCode: ExitCode.FAILURE };
  }
  s.baseUrl = p.baseUrl;
  s.baseCheck = { name: 'base URL', status: 'ok', message: `${p.baseUrl} (${SOURCE[p.baseUrlSource] ?? p.baseUrlSource})` };
  return s.baseCheck;
}

/** The HTTP client for the base URL (proxy settings, TLS options): a line only when it cannot be made. */
export async function connection(s: DoctorSession): Promise<Check | undefined> {
  if (!s.baseUrl) return undefined;
  try {
    s.http = await s.ctx.http();
    return undefined;
  } catch (err) {
    return { name: 'connection', status: 'fail', message: describeError(err), exitCode: ExitCode.FAILURE };
  }
}

/** Present, then accepted by one cheap call; named with where it is kept, in the words of `auth status`. */
export async function token(s: DoctorSession): Promise<Check | undefined> {
  const p = s.profile;
  if (!p) return undefined;
  // Set or saved, and cannot be used (a line break in PARTNER_TOKEN, a locked keyring): said as such.
  if (p.tokenProblem) return { name: 'token', status: 'fail', message: p.tokenProblem.message, fix: p.tokenProblem.hint, exitCode: p.tokenProblem.exitCode };
  if (!p.token) return { name: 'token', status: 'fail', message: `none for profile "${p.name}"`, fix: 'Run `partner auth login --base-url URL` (or `partner --profile NAME auth login …`), or set PARTNER_TOKEN.', exitCode: ExitCode.NOT_AUTHENTICATED };
  const shown = `${maskSecret(p.token)} (${TOKEN_STORAGE_TEXT[p.tokenStorage]})`;
  if (!s.http) return { name: 'token', status: 'skip', message: `${shown}; not checked without a valid base URL` };
  const { listEmployees } = await import('../../api/employees.js');
  try {
    await listEmployees(s.http, { pageSize: 1 }, s.ctx.signal);
    s.answered = true;
    return { name: 'token', status: 'ok', message: `${shown}, accepted by GET /v1/employees` };
  } catch (err) {
    if (err instanceof CliError && err.code === 'INTERRUPTED') throw err;
    s.noted(err);
    if (s.serverDown) return { name: 'token', status: 'skip', message: `${shown}; not checked: the server could not be reached` };
    const refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
    return {
      name: 'token',
      status: 'fail',
      message: `${maskSecret(p.token)} ${refused ? 'refused' : 'not checked'}: ${describeError(err)}`,
      fix: err instanceof CliError ? err.hint : undefined,
      exitCode: err instanceof CliError ? err.exitCode : ExitCode.FAILURE,
    };
  }
}

/** No line of its own: the base URL's line says whether the server answered any of the checks that called it. */
export function baseUrlAnswer(s: DoctorSession): undefined {
  const check = s.baseCheck;
  if (!check) return undefined;
  if (s.serverDown) {
    check.status = 'fail';
    check.message = `${check.message}: no answer: ${s.unreachable!.message}`;
    check.fix = s.unreachable!.hint ?? 'Check the base URL, your network and any proxy settings.';
    check.exitCode = ExitCode.FAILURE;
  } else if (s.answered) {
    check.message = `${check.message}, answering`;
  }
  return undefined;
}

/** Clock skew against the Date header of the key-set answer. */
export function clock(s: DoctorSession): Check {
  if (!s.serverDate) return { name: 'clock', status: 'skip', message: 'not checked: no answer with a Date header from the server' };
  const skew = Math.round((s.serverDate.date - s.serverDate.localMid) / 1000);
  const text = skew === 0 ? 'in step with the server (within 1 s)' : `${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the server`;
  if (Math.abs(skew) > MAX_SKEW_S) return { name: 'clock', status: 'warn', message: `this computer's clock is ${text}`, fix: 'Synchronise the clock (NTP, e.g. `timedatectl set-ntp true`): key-set cache ages and webhook timestamps depend on it.', details: { skewSeconds: skew } };
  return { name: 'clock', status: 'ok', message: `${text} (Date header)`, details: { skewSeconds: skew } };
}

export const proxy = (s: DoctorSession): Check => checkProxy(s.ctx.env, s.baseUrl);

export async function keyring(s: DoctorSession): Promise<Check | undefined> {
  return s.profile ? checkTokenStorage(s.profile, () => s.ctx.tokens(), s.ctx.globals.debug) : undefined;
}

export async function spool(s: DoctorSession): Promise<Check | undefined> {
  return s.opts.spool === undefined ? undefined : checkSpool(s.opts.spool);
}
