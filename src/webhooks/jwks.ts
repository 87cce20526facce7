// The webhook key set (JWKS): where it comes from (the profile's API, a URL,
// a file), how long it may be trusted, and the imported verification keys.
//
// Why not jose's createRemoteJWKSet: it reads Date.now() (the 1-hour rule
// must be testable with an injected clock), ignores Cache-Control, keeps its
// 30 s cool-down in memory only (each CLI run is a new process, so the
// cool-down must live in the disk cache), and its key selection collapses
// "unknown kid" and "kid of a P-256/RSA key" into one error, where we must
// report them apart. The disk cache keeps jose's ExportedJWKSCache shape
// ({jwks, uat}) so it can seed jose's [jwksCache] hook if ever wanted.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importJWK, type JWK } from 'jose';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { writePrivateFile } from '../config/secure-files.js';
import { untrustedReason } from './trust.js';

/** The spec: the key set may be cached for at most 1 hour. */
export const MAX_CACHE_MS = 60 * 60 * 1000;
/** An unknown kid triggers a refetch at most this often (keys rotate without notice). */
export const REFETCH_COOLDOWN_MS = 30 * 1000;
/** A key set larger than this is refused. */
export const MAX_JWKS_BYTES = 1024 * 1024;
export const JWKS_PATH = '/v1/partner/.well-known/jwks.json';

/** The key set could not be obtained or is not a JWKS: not a verdict on the webhook (exit 1). */
export class KeySetError extends CliError {
  constructor(message: string, hint?: string, code = 'JWKS_UNAVAILABLE') {
    super(message, { code, exitCode: ExitCode.FAILURE, hint });
  }
}

export interface KeyEntry {
  kid?: string;
  /** The public JWK as published (private members removed). */
  jwk: JWK;
  /** EC P-521, for ES512 signature verification. */
  usable: boolean;
  /** Why it cannot verify ES512 (kty RSA, crv P-256, alg ES256, use enc…). */
  problem?: string;
}

export interface KeySetSnapshot {
  keys: KeyEntry[];
  /** When it was fetched (ms since epoch); the file's load time for --jwks-file. */
  fetchedAt: number;
  /** How long it may be used: min(1 h, Cache-Control max-age). Infinity for a file. */
  maxAgeMs: number;
  /** Where it came from, for messages: the URL or the file. */
  origin: string;
  fromCache: boolean;
  /** From the disk cache: the last kid-triggered refetch. */
  refetchedAt?: number;
}

export interface FetchedJwks {
  body: unknown;
  cacheControl?: string;
}

export type JwksFetcher = () => Promise<FetchedJwks>;

export type KeySource =
  | { kind: 'url'; url: string; fetch: JwksFetcher }
  | { kind: 'file'; path: string }
  | { kind: 'static'; jwks: unknown; origin?: string };

export interface KeyStoreOptions {
  source: KeySource;
  /** Directory of the disk cache (the user's cache dir); absent or useCache false: no disk cache. */
  cacheDir?: string;
  useCache?: boolean;
  /**
   * Secret that authenticates the disk cache (HMAC-SHA256 over its content,
   * fetch time included). It lives in the config directory, beside the
   * token: whoever can write the cache directory alone can neither plant a
   * key nor extend the one-hour limit. Without it the disk cache is not used.
   */
  cacheKey?: () => Buffer | undefined;
  now?: () => number;
  debug?: (message: string) => void;
}

interface CacheFile {
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

function cacheMac(key: Buffer, f: CacheFile): string {
  const content = JSON.stringify([f.version, f.url, f.uat, f.maxAgeMs, f.refetchedAt ?? null, f.jwks]);
  return createHmac('sha256', key).update(content).digest('hex');
}

/** max-age from a Cache-Control header, in ms; 0 for no-store/no-cache; undefined when absent. */
export function cacheControlMaxAge(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const parts = header.toLowerCase().split(',').map((p) => p.trim());
  if (parts.includes('no-store') || parts.includes('no-cache')) return 0;
  for (const p of parts) {
    const m = /^max-age\s*=\s*"?(\d+)"?$/.exec(p);
    if (m) return Number(m[1]) * 1000;
  }
  return undefined;
}

/** Checks one JWK against what ES512 needs; returns the reason it cannot be used, if any. */
export function keyProblem(jwk: Record<string, unknown>): string | undefined {
  if (jwk.kty !== 'EC') return `key type ${describe(jwk.kty)} (an EC P-521 key is needed)`;
  if (jwk.crv !== 'P-521') return `EC curve ${describe(jwk.crv)} (P-521 is needed)`;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return 'EC key without x/y coordinates';
  if (jwk.alg !== undefined && jwk.alg !== 'ES512') return `key declared for alg ${describe(jwk.alg)} (ES512 is needed)`;
  if (jwk.use !== undefined && jwk.use !== 'sig') return `key declared for use ${describe(jwk.use)} (sig is needed)`;
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) return 'key_ops does not allow verify';
  return undefined;
}

function describe(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v).slice(0, 40);
}

