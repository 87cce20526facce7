// Native addons inside the single-file executable (scripts/build-binary.mjs).
// A Node single executable application cannot require() a file of its own:
// each native addon it needs (@napi-rs/keyring) is shipped as an asset,
// written once to a private directory of the user's cache and loaded from
// there with process.dlopen. What is loaded is exactly what was shipped:
// - the directory is the user's own, 0700, no symbolic link; and so that no
//   one else can swap it (rename it, or a directory above it, for one of
//   theirs) between the check and the load, its parent is the user's own and
//   every directory above is the user's or root's and writable by no one
//   else, a sticky one (/tmp) excepted where the directory below it is the
//   user's: an XDG_CACHE_HOME in a shared directory where another user made
//   `partner/` first is refused, saying what to do;
// - the file is named by the SHA-256 of the asset and read back through a
//   descriptor opened without following links; its hash must match, or it is
//   written again (a damaged or edited copy is never loaded); on Linux that
//   same open descriptor is what is loaded (/proc/self/fd), not the path;
// - a copy is written to a temporary name and renamed into place, so two
//   processes at once, a full disk or a kill halfway leave no half library.
// Outside the executable (npm installs) every function here answers undefined
// and the package is imported as usual.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync, fsyncSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isSingleExecutable, runningSea, type SeaAssets as AllSeaAssets } from './sea-assets.js';

/** The part of node:sea used here (injected by tests). */
export type SeaAssets = Pick<AllSeaAssets, 'isSea' | 'getRawAsset'>;

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
  const sea = opts.sea ?? runningSea();
  if (!sea || !isSingleExecutable(sea)) return undefined;
  const bytes = Buffer.from(sea.getRawAsset(addonAssetKey(pkg)));
  const file = extractAddon(bytes, privateAddonDir(typeof opts.baseDir === 'function' ? opts.baseDir() : opts.baseDir));
  const fd = openIntact(file, sha256(bytes));
  if (fd === undefined) throw new Error(`${file} changed after it was checked: partner will not load it`);
  try {
    const module = { exports: {} as T };
    // The descriptor just checked, where the system can name it: the file loaded is the one hashed.
    const byFd = `/proc/self/fd/${fd}`;
    process.dlopen(module, process.platform === 'linux' && existsSync(byFd) ? byFd : file);
    return module.exports;
  } finally {
    closeSync(fd);
  }
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** `dir`, made if missing, checked: a directory (not a link), the user's own, no access for others, and no one else can swap it. */
export function privateAddonDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const problem = !st.isDirectory() ? 'is not a directory (a symbolic link?)' : notPrivate(st);
  if (problem) throw notLoaded(dir, problem);
  const unsafe = unsafeParent(resolve(dir));
  if (unsafe) throw notLoaded(unsafe.dir, unsafe.problem);
  return dir;
}

function notLoaded(dir: string, problem: string): Error {
  return new Error(`${dir} ${problem}: partner will not load a native module from there. Remove it, or set PARTNER_CACHE_DIR to a directory of your own.`);
}

/**
 * The first directory above `dir` through which another user could swap it,
 * and why; undefined when there is none. The parent must be the user's own;
 * every directory above, the user's or root's, writable by no one else, or
 * sticky and root's with the user's own directory below it (the sticky bit
 * keeps others from renaming what they do not own). Both the path as given
 * and the path its links lead to are checked.
 */
export function unsafeParent(dir: string, uid = process.getuid?.()): { dir: string; problem: string } | undefined {
  if (uid === undefined || process.platform === 'win32') return undefined; // the profile's ACL
  for (const path of new Set([dir, realpathSync(dir)])) {
    for (let child = path, parent = dirname(path); child !== parent; child = parent, parent = dirname(parent)) {
      const problem = unsafeAncestor(lstatSync(parent), lstatSync(child).uid, uid, child === path);
      if (problem) return { dir: parent, problem };
    }
  }
  return undefined;
}

function unsafeAncestor(st: { uid: number; mode: number; isSymbolicLink(): boolean }, childUid: number, uid: number, directParent: boolean): string | undefined {
  if (directParent && st.uid !== uid) return "holds partner's native directory but belongs to another user";
  if (st.uid !== uid && st.uid !== 0) return 'belongs to another user';
  if (st.isSymbolicLink()) return undefined; // its target is checked as part of the real path
  if (!(st.mode & 0o022)) return undefined;
  // Sticky and root's, like /tmp: only the owner of the directory below (the user, or root) can rename it.
  if (st.mode & 0o1000 && st.uid === 0 && (childUid === uid || childUid === 0) && !directParent) return undefined;
  return `can be written by other users (mode ${(st.mode & 0o7777).toString(8)})`;
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
  const fd = openIntact(file, hash);
  if (fd === undefined) return false;
  closeSync(fd);
  return true;
}

/** `file` opened without following links, when it is intact (see intact); the caller closes it. */
function openIntact(file: string, hash: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  let ok = false;
  try {
    const st = fstatSync(fd);
    ok = st.isFile() && !notPrivate({ uid: st.uid, mode: st.mode & 0o022 }) && sha256(readFileSync(fd)) === hash;
    return ok ? fd : undefined;
  } finally {
    if (!ok) closeSync(fd);
  }
}
