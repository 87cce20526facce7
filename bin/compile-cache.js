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
const { userInfo } = require('node:os');
const { isAbsolute, join } = require('node:path');

/**
 * partner's cache directory: the same answer as src/config/paths.ts cacheDir
 * (a test holds them together), or undefined where that one refuses (a
 * relative PARTNER_CACHE_DIR, no home): compiled code is never kept under a
 * relative path, which would be the current directory's, where anyone who
 * put a directory could have put code.
 */
function cacheDir(env) {
  if (env.PARTNER_CACHE_DIR) return isAbsolute(env.PARTNER_CACHE_DIR) ? env.PARTNER_CACHE_DIR : undefined;
  const under = (variable, ...fallback) => {
    if (env[variable] && isAbsolute(env[variable])) return env[variable];
    const home = homeDir(env);
    return home && join(home, ...fallback);
  };
  if (process.platform === 'win32') {
    const local = under('LOCALAPPDATA', 'AppData', 'Local');
    return local && join(local, 'partner', 'Cache');
  }
  if (process.platform === 'darwin') {
    const home = homeDir(env);
    return home && join(home, 'Library', 'Caches', 'partner');
  }
  const xdg = under('XDG_CACHE_HOME', '.cache');
  return xdg && join(xdg, 'partner');
}

/** HOME (USERPROFILE on Windows) if absolute, else the account's home if absolute (src/config/paths.ts homeDir), else undefined. */
function homeDir(env) {
  const fromEnv = process.platform === 'win32' ? env.USERPROFILE : env.HOME;
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  try {
    const home = userInfo().homedir;
    return home && isAbsolute(home) ? home : undefined;
  } catch {
    return undefined;
  }
}

/**
 * partner's cache directory (or `sub` in it), made 0700 if missing, when it
 * is safe to run compiled code from: each a directory (not a link to one),
 * the user's own, closed to everyone else. Undefined otherwise. Throws nothing.
 */
function privateCacheDir(env, sub) {
  try {
    const root = cacheDir(env);
    if (!root || !privateDir(root)) return undefined;
    return sub ? privateDir(join(root, sub)) : root;
  } catch {
    return undefined;
  }
}

function privateDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) return undefined;
  if (process.platform !== 'win32' && (st.uid !== process.getuid() || st.mode & 0o077)) return undefined;
  return dir;
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
