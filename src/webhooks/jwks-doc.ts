// Key-set documents: what a JWKS must look like, which of its keys can
// verify ES512 (and why the others cannot), how long a fetched set may be
// used (Cache-Control, at most 1 hour), and reading --jwks-file (1 MiB cap).
import { readFileSync, statSync } from 'node:fs';
import type { JWK } from 'jose';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { readInputFile } from '../input.js';

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

/** Used only while younger than its limit; a fetch time in the future (clock moved back) counts as stale. */
export function isFresh(snap: Pick<KeySetSnapshot, 'fetchedAt' | 'maxAgeMs'>, now: number): boolean {
  const age = now - snap.fetchedAt;
  return age >= 0 && age < snap.maxAgeMs;
}

/** A saved key set (--jwks-file) through the one capped reader: a file, a pipe or a device alike, at most 1 MiB. */
export async function readJwksFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readInputFile(path, { flag: '--jwks-file', maxBytes: MAX_JWKS_BYTES, code: 'BAD_JWKS' });
  } catch (err) {
    if (err instanceof UsageError && err.code === 'INPUT_TOO_LARGE') throw new UsageError(`--jwks-file ${path} is larger than 1 MiB`, undefined, 'INPUT_TOO_LARGE');
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--jwks-file ${path} is not JSON`, 'Save the body of GET /v1/partner/.well-known/jwks.json.');
  }
}
