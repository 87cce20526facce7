// The signature layer: the key named by kid (or, without one, every usable
// key of the set), jose's compactVerify with ES512 only, and one rate-limited
// refetch of the key set when the keys may have rotated. Held back by the
// cool-down, the refusal is deferred (a 503 for a receiver, never a 401).
import { compactVerify, errors as joseErrors } from 'jose';
import { VerificationError } from '../errors.js';
import type { KeyEntry, KeySetSnapshot, KeyStore } from './jwks.js';
import { describeAlg, parseJws, type ParsedJws } from './jws.js';
import { DeferredVerificationError, REASONS, type Reason } from './reasons.js';

/** Tries one key; returns the payload bytes when the signature verifies. Exported to test this layer on its own. */
export async function tryKey(store: KeyStore, entry: KeyEntry, jws: string): Promise<Uint8Array | undefined> {
  let key: CryptoKey;
  try {
    key = await store.cryptoKey(entry);
  } catch {
    return undefined; // x/y not a point on P-521: cannot verify anything
  }
  try {
    const { payload } = await compactVerify(jws, key, { algorithms: ['ES512'] });
    return payload;
  } catch (err) {
    if (err instanceof joseErrors.JOSEAlgNotAllowed) throw new VerificationError(REASONS.UNSUPPORTED_ALG, describeAlg(undefined));
    if (err instanceof joseErrors.JWSInvalid) throw new VerificationError(REASONS.MALFORMED, `invalid JWS: ${err.message}`);
    return undefined; // JWSSignatureVerificationFailed: not this key
  }
}

async function verifyWithSet(parsed: ParsedJws, snap: KeySetSnapshot, store: KeyStore): Promise<{ payload?: Uint8Array; matched: KeyEntry[] }> {
  if (parsed.kid !== undefined) {
    const matched = snap.keys.filter((k) => k.kid === parsed.kid);
    for (const entry of matched.filter((k) => k.usable)) {
      const payload = await tryKey(store, entry, parsed.jws);
      if (payload) return { payload, matched };
    }
    return { matched };
  }
  // Spec rule 5: without a kid, the request is authorized when any key of the set verifies.
  for (const entry of snap.keys.filter((k) => k.usable)) {
    const payload = await tryKey(store, entry, parsed.jws);
    if (payload) return { payload, matched: [entry] };
  }
  return { matched: [] };
}

/** Verifies the signature; returns the header, kid and payload bytes, or throws VerificationError. */
export async function verifySignature(input: string | Uint8Array, store: KeyStore): Promise<{ parsed: ParsedJws; payload: Uint8Array }> {
  const parsed = parseJws(input);
  let snap = await store.current();
  let result = await verifyWithSet(parsed, snap, store);
  // An unknown kid (or, without a kid, no key verifying) may mean the keys rotated: one refetch, rate-limited.
  const kidUnknown = parsed.kid !== undefined && result.matched.length === 0;
  let heldBackMs: number | undefined;
  if (!result.payload && (kidUnknown || parsed.kid === undefined)) {
    const fresh = await store.refetch();
    if (fresh) {
      snap = fresh;
      result = await verifyWithSet(parsed, snap, store);
    } else {
      heldBackMs = store.refetchAllowedInMs();
    }
  }
  if (result.payload) return { parsed, payload: result.payload };
  // The refetch that could have found a rotated key is held back by the cool-down: the answer may change.
  const fail = (code: Reason, message: string) =>
    // Finite: only a remote key set is refetched (a file or static set never changes).
    Number.isFinite(heldBackMs)
      ? new DeferredVerificationError(code, `${message}; the key set was refetched less than 30 s ago, so it is checked again in ${Math.ceil(heldBackMs! / 1000)} s (a rotated key may not be known yet)`, heldBackMs!)
      : new VerificationError(code, message);
  if (parsed.kid !== undefined) {
    const kid = JSON.stringify(parsed.kid.slice(0, 80));
    if (result.matched.length === 0) throw fail(REASONS.UNKNOWN_KID, `no key with kid ${kid} in the key set from ${snap.origin}`);
    if (!result.matched.some((k) => k.usable)) throw new VerificationError(REASONS.WRONG_KEY_TYPE, `the key with kid ${kid} is unusable for ES512: ${result.matched[0]!.problem}`);
    throw new VerificationError(REASONS.BAD_SIGNATURE, `the signature does not verify with the key ${kid}: forged or altered`);
  }
  if (!snap.keys.some((k) => k.usable)) throw fail(REASONS.WRONG_KEY_TYPE, `the key set from ${snap.origin} has no EC P-521 key to verify ES512 with`);
  throw fail(REASONS.BAD_SIGNATURE, 'no key of the set verifies the signature (the header has no kid): forged or altered');
}

