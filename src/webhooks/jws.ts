// The layers before any key is used, in jose's order: size → UTF-8 → unwrap
// (a JSON string) → compact shape → protected header (size and nesting
// bounded before JSON.parse) → crit → alg allow-list (ES512 only) → kid →
// base64url of payload and signature. Also the bounded summary of a refused
// header shown to the user (never the untrusted object whole).
import { VerificationError } from '../errors.js';
import { nestingExceeds, trimJsonWhitespace } from './bounded-json.js';
import { MAX_HEADER_BYTES, MAX_HEADER_DEPTH, MAX_WEBHOOK_BYTES, REASONS } from './reasons.js';

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
export const utf8 = new TextDecoder(undefined, { fatal: true, ignoreBOM: true });

export function describeAlg(alg: unknown): string {
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

/** Header members shown for a refused webhook: at most this many, strings cut to 100 characters. */
const SHOWN_HEADER_MEMBERS = 8;

/**
 * The header of an input that failed, for display only (never trusted): only
 * when it passes the same size and nesting limits, and only a summary (the
 * first few members; objects and arrays named, not echoed).
 */
export function looseHeader(input: string | Uint8Array): Record<string, unknown> | undefined {
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

/**
 * The payload of a JWS exactly as it was signed (UTF-8 text): what a target
 * is sent, so that every number keeps the digits the sender signed
 * (9007199254740993 would come out of JSON.parse and JSON.stringify as
 * …992). Throws a VerificationError for what is not a compact ES512 JWS.
 */
export function signedPayloadText(input: string | Uint8Array): string {
  const { jws } = parseJws(input);
  return utf8.decode(Buffer.from(jws.slice(jws.indexOf('.') + 1, jws.lastIndexOf('.')), 'base64url'));
}
