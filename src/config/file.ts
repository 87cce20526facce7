// The config file (profiles and tokens) as found on disk: read bounded,
// never through a symbolic link, checked member by member. A damaged file is
// named with what is wrong and how to fix it; its content (tokens) is never
// shown. This is the gate in front of conf, which stores the file
// (conf-engine.ts): every read, ours and conf's, is this one; doctor uses the
// same checks.
import { readFully } from '../input.js';
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import { CliError, ExitCode } from '../errors.js';

export interface Profile {
  baseUrl?: string;
  /** In the file only for --insecure-storage and for profiles saved before the keyring (token-store.ts). */
  token?: string;
  /** false: this profile's writes are not recorded in the audit log. */
  audit?: boolean;
  /** "keyring": the token is in the operating system's keyring, not in this file. */
  tokenStorage?: 'keyring';
}

export interface ConfigData {
  activeProfile?: string;
  /** The pager for output taller than the terminal ("" or "cat": none), as gh's `pager` key: PARTNER_PAGER wins, PAGER comes after. */
  pager?: string;
  /** No prototype: a profile named "__proto__" or "constructor" is just a name. */
  profiles: Record<string, Profile>;
}

/** Far above any real config (a few hundred bytes a profile). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export const emptyConfig = (): ConfigData => ({ profiles: Object.create(null) as Record<string, Profile> });

/** A damaged config file: which, what is wrong, how to fix it. */
export function damagedConfig(path: string, what: string): CliError {
  return new CliError(`The config file ${path} is damaged: ${what}`, {
    code: 'CONFIG_DAMAGED',
    exitCode: ExitCode.FAILURE,
    hint: `Fix it in an editor, or move it away and log in again: \`mv ${path} ${path}.bak && partner auth login --base-url URL\` (doctor checks it: \`partner doctor\`).`,
  });
}

/**
 * What is wrong with the text of a config file, or its content. Shapes are
 * described by their type only: the values are secrets.
 */
export function parseConfig(text: string): { ok: true; config: ConfigData } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: false, problem: 'it is empty' };
  let raw: unknown;
  const json = text.replace(/^\uFEFF/, '');
  try {
    raw = JSON.parse(json);
  } catch (err) {
    // JSON.parse quotes the text around the error: never shown (tokens). Where it stopped tells a cut file.
    const msg = (err as Error).message;
    const at = /at position (\d+)/.exec(msg);
    const cut = /end of (JSON )?input|Unterminated string/i.test(msg) || (at !== null && Number(at[1]) >= json.trimEnd().length);
    return { ok: false, problem: cut ? 'it ends in the middle (cut short: a full disk or an interrupted edit?)' : 'it is not valid JSON (edited by hand?)' };
  }
  if (!isObject(raw)) return { ok: false, problem: `it holds ${typeName(raw)}, not an object with "profiles"` };
  const config = emptyConfig();
  if (raw.activeProfile !== undefined) {
    if (typeof raw.activeProfile !== 'string') return { ok: false, problem: `"activeProfile" is ${typeName(raw.activeProfile)}, not a profile name (a string)` };
    config.activeProfile = raw.activeProfile;
  }
  if (raw.pager !== undefined) {
    if (typeof raw.pager !== 'string') return { ok: false, problem: `"pager" is ${typeName(raw.pager)}, not a command (a string; "" for none)` };
    config.pager = raw.pager;
  }
  if (raw.profiles !== undefined) {
    if (!isObject(raw.profiles)) return { ok: false, problem: `"profiles" is ${typeName(raw.profiles)}, not an object of profiles by name` };
    for (const [name, p] of Object.entries(raw.profiles)) {
      // Escaped: the name comes from the file (control characters).
      const label = `profile ${JSON.stringify(name.slice(0, 40))}${name.length > 40 ? '…' : ''}`;
      if (!isObject(p)) return { ok: false, problem: `${label} is ${typeName(p)}, not an object with "baseUrl" and "token"` };
      const profile: Profile = {};
      for (const key of ['baseUrl', 'token'] as const) {
        if (p[key] === undefined) continue;
        if (typeof p[key] !== 'string') return { ok: false, problem: `"${key}" of ${label} is ${typeName(p[key])}, not a string` };
        profile[key] = p[key];
      }
      if (p.audit !== undefined) {
        if (typeof p.audit !== 'boolean') return { ok: false, problem: `"audit" of ${label} is ${typeName(p.audit)}, not true or false` };
        profile.audit = p.audit;
      }
      if (p.tokenStorage !== undefined) {
        if (p.tokenStorage !== 'keyring') return { ok: false, problem: `"tokenStorage" of ${label} is ${typeof p.tokenStorage === 'string' ? 'not "keyring"' : typeName(p.tokenStorage)} (the only value partner writes)` };
        profile.tokenStorage = 'keyring';
      }
      config.profiles[name] = profile;
    }
  }
  return { ok: true, config };
}

