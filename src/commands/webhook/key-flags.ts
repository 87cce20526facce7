// The key-set flags that `webhook verify` and `webhook listen` share.
import { checkBaseUrl } from '../../api/urls.js';
import { UsageError } from '../../errors.js';
import { custom, negated, path } from '../../flags.js';
import type { KeyFlags } from '../../webhooks/source.js';

export const KEY_FLAGS = {
  jwksUrl: custom('fetch the key set here (default: <base URL>/v1/partner/.well-known/jwks.json of the active profile)', 'url', (raw) => {
    try {
      checkBaseUrl(raw.trim());
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`--jwks-url: ${err.message}`, err.hint, err.code);
      throw err;
    }
    return raw.trim();
  }),
  jwksFile: path('use this saved key set (offline; never refetched)'),
  cache: negated('do not use or write the on-disk key-set cache (otherwise reused for at most 1 hour)'),
};

/** --jwks-url and --jwks-file exclude each other. */
export function keyFlags(o: { jwksUrl?: string; jwksFile?: string; cache: boolean }): KeyFlags {
  if (o.jwksUrl !== undefined && o.jwksFile !== undefined) throw new UsageError('--jwks-url and --jwks-file cannot be used together', 'Use --jwks-file for offline checks, --jwks-url for a key set at another address.');
  return { jwksUrl: o.jwksUrl, jwksFile: o.jwksFile, cache: o.cache };
}
