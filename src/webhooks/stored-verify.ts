// A record read back from the spool's journal is verified again before it is
// forwarded (by a restarted receiver, or by `webhook replay`): the journal is
// a file someone could edit, and the receiver promises its target verified
// events only. The JWS must verify against the key set now (jose, through
// verifyWebhook), and the record's id, payload, type and kid must be those of
// what it signs; the target then gets the payload exactly as signed.
import { stringifyExact } from '../json/stringify-exact.js';
import { digestOfJson, forwardBody } from './forward.js';
import type { SpooledEvent } from './journal.js';
import type { KeyStore } from './jwks.js';
import { verifyWebhook, type SignedText, type Verdict } from './verify.js';

export type StoredCheck =
  | { ok: true; /** What the target receives: the payload as signed. */ body: string }
  | { ok: false; /** Why it is not forwarded, in a sentence. */ reason: string; /** The key set could not be fetched (or may have rotated): try again later, not a refusal. */ transient: boolean };

/** Verifies a stored event again. Never throws. */
export async function verifyStored(e: SpooledEvent, store: KeyStore): Promise<StoredCheck> {
  const signed: SignedText = {};
  let verdict: Verdict;
  try {
    verdict = await verifyWebhook(typeof e.jws === 'string' ? e.jws : '', store, signed);
  } catch (err) {
    return { ok: false, reason: `cannot be verified now: ${(err as Error).message}`, transient: true };
  }
  if (!verdict.valid) {
    if (verdict.retryAfterMs !== undefined) return { ok: false, reason: `cannot be verified now: ${verdict.message}`, transient: true };
    return { ok: false, reason: `its signature does not verify (${verdict.reason}: ${verdict.message}); the record was changed after it was verified, or its key is gone from the key set`, transient: false };
  }
  const json = stringifyExact(verdict.payload);
  const changed = [digestOfJson(json) !== e.digest && 'id', stringifyExact(e.payload) !== json && 'payload', verdict.eventType !== e.eventType && 'eventType', verdict.kid !== e.kid && 'kid'].filter((x): x is string => typeof x === 'string');
  if (changed.length > 0) return { ok: false, reason: `its ${changed.join(', ')} ${changed.length > 1 ? 'are' : 'is'} not what its signature covers: the record was changed after it was verified`, transient: false };
  return { ok: true, body: signed.payloadText ?? forwardBody(e.jws, verdict.payload) };
}
