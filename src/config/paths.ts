import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';

const APP = 'partner';

/** The profile used when none is named (here, not in store.ts: resolving a profile from the environment must not load the config library). */
export const DEFAULT_PROFILE = 'default';

/**
 * Where partner's files may not be placed: a relative directory is relative to
 * wherever the command happens to run, so a `config.json` (or key cache)
 * planted in that directory would be read as partner's own.
 */
function notAbsolute(variable: string, value: string): CliError {
  return new CliError(`${variable} is "${value.slice(0, 200)}", not an absolute path; partner keeps its files only under absolute paths`, {
    code: 'RELATIVE_STATE_PATH',
    exitCode: ExitCode.USAGE,
    hint: `Set ${variable} to an absolute path (for example "$PWD/${value.slice(0, 60)}"), or unset it.`,
  });
}

/**
 * The user's home directory, always absolute. An empty or relative HOME
 * (USERPROFILE on Windows) is not used (`HOME=` would put partner's files in
 * the current directory): the account's home from the password database is,
 * and when there is none either, a clear error.
 */
export function homeDir(env: NodeJS.ProcessEnv, account: () => string = accountHome): string {
  const fromEnv = process.platform === 'win32' ? env.USERPROFILE : env.HOME;
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  let home = '';
  try {
    home = account();
  } catch {
    // No entry in the password database (a container's arbitrary uid): the error below.
  }
  if (home && isAbsolute(home)) return home;
  throw new CliError(`No home directory: HOME is ${fromEnv === undefined ? 'not set' : fromEnv === '' ? 'empty' : `"${fromEnv.slice(0, 200)}", not an absolute path`} and the account has none`, {
    code: 'NO_HOME',
    exitCode: ExitCode.USAGE,
    hint: 'Set HOME to your home directory, or set PARTNER_CONFIG_DIR, PARTNER_CACHE_DIR and PARTNER_STATE_DIR to absolute paths.',
  });
}

function accountHome(): string {
  return userInfo().homedir;
}

/** An XDG base directory when it is set to an absolute path (the XDG spec: a relative one is invalid and ignored), else `fallback()`. */
function xdg(value: string | undefined, fallback: () => string): string {
  return value && isAbsolute(value) ? value : fallback();
}

/** A PARTNER_*_DIR override: absolute, or refused (never resolved against the current directory). */
function override(env: NodeJS.ProcessEnv, variable: string): string | undefined {
  const value = env[variable];
  if (!value) return undefined;
  if (!isAbsolute(value)) throw notAbsolute(variable, value);
  return value;
}

/** Where one kind of partner's files lives on each system. */
interface DirSpec {
  override: 'PARTNER_CONFIG_DIR' | 'PARTNER_CACHE_DIR' | 'PARTNER_STATE_DIR';
  /** Windows: the known folder's variable, its place under the home, and partner's subdirectory. */
  windows: { variable: 'APPDATA' | 'LOCALAPPDATA'; underHome: string[]; sub: string };
  /** macOS: under the home. */
  darwin: string[];
  /** Elsewhere: the XDG variable and its default under the home. */
  xdg: { variable: 'XDG_CONFIG_HOME' | 'XDG_CACHE_HOME' | 'XDG_STATE_HOME'; underHome: string[] };
}

/** The directory of one kind of files: the override, else the system's place; always absolute. */
function dirFor(env: NodeJS.ProcessEnv, spec: DirSpec): string {
  const set = override(env, spec.override);
  if (set) return set;
  if (process.platform === 'win32') {
    const folder = env[spec.windows.variable];
    return join(folder && isAbsolute(folder) ? folder : join(homeDir(env), ...spec.windows.underHome), APP, spec.windows.sub);
  }
  if (process.platform === 'darwin') return join(homeDir(env), ...spec.darwin, APP);
  return join(xdg(env[spec.xdg.variable], () => join(homeDir(env), ...spec.xdg.underHome)), APP);
}

const CONFIG: DirSpec = {
  override: 'PARTNER_CONFIG_DIR',
  windows: { variable: 'APPDATA', underHome: ['AppData', 'Roaming'], sub: 'Config' },
  darwin: ['Library', 'Preferences'],
  xdg: { variable: 'XDG_CONFIG_HOME', underHome: ['.config'] },
};
const CACHE: DirSpec = {
  override: 'PARTNER_CACHE_DIR',
  windows: { variable: 'LOCALAPPDATA', underHome: ['AppData', 'Local'], sub: 'Cache' },
  darwin: ['Library', 'Caches'],
  xdg: { variable: 'XDG_CACHE_HOME', underHome: ['.cache'] },
};
const STATE: DirSpec = {
  override: 'PARTNER_STATE_DIR',
  windows: { variable: 'LOCALAPPDATA', underHome: ['AppData', 'Local'], sub: 'State' },
  darwin: ['Library', 'Application Support'],
  xdg: { variable: 'XDG_STATE_HOME', underHome: ['.local', 'state'] },
};

/** Where the config (profiles, tokens) and drafts live. PARTNER_CONFIG_DIR overrides (tests, portable setups). Always absolute. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return dirFor(env, CONFIG);
}

/** The config file (profiles, tokens not in the keyring, the pager) in configDir. */
export function configFile(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/** Where caches (the webhook key set) live. PARTNER_CACHE_DIR overrides. Always absolute. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return dirFor(env, CACHE);
}

/** Where state that outlives a run but is no cache lives (the audit log). PARTNER_STATE_DIR overrides. Always absolute. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return dirFor(env, STATE);
}
