import { chmodSync, mkdirSync, statSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Whether the file's owner is the user running partner (root may chmod anybody's file: it must not). */
function ours(uid: number): boolean {
  const me = process.geteuid?.();
  return me === undefined || uid === me;
}

/** Creates dir (and parents) private to the user; tightens it if it exists wider and is ours (never another user's). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  if (st.mode & 0o077 && ours(st.uid)) chmodSync(dir, PRIVATE_DIR);
}

/**
 * If path exists with group/other permission bits, tightens it to 0600 and
 * returns true so the caller can warn. Never widens anything, and never
 * touches a file another user owns (it is not partner's to change).
 */
export function tightenIfWide(path: string): boolean {
  if (process.platform === 'win32') return false;
  let mode: number;
  try {
    const st = statSync(path);
    if (!ours(st.uid)) return false;
    mode = st.mode & 0o777;
  } catch {
    return false;
  }
  if ((mode & 0o077) === 0) return false;
  chmodSync(path, PRIVATE_FILE);
  return true;
}

/** Writes a private file atomically: temp file 0600 in the same dir, then rename. */
export function writePrivateFile(path: string, data: string): void {
  ensurePrivateDir(dirname(path));
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, data, { mode: PRIVATE_FILE });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
