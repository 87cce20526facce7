// Builds the KeyStore a command verifies with, from its flags and the
// context: --jwks-file (offline), --jwks-url (no token sent), or the active
// profile's base URL (through the one HttpClient, so proxy, timeout and
// --debug apply). The disk cache lives in the user's cache dir.
import type { RunBasics } from '../run-basics.js';
import type { HttpClient } from '../api/http.js';
import { ApiError, CliError, InterruptedError, UsageError } from '../errors.js';
import { checkBaseUrl } from '../api/urls.js';
import { cacheDir, configDir } from '../config/paths.js';
import { cacheSecret } from './cache-secret.js';
import { JWKS_PATH, MAX_JWKS_BYTES, KeySetError, KeyStore, type FetchedJwks, type JwksFetcher } from './jwks.js';

/** Where the key set comes from (`webhook verify` and `listen` read these from their flags: commands/webhook/key-flags.ts). */
export interface KeyFlags {
  jwksUrl?: string;
  jwksFile?: string;
  /** false with --no-cache */
  cache: boolean;
}

/** What the key store needs of a command's context: the profile's base URL and an HTTP client (context.ts satisfies it). */
export interface KeySourceContext extends Pick<RunBasics, 'env' | 'clock' | 'log'> {
  profile(): Promise<{ baseUrl?: string }>;
  http(opts?: { baseUrl?: string; token?: string | null; connections?: number }): Promise<HttpClient>;
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

function wrapFetchError(err: unknown, url: string): never {
  if (err instanceof InterruptedError) throw err;
  if (err instanceof ApiError) {
    throw new KeySetError(`Could not fetch the webhook key set from ${url}: HTTP ${err.status}`, 'Check the base URL (or pass --jwks-url URL), or verify offline with --jwks-file PATH.');
  }
  if (err instanceof CliError) throw new KeySetError(`Could not fetch the webhook key set from ${url}: ${err.message}`, err.hint ?? 'Or verify offline with --jwks-file PATH.', err.code === 'BAD_RESPONSE' || err.code === 'RESPONSE_TOO_LARGE' ? 'BAD_JWKS' : 'JWKS_UNAVAILABLE');
  throw err;
}

/** `oneShot`: a command that answers once and never checks again (`webhook verify`): see KeyStoreOptions.oneShot. */
export async function keyStoreFor(ctx: KeySourceContext, flags: KeyFlags, opts: { oneShot?: boolean } = {}): Promise<KeyStore> {
  const common = {
    oneShot: opts.oneShot,
    cacheDir: cacheDir(ctx.env),
    useCache: flags.cache,
    cacheKey: () => cacheSecret(configDir(ctx.env), (m) => ctx.log.debug(m)),
    now: () => ctx.clock.now(),
    debug: (m: string) => ctx.log.debug(m),
    warn: (m: string) => ctx.log.warn(m),
  };
  if (flags.jwksFile !== undefined) return new KeyStore({ ...common, source: { kind: 'file', path: flags.jwksFile } });
  if (flags.jwksUrl !== undefined) {
    const target = checkBaseUrl(flags.jwksUrl);
    const url = target.toString();
    let client: HttpClient | undefined;
    const fetch: JwksFetcher = async (): Promise<FetchedJwks> => {
      // No token: the key set is public, and this address is not the API's.
      client ??= await ctx.http({ baseUrl: target.origin, token: null, connections: 1 });
      try {
        const res = await client.send('GET', target.pathname, { query: Object.fromEntries(target.searchParams), maxBytes: MAX_JWKS_BYTES });
        return { body: res.body, cacheControl: headerText(res.headers['cache-control']) };
      } catch (err) {
        wrapFetchError(err, url);
      }
    };
    return new KeyStore({ ...common, source: { kind: 'url', url, fetch } });
  }
  const profile = await ctx.profile();
  if (!profile.baseUrl) {
    throw new UsageError('No API base URL to fetch the webhook key set from', 'Pass --jwks-url URL or --jwks-file PATH, set PARTNER_BASE_URL, run `partner auth login`, or add --sandbox.', 'NO_BASE_URL');
  }
  const base = checkBaseUrl(profile.baseUrl);
  const url = new URL(base.pathname.replace(/\/$/, '') + JWKS_PATH, base).toString();
  const fetch: JwksFetcher = async () => {
    try {
      const http = await ctx.http();
      const res = await http.send('GET', JWKS_PATH, { maxBytes: MAX_JWKS_BYTES });
      return { body: res.body, cacheControl: headerText(res.headers['cache-control']) };
    } catch (err) {
      wrapFetchError(err, url);
    }
  };
  return new KeyStore({ ...common, source: { kind: 'url', url, fetch } });
}
