// Runs partner's own scripts (dist/cli.cjs, dist/help.cjs: one CommonJS script
// each) with V8's code cache: the code a run compiled is kept in
// <cache dir>/code-cache and handed to V8 the next time, so a lookup does not
// compile the CLI at every start. Node's own compile cache
// (module.enableCompileCache, compile-cache.ts) keeps only the code compiled
// when a script is first compiled, not the functions compiled later as they
// run: the same script under it was 1.14-1.26x slower to a one-page table on
// Node 22 and 24 (docs/ARCHITECTURE.md), so partner keeps this one for its
// own scripts and Node's for the ES modules (the workers, dependencies).
//
// A cache can only cost time: V8 checks little of what it is handed (a
// damaged cache crashed it), so each file starts with a CRC-32 of what
// follows, checked before V8 sees a byte; it is read only as the user's own
// regular file (a FIFO, a link or a device is passed over, never waited on);
// anything else is compiled as usual and the cache written anew.
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { privateCacheDir } from './private-dir.js';

/** Another build's cache is removed once it has not been written for this long (an upgrade leaves one behind). */
const OTHER_BUILD_MS = 7 * 24 * 3600 * 1000;
/** A larger file is not a cache this module wrote (about 1 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** The CRC-32 of V8's data, before it: damage, not an adversary, is what it finds (the directory is the user's alone). */
const HASH_BYTES = 4;

/** Runs the CommonJS script `file` and returns its exports, compiled from its code cache when there is a sound one. */
export function loadScript<T>(file: string, env: NodeJS.ProcessEnv = process.env): T {
  const fd = openSync(file, 'r');
  let source: string;
  let size: bigint;
  let changed: bigint;
  let inode: bigint;
  try {
    ({ size, mtimeNs: changed, ino: inode } = fstatSync(fd, { bigint: true }));
    // An ASCII script (as the build writes it) read as latin1: a one-byte string for V8, ~5 ms less a start than UTF-8's two-byte one.
    const bytes = readFileSync(fd);
    source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  } finally {
    closeSync(fd);
  }
  const cache = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFile(env, file, `${size}:${changed}:${inode}`);
  const found = cache === undefined ? undefined : readCache(cache);
  const cachedData = found === 'unsound' ? undefined : found;
  // The script never calls import() (scripts/cli-build-options.mjs: require() instead), which a vm script can do only through an experimental feature.
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  // Written at exit, when it holds what this run compiled, not only the top of the script.
  if (cache !== undefined && (!cachedData || script.cachedDataRejected)) process.once('exit', () => saveCache(cache, script, found !== undefined));
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, Module.createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * <cache dir>/code-cache/<name>-<build>-<runtime>.bin. V8 checks only the
 * source's length, its own version and its flags before it uses a cache, so
 * the name carries the script's identity (its content hash from the build,
 * size, change time, inode) and the Node and flags it was made by: a rebuilt
 * script never meets an old cache, even at the same length and date.
 */
function cacheFile(env: NodeJS.ProcessEnv, file: string, stat: string): string | undefined {
  const dir = privateCacheDir(env, 'code-cache');
  if (dir === undefined) return undefined;
  const build = fnv1a(`${contentHash(file)}:${stat}`);
  const runtime = fnv1a(`${process.version}:${process.arch}:${process.execArgv.join(' ')}:${env.NODE_OPTIONS ?? ''}`);
  return join(dir, `${basename(file).replace(/\.cjs$/, '')}-${build}-${runtime}.bin`);
}

/** The script's content hash from scripts.json beside it (scripts/bundle.mjs), or '' when it cannot be read. */
function contentHash(file: string): string {
  try {
    const hash = (JSON.parse(readFileSync(join(dirname(file), 'scripts.json'), 'utf8')) as Record<string, unknown>)[basename(file)];
    return typeof hash === 'string' ? hash : '';
  } catch {
    return '';
  }
}

/** CRC-32 (zlib's, in C: a fraction of a millisecond for the CLI's cache, where loading node:crypto took ~5 ms) as 4 bytes. */
function checksum(data: Uint8Array): Buffer {
  const b = Buffer.alloc(HASH_BYTES);
  b.writeUInt32BE(crc32(data));
  return b;
}

/** V8's data from a cache file; undefined when there is none; 'unsound' when something else is there (damaged, a FIFO, another's, too large). */
export function readCache(path: string): Buffer | 'unsound' | undefined {
  let fd: number | undefined;
  try {
    // Non-blocking: a FIFO put at the path opens at once (and is then passed over), never waits for a writer.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_CACHE_BYTES || st.size <= HASH_BYTES || (process.getuid !== undefined && st.uid !== process.getuid())) return 'unsound';
    const bytes = readFileSync(fd);
    const data = bytes.subarray(HASH_BYTES);
    return checksum(data).equals(bytes.subarray(0, HASH_BYTES)) ? data : 'unsound';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unsound';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes the cache whole or not at all: a temporary file of this process,
 * then put in place, so a second partner starting meanwhile reads the old
 * cache or the new one, never half of one. A cache that was refused (damaged,
 * or V8's answer) is replaced; otherwise the first process to finish keeps
 * its cache (a link fails if one is there): a sandbox or a listener that ran
 * for hours must not replace the cache of the lookups made meanwhile. Any
 * failure (a full disk, a read-only directory) leaves no cache, and the next
 * run compiles again.
 */
function saveCache(path: string, script: Script, replace: boolean): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    writeFileSync(tmp, Buffer.concat([checksum(data), data]), { mode: 0o600, flag: 'wx' });
    if (replace) renameSync(tmp, path);
    else {
      try {
        linkSync(tmp, path);
      } catch (err) {
        // Another process was first (EEXIST); a file system without links: put in place all the same.
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') renameSync(tmp, path);
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
function removeOld(dir: string, kept: string): void {
  const [script, build] = kept.split('-');
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(`${script}-`) || name === kept || (name.startsWith(`${script}-${build}-`) && name.endsWith('.bin'))) continue;
      const file = join(dir, name);
      if (Date.now() - lstatSync(file).mtimeMs > OTHER_BUILD_MS) rmSync(file, { force: true });
    }
  } catch {
    // Tidying only.
  }
}

/** Removes a file if it is there; never throws (this runs at exit). */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Left for removeOld.
  }
}

/** A 32-bit FNV-1a hash in hex: a name, not a secret. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
