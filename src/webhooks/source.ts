// Builds the KeyStore a command verifies with, from its flags and the
// context: --jwks-file (offline), --jwks-url (no token sent), or the active
// profile's base URL (through the one HttpClient, so proxy, timeout and
// --debug apply). The disk cache lives in the user's cache dir.
import type { Context } from '../context.js';
import { ApiError, CliError, InterruptedError, UsageError } from '../errors.js';
import { checkBaseUrl } from '../api/http.js';
import { cacheDir, configDir } from '../config/paths.js';
import { cacheSecret } from './cache-secret.js';
import { JWKS_PATH, MAX_JWKS_BYTES, KeySetError, KeyStore, type FetchedJwks, type JwksFetcher } from './jwks.js';

export interface KeyFlags {
  jwksUrl?: string;
  jwksFile?: string;
  /** false with --no-cache */
  cache: boolean;
}

/** Validates --jwks-url / --jwks-file / --no-cache (usage errors, nothing fetched). */
export function parseKeyFlags(raw: Record<string, unknown>): KeyFlags {
  const jwksUrl = raw.jwksUrl === undefined ? undefined : String(raw.jwksUrl).trim();
  const jwksFile = raw.jwksFile === undefined ? undefined : String(raw.jwksFile);
  if (jwksUrl !== undefined && jwksFile !== undefined) throw new UsageError('--jwks-url and --jwks-file cannot be used together', 'Use --jwks-file for offline checks, --jwks-url for a key set at another address.');
  if (jwksFile !== undefined && jwksFile.trim() === '') throw new UsageError('--jwks-file must not be empty');
  if (jwksUrl !== undefined) {
    try {
      checkBaseUrl(jwksUrl);
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`--jwks-url: ${err.message}`, err.hint, err.code);
      throw err;
    }
  }
  return { jwksUrl, jwksFile, cache: raw.cache !== false };
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

export async function keyStoreFor(ctx: Context, flags: KeyFlags): Promise<KeyStore> {
  const common = {
    cacheDir: cacheDir(ctx.env),
    useCache: flags.cache,
    cacheKey: () => cacheSecret(configDir(ctx.env), (m) => ctx.log.debug(m)),
    now: () => ctx.now(),
    debug: (m: string) => ctx.log.debug(m),
  };
  if (flags.jwksFile !== undefined) return new KeyStore({ ...common, source: { kind: 'file', path: flags.jwksFile } });
  if (flags.jwksUrl !== undefined) {
    const target = checkBaseUrl(flags.jwksUrl);
    const url = target.toString();
    let client: import('../api/http.js').HttpClient | undefined;
    const fetch: JwksFetcher = async (): Promise<FetchedJwks> => {
      if (!client) {
        const { HttpClient } = await import('../api/http.js');
        // No token: the key set is public, and this address is not the API's.
        client = new HttpClient({ baseUrl: target.origin, userAgent: `partner-cli/${ctx.version}`, timeoutMs: ctx.globals.timeout * 1000, connections: 1, signal: ctx.signal, debug: ctx.globals.debug ? ctx.log.debug : undefined });
        const c = client;
        ctx.onCleanup(() => c.close());
      }
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
      const http = await ctx.api({ tokenOptional: true });
      const res = await http.send('GET', JWKS_PATH, { maxBytes: MAX_JWKS_BYTES });
      return { body: res.body, cacheControl: headerText(res.headers['cache-control']) };
    } catch (err) {
      wrapFetchError(err, url);
    }
  };
  return new KeyStore({ ...common, source: { kind: 'url', url, fetch } });
}
