// What a webhook check can answer: the input limits, the stable reason codes
// of a refusal, and the error for a verdict that may change soon (a rotated
// key not known yet). Shared by every layer of verification.
import { VerificationError } from '../errors.js';

export const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** The decoded protected header; a genuine one is about 60 bytes. */
export const MAX_HEADER_BYTES = 4096;
/** Nesting of the header: a genuine one is flat (1); room for a jwk member. */
export const MAX_HEADER_DEPTH = 4;
/** Nesting of the payload: the spec's deepest event (approval details) is 4. */
export const MAX_PAYLOAD_DEPTH = 32;

export const REASONS = {
  TOO_LARGE: 'TOO_LARGE',
  MALFORMED: 'MALFORMED',
  UNSUPPORTED_CRIT: 'UNSUPPORTED_CRIT',
  UNSUPPORTED_ALG: 'UNSUPPORTED_ALG',
  UNKNOWN_KID: 'UNKNOWN_KID',
  WRONG_KEY_TYPE: 'WRONG_KEY_TYPE',
  BAD_SIGNATURE: 'BAD_SIGNATURE',
  PAYLOAD_NOT_JSON: 'PAYLOAD_NOT_JSON',
  PAYLOAD_SHAPE: 'PAYLOAD_SHAPE',
  EVENT_SHAPE: 'EVENT_SHAPE',
} as const;
export type Reason = (typeof REASONS)[keyof typeof REASONS];

/** Reasons that come after a genuine signature: the sender is real, the payload is wrong. */
export const POST_SIGNATURE_REASONS: ReadonlySet<string> = new Set([REASONS.PAYLOAD_NOT_JSON, REASONS.PAYLOAD_SHAPE, REASONS.EVENT_SHAPE]);

/** A verification that could not be completed yet: the keys may have rotated and a refetch is held back. */
export class DeferredVerificationError extends VerificationError {
  constructor(code: string, message: string, readonly retryAfterMs: number) {
    super(code, message);
  }
}