/** Parses a JWKS document into entries; throws KeySetError when it is not a key set. */
export function parseJwks(body: unknown, origin: string): KeyEntry[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((body as { keys?: unknown }).keys)) {
    throw new KeySetError(`The key set from ${origin} is not a JWKS (an object with a "keys" array)`, undefined, 'BAD_JWKS');
  }
  const entries: KeyEntry[] = [];
  for (const raw of (body as { keys: unknown[] }).keys) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) continue;
    // Only public members: a JWKS that (wrongly) carries "d" must not yield a private key.
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, oth: _oth, ...pub } = raw as Record<string, unknown>;
    const problem = keyProblem(pub);
    entries.push({ kid: typeof pub.kid === 'string' ? pub.kid : undefined, jwk: pub as JWK, usable: problem === undefined, problem });
  }
  return entries;
}

/**
 * Holds the key set for one source. `current()` returns a set that is within
 * its age limit (memory, then the disk cache, then a fetch); `refetch()` asks
 * for a new one when a kid is unknown, at most once per 30 s.
 */
export class KeyStore {
  private readonly source: KeySource;
  private readonly cachePath?: string;
  private readonly cacheKey: () => Buffer | undefined;
  private readonly now: () => number;
  private readonly debug: (m: string) => void;
  private snapshot?: KeySetSnapshot;
  /** Last refetch caused by an unknown kid (persisted in the disk cache, so separate runs share the limit). */
  private lastRefetch?: number;
  private readonly imported = new Map<string, Promise<CryptoKey>>();

  constructor(opts: KeyStoreOptions) {
    this.source = opts.source;
    this.now = opts.now ?? Date.now;
    this.debug = opts.debug ?? (() => undefined);
    this.cacheKey = opts.cacheKey ?? (() => undefined);
    if (opts.source.kind === 'url' && opts.cacheDir && opts.useCache !== false) {
      const name = createHash('sha256').update(opts.source.url).digest('hex').slice(0, 24);
      this.cachePath = join(opts.cacheDir, 'jwks', `${name}.json`);
    }
  }

  get origin(): string {
    const s = this.source;
    return s.kind === 'url' ? s.url : s.kind === 'file' ? s.path : (s.origin ?? 'the given key set');
  }

  /** A key set within its age limit. */
  async current(): Promise<KeySetSnapshot> {
    const now = this.now();
    if (this.snapshot && isFresh(this.snapshot, now)) return this.snapshot;
    const s = this.source;
    if (s.kind === 'static') {
      this.snapshot = { keys: parseJwks(s.jwks, this.origin), fetchedAt: now, maxAgeMs: Infinity, origin: this.origin, fromCache: false };
      return this.snapshot;
    }
    if (s.kind === 'file') {
      let keys: KeyEntry[];
      try {
        keys = parseJwks(readJwksFile(s.path), s.path);
      } catch (err) {
        if (err instanceof KeySetError) throw new UsageError(err.message, 'Save the body of GET /v1/partner/.well-known/jwks.json.', 'BAD_JWKS');
        throw err;
      }
      if (keys.length === 0) throw new UsageError(`--jwks-file ${s.path} holds no keys (its "keys" array is empty)`, 'Save the body of GET /v1/partner/.well-known/jwks.json.', 'BAD_JWKS');
      this.snapshot = { keys, fetchedAt: now, maxAgeMs: Infinity, origin: s.path, fromCache: false };
      return this.snapshot;
    }
    const cached = this.readCache(now);
    if (cached) {
      this.snapshot = cached;
      this.lastRefetch = cached.refetchedAt;
      return cached;
    }
    return this.fetch();
  }

  /**
   * Whether an unknown kid may trigger a refetch now: remote source, and no
   * kid-triggered refetch in the last 30 s. The first unknown kid after a
   * regular fetch always refetches, so a key rotated a second ago is found;
   * a flood of made-up kids costs at most one fetch per 30 s.
   */
  canRefetch(): boolean {
    if (this.source.kind !== 'url') return false;
    const now = this.now();
    return this.lastRefetch === undefined || now - this.lastRefetch >= REFETCH_COOLDOWN_MS || now < this.lastRefetch;
  }

  /** How long until canRefetch() turns true: 0 when it is now, Infinity for a source that is never refetched. */
  refetchAllowedInMs(): number {
    if (this.source.kind !== 'url') return Infinity;
    if (this.canRefetch()) return 0;
    return this.lastRefetch! + REFETCH_COOLDOWN_MS - this.now();
  }

  /** Refetches for an unknown kid if the cool-down allows; undefined when it does not. */
  async refetch(): Promise<KeySetSnapshot | undefined> {
    if (this.inflight) return this.inflight;
    if (!this.canRefetch()) {
      this.debug('unknown kid, but the key set was fetched less than 30 s ago: not refetching');
      return undefined;
    }
    this.debug('unknown kid: refetching the key set (keys may have rotated)');
    this.lastRefetch = this.now();
    return this.fetch();
  }

