// The key set's disk cache: a file per key-set URL under the user's cache
// directory, trusted only when it is ours (owner and mode of file and
// directory) and carries our HMAC over its content and fetch time, so
// neither a planted key nor an extended one-hour limit is accepted.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { underLock } from '../config/locked-file.js';
import { ensurePrivateDir, writePrivateFile } from '../config/secure-files.js';
import { isFresh, MAX_CACHE_MS, MAX_JWKS_BYTES, parseJwks, type KeySetSnapshot } from './jwks-doc.js';
import { untrustedReason } from './trust.js';

/** The cache file of one key-set URL. */
export function keyCachePath(cacheDir: string, url: string): string {
  return join(cacheDir, 'jwks', `${createHash('sha256').update(url).digest('hex').slice(0, 24)}.json`);
}

export interface CacheFile {
  version: 1;
  url: string;
  /** Last successful fetch, ms since epoch (jose's ExportedJWKSCache name). */
  uat: number;
  maxAgeMs: number;
  /** Last refetch caused by an unknown kid. */
  refetchedAt?: number;
  jwks: unknown;
  /** HMAC-SHA256 (hex) of the other members, with the cache key. */
  mac?: string;
}

function cacheMac(key: Buffer, f: Omit<CacheFile, 'mac'>): string {
  const content = JSON.stringify([f.version, f.url, f.uat, f.maxAgeMs, f.refetchedAt ?? null, f.jwks]);
  return createHmac('sha256', key).update(content).digest('hex');
}

/** The cached key set for `url`, when it is ours (owner, mode, HMAC) and still fresh; undefined otherwise (fetch again). */
export function readKeyCache(path: string, url: string, cacheKey: () => Buffer | undefined, now: number, debug: (m: string) => void, warn: (m: string) => void = debug): KeySetSnapshot | undefined {
  // Trust only what we wrote: our own directory and file, writable by nobody else. Said as a
  // warning: someone else could write there (a planted key), which the user should know.
  for (const p of [dirname(path), path]) {
    const why = untrustedReason(p);
    if (why) {
      warn(`Ignoring the webhook key-set cache ${p}: ${why}; fetching the key set instead.`);
      return undefined;
    }
  }
  const key = cacheKey();
  if (!key) return undefined;
  let file: CacheFile;
  try {
    file = JSON.parse(readCacheText(path)) as CacheFile;
  } catch {
    return undefined;
  }
  if (file?.version !== 1 || file.url !== url || typeof file.uat !== 'number' || typeof file.maxAgeMs !== 'number') return undefined;
  const expected = Buffer.from(cacheMac(key, file), 'hex');
  const actual = Buffer.from(typeof file.mac === 'string' ? file.mac : '', 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    debug('ignoring the key-set cache: its content does not match what this CLI wrote (edited?); fetching the key set');
    return undefined;
  }
  const snap: KeySetSnapshot = { keys: [], fetchedAt: file.uat, maxAgeMs: Math.min(MAX_CACHE_MS, file.maxAgeMs), origin: url, fromCache: true };
  if (typeof file.refetchedAt === 'number') snap.refetchedAt = file.refetchedAt;
  if (!isFresh(snap, now)) {
    debug(`cached key set is ${Math.round((now - file.uat) / 1000)} s old: fetching again`);
    return undefined;
  }
  try {
    snap.keys = parseJwks(file.jwks, path);
  } catch {
    return undefined;
  }
  debug(`using cached key set (${Math.round((now - file.uat) / 1000)} s old)`);
  return snap;
}

/** A cache write waits this long for another's, then is skipped (the set is used all the same). */
const CACHE_LOCK_WAIT_MS = 2000;

/** Writes the cache file (0600, atomically) with its HMAC; a failure is only logged (the set is still used). */
/**
 * The cache's text, from a regular file only: opened without following a link
 * and without blocking (a FIFO put at its path would hang every verification),
 * then checked through the descriptor read. Throws for anything else.
 */
function readCacheText(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > 2 * MAX_JWKS_BYTES) throw new Error('not a key-set cache');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export function writeKeyCache(path: string, key: Buffer, file: Omit<CacheFile, 'mac'>, debug: (m: string) => void): void {
  const signed: CacheFile = { ...file, mac: cacheMac(key, file) };
  try {
    // Under JWKS.lock: two receivers refreshing at once write one at a time (each file whole, with its own MAC).
    ensurePrivateDir(dirname(path));
    underLock(path, `the key-set cache ${path}`, () => writePrivateFile(path, `${JSON.stringify(signed)}\n`), CACHE_LOCK_WAIT_MS);
  } catch (err) {
    debug(`could not write the key-set cache ${path}: ${(err as Error).message}`);
  }
}
