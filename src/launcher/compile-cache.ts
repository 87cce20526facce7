// Node's compile cache (module.enableCompileCache, Node >= 22.1) for the ES
// modules partner loads (the workers, ES module dependencies such as
// @inquirer/prompts), in <cache dir>/compile-cache: private to the user
// (private-dir.ts), never Node's default, a shared directory under /tmp.
//
// What Node checks itself (measured on Node 22 and 24 by flipping bytes at
// twelve offsets and by truncating its files): each file's header and a CRC32
// of its content; a damaged file is refused and written anew. What it does not:
// it opens its files blocking and following links, so a FIFO (or a link to
// one) at a file's place hung every start. Anything but a regular file in its
// directories is removed before the cache is turned on.
import Module from 'node:module';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { privateCacheDir } from './private-dir.js';

/** Turns the compile cache on in <cache dir>/compile-cache; returns that directory, or undefined when it stays off. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enable = (Module as { enableCompileCache?: (dir: string) => { status: number } }).enableCompileCache;
  if (typeof enable !== 'function' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const dir = privateCacheDir(env, 'compile-cache');
  if (dir === undefined) return undefined;
  try {
    removeSpecialFiles(dir);
    const failed = (Module as unknown as { constants: { compileCacheStatus: { FAILED: number } } }).constants.compileCacheStatus.FAILED;
    return enable(dir).status === failed ? undefined : dir;
  } catch {
    return undefined;
  }
}

/** Node's layout: <dir>/<Node version and flags>/<file hash>. Only directories, then only regular files, stay. */
export function removeSpecialFiles(dir: string): void {
  for (const version of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, version.name);
    if (!version.isDirectory()) {
      rmSync(path, { force: true });
      continue;
    }
    for (const entry of readdirSync(path, { withFileTypes: true })) if (!entry.isFile()) rmSync(join(path, entry.name), { force: true, recursive: true });
  }
}
