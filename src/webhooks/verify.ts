// Strict webhook verification, in jose's order: size → unwrap → compact
// shape → protected header → crit → alg allow-list (ES512 only) → key (by
// kid, or every EC P-521 key without one) → signature → only then the
// payload (JSON, eventType + data) → event shape. Every rejection is a
// VerificationError with a stable code.
import { compactVerify, errors as joseErrors } from 'jose';
import { VerificationError } from '../errors.js';
import { nestingExceeds, trimJsonWhitespace } from './bounded-json.js';
import { checkEvent, type EventCheck } from './events.js';
import type { KeyEntry, KeySetSnapshot, KeyStore } from './jwks.js';

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

/** A verification that could not be completed yet: the keys may have rotated and a refetch is held back. */
export class DeferredVerificationError extends VerificationError {
  constructor(code: string, message: string, readonly retryAfterMs: number) {
    super(code, message);
  }
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function b64urlPart(part: string, name: string): Buffer {
  if (!B64URL.test(part)) throw new VerificationError(REASONS.MALFORMED, `the ${name} is not base64url (characters outside A-Z a-z 0-9 - _)`);
  if (part.length % 4 === 1) throw new VerificationError(REASONS.MALFORMED, `the ${name} is not valid base64url (impossible length)`);
  return Buffer.from(part, 'base64url');
}

// fatal: invalid UTF-8 is refused, never replaced by U+FFFD (which could turn
// a refused byte sequence into an accepted string). ignoreBOM: a byte-order
// mark stays in the text, so it is refused too rather than silently dropped.
// (The label left out is UTF-8, the decoder's default and only encoding.)
const utf8 = new TextDecoder(undefined, { fatal: true, ignoreBOM: true });

function describeAlg(alg: unknown): string {
  if (alg === undefined) return 'the header has no "alg"';
  if (typeof alg !== 'string') return `"alg" is ${shortJson(alg, 30)}, not a string`;
  const a = JSON.stringify(alg.slice(0, 30));
  if (alg.toLowerCase() === 'none') return `alg ${a}: unsigned tokens are never accepted; only ES512`;
  if (/^HS/i.test(alg)) return `alg ${a} (HMAC) is refused: an algorithm-confusion attempt; only ES512 is accepted`;
  if (/^(RS|PS)/i.test(alg)) return `alg ${a} (RSA) is refused; only ES512 is accepted`;
  if (/^ES/i.test(alg)) return `alg ${a} is refused; only ES512 (P-521) is accepted`;
  return `alg ${a} is refused; only ES512 is accepted`;
}

export interface ParsedJws {
  jws: string;
  header: Record<string, unknown>;
  kid?: string;
}

/** Steps up to the algorithm check: size, unwrapping, compact shape, header, crit, alg. */
export function parseJws(input: string | Uint8Array): ParsedJws {
  const size = Buffer.byteLength(input);
  if (size > MAX_WEBHOOK_BYTES) throw new VerificationError(REASONS.TOO_LARGE, `the body is ${size} bytes; at most 1 MiB (${MAX_WEBHOOK_BYTES} bytes) is accepted`);
  let text: string;
  try {
    text = typeof input === 'string' ? input : utf8.decode(input);
  } catch {
    throw new VerificationError(REASONS.MALFORMED, 'the body is not UTF-8 text');
  }
  text = trimJsonWhitespace(text);
  if (text === '') throw new VerificationError(REASONS.MALFORMED, 'the body is empty');
  if (text.charCodeAt(0) === 0xfeff) throw new VerificationError(REASONS.MALFORMED, 'the body starts with a byte-order mark (U+FEFF): a compact JWS starts with its base64url header');
  // The raw HTTP body may be the JWS as a JSON string: "eyJ…".
  if (text.startsWith('"')) {
    let unwrapped: unknown;
    try {
      unwrapped = JSON.parse(text);
    } catch {
      throw new VerificationError(REASONS.MALFORMED, 'the body starts with a quote but is not a JSON string');
    }
    // Text starting with a quote that parses is always a JSON string.
    text = trimJsonWhitespace(unwrapped as string);
  }
  if (text.startsWith('{')) throw new VerificationError(REASONS.MALFORMED, 'the body is a JSON object, not a compact JWS (the JSON serialisation and raw JSON are refused)');
  const parts = text.split('.', 4);
  if (parts.length !== 3) throw new VerificationError(REASONS.MALFORMED, `a compact JWS has 3 dot-separated parts; this has ${parts.length === 4 ? 'more' : parts.length}`);
  const [h, p, s] = parts as [string, string, string];
  const header = parseHeader(h);
  if (header.crit !== undefined) {
    throw new VerificationError(REASONS.UNSUPPORTED_CRIT, `the header marks extensions as critical (crit ${shortJson(header.crit, 60)}); none is understood`);
  }
  if (header.alg !== 'ES512') throw new VerificationError(REASONS.UNSUPPORTED_ALG, describeAlg(header.alg));
  if (header.kid !== undefined && typeof header.kid !== 'string') throw new VerificationError(REASONS.MALFORMED, '"kid" in the header is not a string');
  b64urlPart(p, 'payload');
  if (s === '') throw new VerificationError(REASONS.MALFORMED, 'the signature is empty (an unsigned token)');
  b64urlPart(s, 'signature');
  return { jws: text, header, kid: header.kid as string | undefined };
}

/** The protected header: size and nesting bounded before JSON.parse. */
function parseHeader(h: string): Record<string, unknown> {
  if (h === '') throw new VerificationError(REASONS.MALFORMED, 'the protected header is empty');
  // Every 4 base64url characters carry 3 bytes: refuse by the encoded length, before decoding.
  if (Math.floor((h.length * 3) / 4) > MAX_HEADER_BYTES) {
    throw new VerificationError(REASONS.TOO_LARGE, `the protected header is about ${Math.floor((h.length * 3) / 4)} bytes; at most ${MAX_HEADER_BYTES} bytes are accepted`);
  }
  const bytes = b64urlPart(h, 'protected header');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new VerificationError(REASONS.MALFORMED, 'the protected header is not UTF-8 text');
  }
  if (nestingExceeds(text, MAX_HEADER_DEPTH)) throw new VerificationError(REASONS.MALFORMED, `the protected header nests deeper than ${MAX_HEADER_DEPTH} levels`);
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    throw new VerificationError(REASONS.MALFORMED, 'the protected header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new VerificationError(REASONS.MALFORMED, 'the protected header is not a JSON object');
  return header as Record<string, unknown>;
}

function shortJson(v: unknown, max: number): string {
  return (JSON.stringify(v) ?? String(v)).slice(0, max);
}

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
 * The whole check of one webhook body. Never throws a VerificationError: it
 * becomes the verdict's reason. Key-set failures (network, not a JWKS) do
 * throw: they say nothing about the webhook.
 */
export async function verifyWebhook(input: string | Uint8Array, store: KeyStore): Promise<Verdict> {
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
    payload = JSON.parse(payloadText);
  } catch {
    return fail(v, new VerificationError(REASONS.PAYLOAD_NOT_JSON, 'the signature is genuine, but the payload is not JSON'));
  }
  v.payload = payload;
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

/** Header members shown for a refused webhook: at most this many, strings cut to 100 characters. */
const SHOWN_HEADER_MEMBERS = 8;

/**
 * The header of an input that failed, for display only (never trusted): only
 * when it passes the same size and nesting limits, and only a summary (the
 * first few members; objects and arrays named, not echoed).
 */
function looseHeader(input: string | Uint8Array): Record<string, unknown> | undefined {
  try {
    if (input.length > MAX_WEBHOOK_BYTES) return undefined;
    let text = trimJsonWhitespace(typeof input === 'string' ? input : Buffer.from(input).toString());
    if (text.startsWith('"')) text = trimJsonWhitespace(String(JSON.parse(text)));
    const header = parseHeader(text.split('.', 1)[0]!);
    const shown: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(header).slice(0, SHOWN_HEADER_MEMBERS)) {
      const key = k.slice(0, 40);
      if (typeof val === 'string') shown[key] = val.length > 100 ? `${val.slice(0, 100)}…` : val;
      else if (val === null || typeof val === 'number' || typeof val === 'boolean') shown[key] = val;
      else shown[key] = Array.isArray(val) ? '[array]' : '[object]';
    }
    return shown;
  } catch {
    return undefined;
  }
}