  /** The CryptoKey for an entry, imported once per distinct key. */
  cryptoKey(entry: KeyEntry): Promise<CryptoKey> {
    const id = JSON.stringify([entry.jwk.kty, entry.jwk.crv, entry.jwk.x, entry.jwk.y]);
    let key = this.imported.get(id);
    if (!key) {
      key = importJWK({ kty: 'EC', crv: 'P-521', x: entry.jwk.x, y: entry.jwk.y }, 'ES512') as Promise<CryptoKey>;
      this.imported.set(id, key);
      // A bad point (not on the curve) must not poison later attempts with an unhandled rejection.
      key.catch(() => this.imported.delete(id));
    }
    return key;
  }

  private inflight?: Promise<KeySetSnapshot>;

  /** One fetch at a time: concurrent webhooks with a new kid share it. */
  private fetch(): Promise<KeySetSnapshot> {
    this.inflight ??= this.doFetch().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async doFetch(): Promise<KeySetSnapshot> {
    const s = this.source;
    if (s.kind !== 'url') throw new Error('fetch on a non-remote key source');
    const res = await s.fetch();
    const keys = parseJwks(res.body, s.url);
    const now = this.now();
    const maxAge = cacheControlMaxAge(res.cacheControl);
    const maxAgeMs = Math.min(MAX_CACHE_MS, maxAge ?? MAX_CACHE_MS);
    this.snapshot = { keys, fetchedAt: now, maxAgeMs, origin: s.url, fromCache: false };
    this.debug(`fetched key set from ${s.url}: ${keys.length} key(s), usable for ${Math.round(maxAgeMs / 1000)} s`);
    // Only a set that parsed and holds a key usable for ES512 is cached, and only its public members.
    const key = this.cachePath && maxAgeMs > 0 && keys.some((k) => k.usable) ? this.cacheKey() : undefined;
    if (this.cachePath && key) {
      const file: CacheFile = { version: 1, url: s.url, uat: now, maxAgeMs, refetchedAt: this.lastRefetch, jwks: { keys: keys.map((k) => k.jwk) } };
      file.mac = cacheMac(key, file);
      try {
        writePrivateFile(this.cachePath, `${JSON.stringify(file)}\n`);
      } catch (err) {
        this.debug(`could not write the key-set cache ${this.cachePath}: ${(err as Error).message}`);
      }
    }
    return this.snapshot;
  }

  private readCache(now: number): KeySetSnapshot | undefined {
    if (!this.cachePath || this.source.kind !== 'url') return undefined;
    // Trust only what we wrote: our own directory and file, writable by nobody else.
    for (const p of [dirname(this.cachePath), this.cachePath]) {
      const why = untrustedReason(p);
      if (why) {
        this.debug(`ignoring the key-set cache: ${p}: ${why}; fetching the key set`);
        return undefined;
      }
    }
    const key = this.cacheKey();
    if (!key) return undefined;
    let file: CacheFile;
    try {
      if (statSync(this.cachePath).size > 2 * MAX_JWKS_BYTES) return undefined;
      file = JSON.parse(readFileSync(this.cachePath, 'utf8')) as CacheFile;
    } catch {
      return undefined;
    }
    if (file?.version !== 1 || file.url !== this.source.url || typeof file.uat !== 'number' || typeof file.maxAgeMs !== 'number') return undefined;
    const expected = Buffer.from(cacheMac(key, file), 'hex');
    const actual = Buffer.from(typeof file.mac === 'string' ? file.mac : '', 'hex');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
      this.debug('ignoring the key-set cache: its content does not match what this CLI wrote (edited?); fetching the key set');
      return undefined;
    }
    const snap: KeySetSnapshot = { keys: [], fetchedAt: file.uat, maxAgeMs: Math.min(MAX_CACHE_MS, file.maxAgeMs), origin: this.source.url, fromCache: true };
    if (typeof file.refetchedAt === 'number') snap.refetchedAt = file.refetchedAt;
    if (!isFresh(snap, now)) {
      this.debug(`cached key set is ${Math.round((now - file.uat) / 1000)} s old: fetching again`);
      return undefined;
    }
    try {
      snap.keys = parseJwks(file.jwks, this.cachePath);
    } catch {
      return undefined;
    }
    this.debug(`using cached key set (${Math.round((now - file.uat) / 1000)} s old)`);
    return snap;
  }
}

/** Used only while younger than its limit; a fetch time in the future (clock moved back) counts as stale. */
export function isFresh(snap: Pick<KeySetSnapshot, 'fetchedAt' | 'maxAgeMs'>, now: number): boolean {
  const age = now - snap.fetchedAt;
  return age >= 0 && age < snap.maxAgeMs;
}

export function readJwksFile(path: string): unknown {
  let text: string;
  try {
    // Size first: a huge file is refused without being read.
    if (statSync(path).size > MAX_JWKS_BYTES) throw new UsageError(`--jwks-file ${path} is larger than 1 MiB`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read --jwks-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--jwks-file ${path} is not JSON`, 'Save the body of GET /v1/partner/.well-known/jwks.json.');
  }
}
