// Loads the CLI (dist/cli.cjs, one CommonJS script; dist/help.cjs for help) with V8's code cache:
// the code a run compiled is kept in <cache dir>/code-cache and handed to V8
// the next time, so a lookup does not compile the CLI at every start. Node's
// own compile cache (bin/compile-cache.js) cannot do this on Node 20, where
// it does not exist, and did it more slowly on 22 and 24 for ES module chunks
// (docs/ARCHITECTURE.md, "One script, compiled once"). The directory must be
// safe to run code from (compile-cache.js privateCacheDir); without it, or
// with NODE_DISABLE_COMPILE_CACHE set, the script is compiled as usual.
// CommonJS, as the launcher that loads it (bin/package.json).
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');
const { privateCacheDir } = require('./compile-cache.js');

const DIST = join(__dirname, '..', 'dist');
/** Another build's cache is removed once it has not been written for this long (an upgrade leaves one behind). */
const OTHER_BUILD_MS = 7 * 24 * 3600 * 1000;
/** A larger file is not a cache this script wrote (about 1 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Runs dist/<name>.cjs (or the script `file`) and returns its exports, compiled from the code cache when there is one. */
function loadScript(name, env = process.env, file = join(DIST, `${name}.cjs`)) {
  const fd = fs.openSync(file, 'r');
  let source;
  let stat;
  try {
    stat = fs.fstatSync(fd, { bigint: true });
    // ASCII (scripts/bundle.mjs checks it): read as latin1, a copy, not a UTF-8 decoding.
    source = fs.readFileSync(fd, 'latin1');
  } finally {
    fs.closeSync(fd);
  }
  const cache = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFile(env, name, file, stat);
  const cachedData = cache && readCache(cache);
  // The script never calls import() (scripts/cli-build-options.mjs), which a vm script can do only through an experimental feature.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  // Written at exit, when it holds what this run compiled, not only the top of the script.
  if (cache && (!cachedData || script.cachedDataRejected)) process.once('exit', () => saveCache(cache, script, cachedData !== undefined));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * <cache dir>/code-cache/<name>-<build>-<runtime>.bin. V8 checks only the
 * source's length, its own version and its flags before it uses a cache, so
 * the name carries the script's identity (its content hash from the build,
 * size, change time, inode) and the Node and flags it was made by: a rebuilt
 * script never meets an old cache, even at the same length and date.
 */
function cacheFile(env, name, file, stat) {
  const dir = privateCacheDir(env, 'code-cache');
  if (!dir) return undefined;
  const build = fnv1a(`${contentHash(file)}:${stat.size}:${stat.mtimeNs}:${stat.ino}`);
  const runtime = fnv1a(`${process.version}:${process.arch}:${process.execArgv.join(' ')}:${env.NODE_OPTIONS ?? ''}`);
  return join(dir, `${name}-${build}-${runtime}.bin`);
}

/** The script's content hash from scripts.json beside it (scripts/bundle.mjs), or '' when it cannot be read. */
function contentHash(file) {
  try {
    const hash = JSON.parse(fs.readFileSync(join(dirname(file), 'scripts.json'), 'utf8'))[basename(file)];
    return typeof hash === 'string' ? hash : '';
  } catch {
    return '';
  }
}

/** The cache's bytes, or undefined (none yet, a link, not a file, too large). */
function readCache(path) {
  let fd;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_CACHE_BYTES) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes the cache whole or not at all: a temporary file of this process,
 * then put in place, so a second partner starting meanwhile reads the old
 * cache or the new one, never half of one. A cache V8 refused is replaced;
 * otherwise the first process to finish keeps its cache (a link fails if one
 * is there): a sandbox or a listener that ran for hours must not replace the
 * cache of the lookups made meanwhile. Any failure (a full disk, a read-only
 * directory) leaves no cache, and the next run compiles again.
 */
function saveCache(path, script, replace) {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    if (replace) fs.renameSync(tmp, path);
    else {
      try {
        fs.linkSync(tmp, path);
      } catch (err) {
        // Another process was first (EEXIST); a file system without links: put in place all the same.
        if (err.code !== 'EEXIST') fs.renameSync(tmp, path);
      }
      removeQuietly(tmp);
    }
  } catch {
    removeQuietly(tmp);
    return;
  }
  removeOld(dirname(path), basename(path));
}

/** Removes the caches of this script's other builds (and its temporary files) not written for a week. */
function removeOld(dir, kept) {
  const [script, build] = kept.split('-');
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(`${script}-`) || name === kept || (name.startsWith(`${script}-${build}-`) && name.endsWith('.bin'))) continue;
      const file = join(dir, name);
      if (Date.now() - fs.lstatSync(file).mtimeMs > OTHER_BUILD_MS) fs.unlinkSync(file);
    }
  } catch {
    // Tidying only.
  }
}

/** Removes a file if it is there; never throws (this runs at exit). */
function removeQuietly(file) {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Left for removeOld.
  }
}

/** A 32-bit FNV-1a hash in hex: a name, not a secret, and no crypto module to load. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

module.exports = { loadScript };
