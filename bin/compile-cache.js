// Node's compile cache (module.enableCompileCache, Node >= 22.1): V8's compiled
// code for the ES modules partner loads (dist/help.js, the workers, ES module
// dependencies such as @inquirer/prompts) kept between runs. The CLI's own
// script has its own cache (bin/code-cache.js). Kept in partner's own cache
// directory, which must be the user's, 0700 and no link: compiled code found
// there is run, so nobody else may be able to put any there (Node's default,
// a shared directory under /tmp, could be). Skipped silently when that cannot
// be had: the cache is speed, not function.
// CommonJS, as the launcher that loads it (bin/package.json).
'use strict';
const { lstatSync, mkdirSync } = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const { join } = require('node:path');

/** partner's cache directory: the same answer as src/config/paths.ts cacheDir (a unit test holds them together). */
function cacheDir(env) {
  if (env.PARTNER_CACHE_DIR) return env.PARTNER_CACHE_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'partner', 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'partner');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'partner');
}

/**
 * partner's cache directory, made 0700 if missing, when it is safe to run
 * compiled code from: a directory (not a link to one), the user's own, closed
 * to everyone else. Undefined otherwise. Throws nothing.
 */
function privateCacheDir(env) {
  try {
    const dir = cacheDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return undefined;
    if (process.platform !== 'win32' && (st.uid !== process.getuid() || st.mode & 0o077)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** Turns the compile cache on in <cache dir>/compile-cache; returns that directory, or undefined when it stays off. */
function enableCompileCache(env = process.env) {
  if (typeof Module.enableCompileCache !== 'function' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const dir = privateCacheDir(env);
  if (!dir) return undefined;
  try {
    const cache = join(dir, 'compile-cache');
    return Module.enableCompileCache(cache).status === Module.constants.compileCacheStatus.FAILED ? undefined : cache;
  } catch {
    return undefined;
  }
}

module.exports = { cacheDir, enableCompileCache, privateCacheDir };
