// A directory of partner's cache that compiled code may be run from: code
// found there is run, so nobody but the user may be able to put any there.
import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../config/paths.js';

/**
 * partner's cache directory (config/paths.ts), or `sub` in it, made 0700 if
 * missing, when each is a directory (not a link to one), the user's own and
 * closed to everyone else; undefined otherwise (no home, a relative
 * PARTNER_CACHE_DIR, another owner...). Throws nothing: a cache is speed, not function.
 */
export function privateCacheDir(env: NodeJS.ProcessEnv, sub?: string): string | undefined {
  try {
    const root = privateDir(cacheDir(env));
    return root && sub ? privateDir(join(root, sub)) : root;
  } catch {
    return undefined;
  }
}

function privateDir(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) return undefined;
  if (process.platform !== 'win32' && (st.uid !== process.getuid?.() || st.mode & 0o077)) return undefined;
  return dir;
}
