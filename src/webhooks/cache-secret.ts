// The secret that authenticates the key-set disk cache (see KeyStore). Kept
// in the config directory (0700, beside the tokens), created on first use:
// 32 random bytes, mode 0600.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../config/secure-files.js';
import { untrustedReason } from './trust.js';

export const CACHE_SECRET_FILE = 'cache.key';

/**
 * The secret, or undefined (then the disk cache is skipped) when it cannot be
 * kept safely. `create: false` only reads (doctor: no secret, no valid cache).
 */
export function cacheSecret(configDir: string, debug: (m: string) => void = () => undefined, opts: { create?: boolean } = {}): Buffer | undefined {
  const path = join(configDir, CACHE_SECRET_FILE);
  for (const p of [configDir, path]) {
    const why = untrustedReason(p);
    if (why) {
      debug(`not using the key-set disk cache: ${p}: ${why}`);
      return undefined;
    }
  }
  try {
    const hex = readFileSync(path, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      debug(`not using the key-set disk cache: cannot read ${path}: ${(err as NodeJS.ErrnoException).code}`);
      return undefined;
    }
  }
  if (opts.create === false) return undefined;
  const secret = randomBytes(32);
  try {
    writePrivateFile(path, `${secret.toString('hex')}\n`);
  } catch (err) {
    debug(`not using the key-set disk cache: cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return undefined;
  }
  return secret;
}