/**
 * Reads and checks the config file; an absent one is empty. Symbolic links are
 * refused, never followed. `seen` is told the owner and mode of the file read
 * (from its open descriptor: the file whose text is returned).
 */
export function readConfigFile(path: string, seen?: (st: { uid: number; mode: number }) => void): ConfigData {
  refuseSymlink(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return emptyConfig();
    if (code === 'ELOOP') refuseSymlink(path, true);
    throw cannotRead(path, code ?? (err as Error).message);
  }
  let text: string;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw damagedConfig(path, 'it is not a regular file');
    seen?.(st);
    if (st.size > MAX_CONFIG_BYTES) throw damagedConfig(path, `it is ${st.size} bytes, more than a config file can be (${MAX_CONFIG_BYTES})`);
    // One byte more than it said it had: a file still growing past the bound is seen as too large.
    const buf = readFully(fd, st.size + 1);
    if (buf.length > MAX_CONFIG_BYTES) throw damagedConfig(path, `it is more than ${MAX_CONFIG_BYTES} bytes, more than a config file can be`);
    text = buf.toString('utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw cannotRead(path, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
  } finally {
    closeSync(fd);
  }
  const r = parseConfig(text);
  if (!r.ok) throw damagedConfig(path, r.problem);
  return r.config;
}

/** A system error code in words (the code stays, for searching). */
export function errnoText(code: string): string {
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOTDIR: 'a part of the path is a file, not a directory',
    EISDIR: 'it is a directory',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the disk',
    EDQUOT: 'disk quota exceeded',
  };
  return words[code] ? `${code} (${words[code]})` : code;
}

function cannotRead(path: string, why: string): CliError {
  return new CliError(`Cannot read the config file ${path}: ${errnoText(why)}`, {
    code: 'CONFIG_UNREADABLE',
    exitCode: ExitCode.FAILURE,
    hint: `Check its owner and permissions (\`ls -l ${path}\`), or point PARTNER_CONFIG_DIR at a directory you own.`,
  });
}

/**
 * The config file holds tokens: a symbolic link in its place would make every
 * save write them wherever the link points (another user's file, a shared
 * directory). Refused, never followed.
 */
export function refuseSymlink(path: string, known = false): void {
  let isLink = known;
  try {
    isLink ||= lstatSync(path).isSymbolicLink();
  } catch {
    return; // absent: created as a regular file
  }
  if (!isLink) return;
  let target = '';
  try {
    target = ` (to ${readlinkSync(path)})`;
  } catch {
    // unreadable link: still refused
  }
  throw new CliError(`Refusing the config file ${path}: it is a symbolic link${target}; tokens are never written through a link`, {
    code: 'CONFIG_SYMLINK',
    exitCode: ExitCode.FAILURE,
    hint: `Remove the link and log in again (\`rm ${path} && partner auth login\`), or point PARTNER_CONFIG_DIR at a private directory.`,
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
