// Strict webhook verification, in jose's order: size → unwrap → compact
// shape → protected header → crit → alg allow-list (ES512 only) → key (by
// kid, or every EC P-521 key without one) → signature → only then the
// payload (JSON, eventType + data) → event shape. Every rejection is a
// VerificationError with a stable code, turned into the verdict's reason.
// The layers: jws.ts (before any key), signature.ts (keys and signature),
// here the payload and the verdict; limits and reasons in reasons.ts.
import { parseJsonExact } from '../json/parse-exact.js';
import { VerificationError } from '../errors.js';
import { nestingExceeds } from './bounded-json.js';
import { checkEvent, type EventCheck } from './events.js';
import type { KeyStore } from './jwks.js';
import { looseHeader, utf8 } from './jws.js';
import { DeferredVerificationError, MAX_PAYLOAD_DEPTH, MAX_WEBHOOK_BYTES, REASONS, type Reason } from './reasons.js';
import { verifySignature } from './signature.js';

export { MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_PAYLOAD_DEPTH, MAX_WEBHOOK_BYTES, REASONS, POST_SIGNATURE_REASONS, DeferredVerificationError, type Reason } from './reasons.js';
export { parseJws, type ParsedJws } from './jws.js';
export { tryKey, verifySignature } from './signature.js';

export interface Verdict {
  valid: boolean;
  /** Stable reason code when not valid, else null. */
  reason: Reason | null;
  /** One line saying why, when not valid. */
  message: string | null;
  /** The signature verified with a key of the set (true also for payload problems after it). */
  signatureValid: boolean;
  kid: string | null;
  alg: string | null;
  header: Record<string, unknown> | null;
  /** The decoded payload exactly as signed (null before the signature verified). */
  payload: unknown;
  /** The payload in the current shape, when a legacy shape was normalised. */
  normalized?: Record<string, unknown>;
  eventType: string | null;
  meaning: string | null;
  timestamp: string | null;
  subject: string | null;
  status: string | null;
  warnings: string[];
  /** Event shape errors (reason EVENT_SHAPE). */
  errors: string[];
  /**
   * Set when the verdict may change soon: the key set needs a refetch (unknown
   * kid, or no key verifying a JWS without kid) but one happened less than 30 s
   * ago. A receiver answers 503 with Retry-After, never a permanent 401.
   */
  retryAfterMs?: number;
}

function emptyVerdict(): Verdict {
  return {
    valid: false,
    reason: null,
    message: null,
    signatureValid: false,
    kid: null,
    alg: null,
    header: null,
    payload: null,
    eventType: null,
    meaning: null,
    timestamp: null,
    subject: null,
    status: null,
    warnings: [],
    errors: [],
  };
}

/**
 * Filled by verifyWebhook for a receiver that forwards: the payload's text
 * exactly as signed (the JWS payload's bytes as UTF-8), once its signature
 * verified, so the forward need not decode the JWS again. Not part of the
 * verdict: verdicts cross threads (verify-pool.ts) and are printed.
 */
export interface SignedText {
  payloadText?: string;
}

/**
 * The whole check of one webhook body. Never throws a VerificationError: it
 * becomes the verdict's reason. Key-set failures (network, not a JWKS) do
 * throw: they say nothing about the webhook.
 */
export async function verifyWebhook(input: string | Uint8Array, store: KeyStore, signed?: SignedText): Promise<Verdict> {
  const v = emptyVerdict();
  let payloadBytes: Uint8Array;
  try {
    const { parsed, payload } = await verifySignature(input, store);
    v.header = parsed.header;
    v.kid = parsed.kid ?? null;
    v.alg = 'ES512';
    payloadBytes = payload;
  } catch (err) {
    // Anything else (the key set could not be fetched) says nothing about the webhook: it propagates.
    if (!(err instanceof VerificationError)) throw err;
    // Show what the (untrusted) header said, when it parsed, to help debugging: a bounded summary, never the whole object.
    const p = looseHeader(input);
    if (p) {
      v.header = p;
      v.kid = typeof p.kid === 'string' ? p.kid : null;
      v.alg = typeof p.alg === 'string' ? p.alg : null;
    }
    if (err instanceof DeferredVerificationError) v.retryAfterMs = err.retryAfterMs;
    return fail(v, err);
  }
  v.signatureValid = true;
  let payload: unknown;
  let payloadText: string;
  try {
    payloadText = utf8.decode(payloadBytes);
  } catch {
    return fail(v, new VerificationError(REASONS.PAYLOAD_NOT_JSON, 'the signature is genuine, but the payload is not UTF-8 text'));
  }
  if (nestingExceeds(payloadText, MAX_PAYLOAD_DEPTH)) {
    return fail(v, new VerificationError(REASONS.PAYLOAD_SHAPE, `the signature is genuine, but the payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`));
  }
  try {
    // Every number's digits as signed (9007199254740993, 1.50, 1e400): what is printed shows them.
    payload = parseJsonExact(payloadText);
  } catch {
    return fail(v, new VerificationError(REASONS.PAYLOAD_NOT_JSON, 'the signature is genuine, but the payload is not JSON'));
  }
  v.payload = payload;
  if (signed) signed.payloadText = payloadText;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return fail(v, new VerificationError(REASONS.PAYLOAD_SHAPE, 'the signature is genuine, but the payload is not a JSON object'));
  }
  const obj = payload as Record<string, unknown>;
  if (typeof obj.eventType !== 'string' || obj.eventType === '') {
    return fail(v, new VerificationError(REASONS.PAYLOAD_SHAPE, `the signature is genuine, but the payload has no ${obj.eventType === undefined ? '' : 'string '}"eventType"`));
  }
  v.eventType = obj.eventType;
  if (obj.data === null || typeof obj.data !== 'object' || Array.isArray(obj.data)) {
    return fail(v, new VerificationError(REASONS.PAYLOAD_SHAPE, `the signature is genuine, but the payload has no "data" object`));
  }
  const check: EventCheck = checkEvent(obj);
  v.meaning = check.meaning;
  v.timestamp = check.timestamp ?? null;
  v.subject = check.subject ?? null;
  v.status = check.status ?? null;
  v.warnings = check.warnings;
  v.errors = check.errors;
  if (check.normalized) v.normalized = check.normalized;
  if (check.errors.length > 0) {
    return fail(v, new VerificationError(REASONS.EVENT_SHAPE, `the signature is genuine, but the payload breaks the ${obj.eventType} shape: ${check.errors[0]}${check.errors.length > 1 ? ` (and ${check.errors.length - 1} more)` : ''}`));
  }
  v.valid = true;
  return v;
}

/** The verdict for a body that was not read to its end because it passed the 1 MiB limit. */
export function tooLargeVerdict(): Verdict {
  return fail(emptyVerdict(), new VerificationError(REASONS.TOO_LARGE, `the body is larger than 1 MiB (${MAX_WEBHOOK_BYTES} bytes); it was not read further`));
}

function fail(v: Verdict, err: VerificationError): Verdict {
  v.valid = false;
  v.reason = err.code as Reason;
  v.message = err.message;
  return v;
}

