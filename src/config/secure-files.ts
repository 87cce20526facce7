import { chmodSync, mkdirSync, statSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Creates dir (and parents) private to the user; tightens it if it exists wider. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32') return;
  const mode = statSync(dir).mode & 0o777;
  if (mode & 0o077) chmodSync(dir, PRIVATE_DIR);
}

/**
 * If path exists with group/other permission bits, tightens it to 0600 and
 * returns true so the caller can warn. Never widens anything.
 */
export function tightenIfWide(path: string): boolean {
  if (process.platform === 'win32') return false;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
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
