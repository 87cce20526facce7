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
// Here the KeyStore; documents and keys in jwks-doc.ts, the disk cache in
// jwks-cache.ts.
import { importJWK } from 'jose';
import { UsageError } from '../errors.js';
import { keyCachePath, readKeyCache, writeKeyCache } from './jwks-cache.js';
import { cacheControlMaxAge, isFresh, KeySetError, MAX_CACHE_MS, parseJwks, readJwksFile, REFETCH_COOLDOWN_MS, type KeyEntry, type KeySetSnapshot } from './jwks-doc.js';

export * from './jwks-doc.js';

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
  /** Told what the user should know (a cache someone else could have written: ignored). */
  warn?: (message: string) => void;
  /**
   * A one-shot command (`webhook verify`): it never checks again, so the
   * cool-down that protects a long-running receiver from floods of made-up
   * kids cannot defer its answer. An unknown kid refetches unless this run
   * itself fetched the set less than 30 s ago; then that fetch showed the
   * kid is not published, and UNKNOWN_KID is final.
   */
  oneShot?: boolean;
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
  private readonly warn: (m: string) => void;
  private snapshot?: KeySetSnapshot;
  /** Last refetch caused by an unknown kid, by this process (a cool-down is never inherited from the disk cache). */
  private lastRefetch?: number;
  /** Last fetch of any kind by this process (one-shot mode). */
  private lastFetch?: number;
  private readonly oneShot: boolean;
  /** Fetches caused by an unknown kid (for the receiver's metrics). */
  refetches = 0;
  /** Why the last fetch failed, until one succeeds (for the receiver's health). */
  private lastFailure?: string;
  private readonly imported = new Map<string, Promise<CryptoKey>>();

  constructor(opts: KeyStoreOptions) {
    this.source = opts.source;
    this.now = opts.now ?? Date.now;
    this.debug = opts.debug ?? (() => undefined);
    this.warn = opts.warn ?? this.debug;
    this.cacheKey = opts.cacheKey ?? (() => undefined);
    this.oneShot = opts.oneShot === true;
    if (opts.source.kind === 'url' && opts.cacheDir && opts.useCache !== false) {
      this.cachePath = keyCachePath(opts.cacheDir, opts.source.url);
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
        keys = parseJwks(await readJwksFile(s.path), s.path);
      } catch (err) {
        if (err instanceof KeySetError) throw new UsageError(err.message, 'Save the body of GET /v1/partner/.well-known/jwks.json.', 'BAD_JWKS');
        throw err;
      }
      if (keys.length === 0) throw new UsageError(`--jwks-file ${s.path} holds no keys (its "keys" array is empty)`, 'Save the body of GET /v1/partner/.well-known/jwks.json.', 'BAD_JWKS');
      this.snapshot = { keys, fetchedAt: now, maxAgeMs: Infinity, origin: s.path, fromCache: false };
      return this.snapshot;
    }
    const cached = this.cachePath ? readKeyCache(this.cachePath, s.url, this.cacheKey, now, this.debug, this.warn) : undefined;
    if (cached) {
      // Its refetchedAt is not taken over: another process's flood protection must not hold back this one's first refetch.
      this.snapshot = cached;
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
    // One-shot: any fetch of this run counts (it showed what is published); a receiver: kid-triggered refetches only.
    const last = this.oneShot ? this.lastFetch : this.lastRefetch;
    return last === undefined || now - last >= REFETCH_COOLDOWN_MS || now < last;
  }

  /**
   * How long until canRefetch() turns true: 0 when it is now; Infinity when
   * the answer is final (a source that is never refetched, or a one-shot run
   * that fetched the set less than 30 s ago).
   */
  refetchAllowedInMs(): number {
    if (this.source.kind !== 'url') return Infinity;
    if (this.canRefetch()) return 0;
    if (this.oneShot) return Infinity;
    return this.lastRefetch! + REFETCH_COOLDOWN_MS - this.now();
  }

  /** Refetches for an unknown kid if the cool-down allows; undefined when it does not. */
  async refetch(): Promise<KeySetSnapshot | undefined> {
    if (this.inflight) return this.inflight;
    if (!this.canRefetch()) {
      this.debug(this.oneShot ? 'unknown kid: not published in the key set this run fetched less than 30 s ago' : 'unknown kid, but the key set was refetched less than 30 s ago: not refetching');
      return undefined;
    }
    this.debug('unknown kid: refetching the key set (keys may have rotated)');
    this.lastRefetch = this.now();
    this.refetches++;
    return this.fetch();
  }

  /**
   * Why webhooks cannot be checked now, for a health check: the last fetch
   * failed and no key set within its age limit is held (past the cache).
   * Undefined otherwise; never fetches.
   */
  unreachable(): string | undefined {
    if (this.lastFailure === undefined) return undefined;
    if (this.snapshot && isFresh(this.snapshot, this.now())) return undefined;
    return `the key set cannot be fetched (${this.lastFailure})`;
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
    this.inflight ??= this.doFetch()
      .then(
        (snap) => {
          this.lastFailure = undefined;
          return snap;
        },
        (err: unknown) => {
          this.lastFailure = err instanceof Error ? ((err as { code?: unknown }).code !== undefined ? String((err as { code?: unknown }).code) : err.name) : 'error';
          throw err;
        },
      )
      .finally(() => {
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
    this.lastFetch = now;
    const maxAge = cacheControlMaxAge(res.cacheControl);
    const maxAgeMs = Math.min(MAX_CACHE_MS, maxAge ?? MAX_CACHE_MS);
    this.snapshot = { keys, fetchedAt: now, maxAgeMs, origin: s.url, fromCache: false };
    this.debug(`fetched key set from ${s.url}: ${keys.length} key(s), usable for ${Math.round(maxAgeMs / 1000)} s`);
    // Only a set that parsed and holds a key usable for ES512 is cached, and only its public members.
    const key = this.cachePath && maxAgeMs > 0 && keys.some((k) => k.usable) ? this.cacheKey() : undefined;
    if (this.cachePath && key) writeKeyCache(this.cachePath, key, { version: 1, url: s.url, uat: now, maxAgeMs, refetchedAt: this.lastRefetch, jwks: { keys: keys.map((k) => k.jwk) } }, this.debug);
    return this.snapshot;
  }
}
