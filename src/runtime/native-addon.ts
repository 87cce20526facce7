// Native addons inside the single-file executable (scripts/build-binary.mjs).
// A Node single executable application cannot require() a file of its own:
// each native addon it needs (@napi-rs/keyring) is shipped as an asset,
// written once to a private directory of the user's cache and loaded from
// there with process.dlopen. What is loaded is exactly what was shipped:
// - the directory is the user's own, 0700, and no symbolic link (another user
//   who could write there, or point it elsewhere, could swap the library);
// - the file is named by the SHA-256 of the asset and read back through a
//   descriptor opened without following links; its hash must match, or it is
//   written again (a damaged or edited copy is never loaded);
// - a copy is written to a temporary name and renamed into place, so two
//   processes at once, a full disk or a kill halfway leave no half library.
// Outside the executable (npm installs) every function here answers undefined
// and the package is imported as usual.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync, fsyncSync } from 'node:fs';
import { join } from 'node:path';
import { isSingleExecutable, nodeSea, type SeaAssets } from './sea.js';

export type { SeaAssets } from './sea.js';


/** The asset key of a package's addon in the executable (scripts/build-binary.mjs uses the same). */
export function addonAssetKey(pkg: string): string {
  return `native/${pkg}.node`;
}


export interface AddonOptions {
  sea?: SeaAssets;
  /** Where the private directory is made (the caller's choice: the user's cache, config/paths.ts); a function is asked only inside the executable. */
  baseDir: string | (() => string);
}

/**
 * The exports of the native addon shipped for `pkg` when running as the
 * single executable; undefined otherwise (import the package as usual).
 * Throws when the private directory is not private (a message saying what
 * to fix), or the asset is missing from the executable.
 */
export function seaNativeAddon<T>(pkg: string, opts: AddonOptions): T | undefined {
  const sea = opts.sea ?? nodeSea();
  if (!sea || !isSingleExecutable(sea)) return undefined;
  const bytes = Buffer.from(sea.getRawAsset(addonAssetKey(pkg)));
  const file = extractAddon(bytes, privateAddonDir(typeof opts.baseDir === 'function' ? opts.baseDir() : opts.baseDir));
  const module = { exports: {} as T };
  process.dlopen(module, file);
  return module.exports;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** `dir`, made if missing, checked: a directory (not a link), the user's own, no access for others. */
export function privateAddonDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const problem = !st.isDirectory() ? 'is not a directory (a symbolic link?)' : notPrivate(st);
  if (problem) throw new Error(`${dir} ${problem}: partner will not load a native module from there. Remove it, or set PARTNER_CACHE_DIR to a directory of your own.`);
  return dir;
}

function notPrivate(st: { uid: number; mode: number }): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined; // the profile's ACL
  if (st.uid !== process.getuid()) return 'belongs to another user';
  if (st.mode & 0o077) return `is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The path of `bytes` in `dir` as `<sha256>.node`: an intact copy there is reused, anything else replaced. */
export function extractAddon(bytes: Buffer, dir: string): string {
  const hash = sha256(bytes);
  const file = join(dir, `${hash}.node`);
  if (intact(file, hash)) return file;
  const tmp = join(dir, `.${hash}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o500);
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A link or file put where the copy goes is replaced by rename, never followed.
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  if (!intact(file, hash)) throw new Error(`${file} changed while it was written: partner will not load it`);
  return file;
}

/** A regular file, the user's own, not writable by others, whose bytes hash to `hash`. */
function intact(file: string, hash: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return false;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || notPrivate({ uid: st.uid, mode: st.mode & 0o022 })) return false;
    return sha256(readFileSync(fd)) === hash;
  } finally {
    closeSync(fd);
  }
}
