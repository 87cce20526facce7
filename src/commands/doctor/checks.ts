// The checks of `partner doctor`, one function each, and how they are shown
// (the run itself, in order: ./doctor.run.ts).
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode } from '../../errors.js';
import { readConfigFile } from '../../config/file.js';
import { formatPairs } from '../../output/key-value.js';
import { configDir, configFile } from '../../config/paths.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { readJournal } from '../../webhooks/journal.js';
import { asidePath, readAside } from '../../webhooks/journal-aside.js';
import { untrustedReason } from '../../webhooks/trust.js';
import type { ResolvedProfile } from '../../config/resolve.js';
import type { TokenStore } from '../../config/token-store.js';
import { wordsFor } from '../../config/keyring-words.js';
import { noProxyMatches, proxyVariable } from '../../api/proxy-env.js';
import { isLoopback } from '../../api/urls.js';

export const MIN_NODE = [20, 18, 0] as const;
/** Clock skew against the server's Date header above this is reported. */
export const MAX_SKEW_S = 60;

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

export function mode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

export const octal = (m: number) => `0${m.toString(8).padStart(3, '0')}`;

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
  const file = configFile(env);
  const dirMode = mode(dir);
  const fileMode = mode(file);
  const state = { file, dir, fileMode, dirMode };
  if (fileMode === undefined) {
    return { ...state, check: { name: 'config file', status: 'skip', message: `none yet at ${file}`, fix: 'Profiles are saved by `partner auth login --base-url URL`; PARTNER_TOKEN and PARTNER_BASE_URL work without one.' } };
  }
  // The same reader and checks as every command (config/file.ts): what doctor passes, they accept.
  try {
    readConfigFile(file);
  } catch (err) {
    const why = err instanceof CliError ? err.message : `${file} cannot be read: ${(err as Error).message}`;
    return { ...state, check: { name: 'config file', status: 'fail', message: why, fix: `Fix or remove ${file}, then run \`partner auth login\` again.`, exitCode: ExitCode.FAILURE } };
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

export const SOURCE: Record<string, string> = { flag: 'from a flag', env: 'from the environment', profile: 'from the config file', sandbox: 'the embedded sandbox', none: 'default' };

/**
 * Proxy variables in use, credentials masked, and whether the base URL goes
 * through one: by the client's rules (api/proxy-env.ts; loopback always
 * direct), read from the CLI's `env`.
 */
export function checkProxy(env: NodeJS.ProcessEnv, baseUrl?: string): Check {
  const pick = (lower: string, upper: string) => (env[lower] ? { name: lower, value: env[lower] } : env[upper] ? { name: upper, value: env[upper] } : undefined);
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
  let via = '';
  if (baseUrl) {
    try {
      const u = new URL(baseUrl);
      const proxyVar = proxyVariable(u.protocol, env);
      if (!proxyVar) via = `; ${u.host} is reached directly`;
      else if (noProxyMatches(u, env)) via = `; ${u.host} bypasses the proxy (NO_PROXY)`;
      else if (isLoopback(u.hostname)) via = `; ${u.host} is loopback, reached directly whatever the proxy`;
      else via = `; ${u.host} goes through ${proxyVar.name}`;
    } catch {
      // An invalid base URL is reported by its own check.
    }
  }
  return { name: 'proxy', status: 'ok', message: `${shown.join(', ')}${via}` };
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

export function describeError(err: unknown): string {
  if (err instanceof ApiError) return `HTTP ${err.status} ${err.apiCode ?? ''} ${err.message}${err.correlationId ? ` (correlation id ${err.correlationId})` : ''}`.replace(/\s+/g, ' ').trim();
  return (err as Error).message;
}

export function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}



/** Age of a key from iat/nbf (seconds since epoch), when the JWKS publishes one. */
export function keyAge(jwk: Record<string, unknown>, now: number): number | null {
  const t = typeof jwk.iat === 'number' ? jwk.iat : typeof jwk.nbf === 'number' ? jwk.nbf : undefined;
  return t === undefined ? null : Math.max(0, Math.round(now / 1000 - t));
}

export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

/** A `webhook listen --spool` directory: its events, the undelivered ones, and journal lines that could not be read (kept aside). Read-only. */
export async function checkSpool(dir: string): Promise<Check> {
  const name = 'spool';
  if (mode(dir) === undefined) return { name, status: 'fail', message: `${dir} does not exist`, fix: 'Pass the directory given to `partner webhook listen --spool`.', exitCode: ExitCode.FAILURE };
  const why = untrustedReason(dir);
  if (why) return { name, status: 'fail', message: `${dir}: ${why}`, fix: `A spool must be a directory you own that only you can write to (\`chmod 700 ${dir}\`).`, exitCode: ExitCode.FAILURE };
  try {
    const state = await readJournal(dir);
    const aside = await readAside(dir);
    const undelivered = state.events.filter((e) => !state.deliveredIds.has(e.id)).length;
    const parked = state.parked.size;
    const base = `${dir}: ${state.events.length} event(s) in the journal, ${undelivered} undelivered${parked > 0 ? ` (${parked} parked)` : ''}`;
    const details = { events: state.events.length, undelivered, parked, unreadableInJournal: state.unreadable, keptAside: aside.count, keptAsideOffsets: aside.offsets.slice(0, 100) };
    if (aside.count === 0 && state.unreadable === 0 && parked === 0) return { name, status: 'ok', message: `${base}; every line readable`, details };
    // Dead letters: the target refused them until --max-attempts ran out, or said abort.
    if (aside.count === 0 && state.unreadable === 0) return { name, status: 'warn', message: `${base}; every line readable`, fix: `Parked events are not forwarded again: fix what the target refuses in them, then \`partner webhook replay --spool ${dir} --failed\`.`, details };
    const parts: string[] = [];
    if (aside.count > 0) {
      const shown = aside.offsets.slice(0, 5).join(', ');
      parts.push(`${aside.count} unreadable journal line(s) kept aside in ${asidePath(dir)}${shown ? ` (offsets ${shown}${aside.offsets.length > 5 ? ', …' : ''})` : ''}`);
    }
    if (state.unreadable > 0) parts.push(`${state.unreadable} unreadable line(s) still in the journal (set aside at the next start of \`webhook listen --spool ${dir}\`)`);
    return {
      name,
      status: 'warn',
      message: `${base}; ${parts.join('; ')}`,
      fix: `Each such line held an acknowledged event or its delivery state, damaged on disk: the receiver cannot deliver it. Read it in ${asidePath(dir)} (text, or base64 when it is not UTF-8), deliver what it held by hand or ask the sender to send it again, then move that file away.`,
      details,
    };
  } catch (err) {
    return { name, status: 'fail', message: `${dir}: ${(err as Error).message}`, exitCode: ExitCode.FAILURE };
  }
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

/**
 * Where the active profile's token lives, and whether the system keyring
 * answers: a login stores the token there, and refuses when it cannot.
 * The keyring is probed (one read of an entry that does not exist) unless the
 * token was just read from it.
 */
export async function checkTokenStorage(profile: ResolvedProfile, tokens: () => Promise<TokenStore>, debug = false): Promise<Check> {
  const name = 'keyring';
  if (profile.tokenStorage === 'sandbox') return { name, status: 'skip', message: 'not used by the embedded sandbox' };
  if (profile.tokenStorage === 'keyring') {
    const problem = profile.tokenProblem;
    if (problem) return { name, status: 'fail', message: problem.message, fix: problem.hint, exitCode: problem.exitCode };
    return { name, status: 'ok', message: `the token of profile "${profile.name}" is kept in the system keyring, and was read from it` };
  }
  const store = await tokens();
  const unreachable = await store.probe();
  // In partner's words; the library's own text only with --debug.
  const words = unreachable ? wordsFor(unreachable) : undefined;
  const keyring = words ? `the system keyring cannot be reached: ${words.what}` : 'the system keyring answers';
  const details = { storage: profile.tokenStorage, keyringReachable: !unreachable, service: store.service, ...(unreachable ? { keyringProblem: unreachable.problem } : {}), ...(debug && unreachable ? { keyringSaid: unreachable.message } : {}) };
  if (profile.tokenStorage === 'environment') return { name, status: 'ok', message: `the token comes from PARTNER_TOKEN (the saved profile's is not used); ${keyring}`, details };
  const move = '`partner auth token | partner auth login --with-token` moves the token into it.';
  if (profile.tokenStorage === 'file') {
    return { name, status: 'warn', message: `the token of profile "${profile.name}" is in the config file, not the system keyring; ${keyring}`, fix: words ? `${words.fix}; then ${move}` : move, details };
  }
  if (words) return { name, status: 'warn', message: `no token saved; ${keyring}, so \`partner auth login\` would refuse to save one`, fix: `${words.fix}; or log in with --insecure-storage to keep the token in a 0600 file.`, details };
  return { name, status: 'ok', message: `no token saved; ${keyring} (\`partner auth login\` stores the token there)`, details };
}
