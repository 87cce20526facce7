import { ApiError, ResponseFormatError, type FieldError } from '../errors.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { isLoopback } from './urls.js';

const EXCERPT_LENGTH = 160;

/** Masks echoes of the token (api/redact.ts); the identity for a client without one. */
export type Redact = (text: string) => string;
const KEEP: Redact = (text) => text;

/**
 * Server text as it will be shown, then redacted: escape sequences removed
 * first (a token split by one would be whole once the terminal drops it).
 */
function shown(text: string, redact: Redact): string {
  return redact(sanitizeTerminal(text));
}

/** JSON's \uXXXX escapes decoded, in a body that is not valid JSON: a token spelt that way is caught too. */
function unescapeJson(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** First characters of a body, on one line, for error messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The correlation id of an answer's headers (x-correlation-id, else x-request-id), as shown. */
export function headerCorrelation(headers: Record<string, string | string[] | undefined>, redact: Redact): string | undefined {
  const id = str(headers['x-correlation-id']) ?? str(headers['x-request-id']);
  return id === undefined ? undefined : shown(id, redact);
}

/**
 * A 3xx answer. Redirects are not followed: the token would go wherever the
 * server points, and an API that moved is configured, not chased. Says where
 * it points (sanitised, bounded) and, when that address ends with the path
 * asked for, the base URL to use instead; otherwise the base URL is probably
 * wrong (a sign-in page or another service answered). `location` is the
 * header as received; echoes of the token are masked in what is shown.
 */
export function redirectError(status: number, a: { location?: string; headers: Record<string, string | string[] | undefined>; url: URL; apiPath: string; redact?: Redact }): ApiError {
  const redact = a.redact ?? KEEP;
  let target: URL | undefined;
  try {
    target = a.location ? new URL(a.location, a.url) : undefined;
  } catch {
    target = undefined;
  }
  const where = a.location ? excerpt(shown(target?.href ?? a.location, redact)) : undefined;
  const base = target && suggestedBase(target, a.apiPath, redact);
  return new ApiError({
    status,
    message: where ? `The server answered HTTP ${status}, a redirect to ${where}; partner does not follow redirects` : `The server answered HTTP ${status}, a redirect without a Location; partner does not follow redirects`,
    correlationId: headerCorrelation(a.headers, redact),
    path: a.url.pathname,
    hint: base
      ? `The base URL is probably out of date: if ${base} is the API's address now, use --base-url ${base} (or put it in PARTNER_BASE_URL or the profile).`
      : "The base URL is probably wrong (a sign-in page or another service answered): check --base-url, PARTNER_BASE_URL or the profile's base URL.",
  });
}

/** The base URL under which `target` is the API path asked for, if it is one partner accepts (https, or http on loopback). */
function suggestedBase(target: URL, apiPath: string, redact: Redact): string | undefined {
  if (!target.pathname.endsWith(apiPath)) return undefined;
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopback(target.hostname))) return undefined;
  const base = `${target.origin}${target.pathname.slice(0, target.pathname.length - apiPath.length)}`;
  return base.length <= EXCERPT_LENGTH ? shown(base, redact) : undefined;
}

/**
 * Builds an ApiError from any non-2xx answer. The declared body carries field
 * failures twice (`errors[]` with `property`, `error.details[]` with `field`);
 * both are read and merged. Non-JSON bodies (a proxy's HTML page) keep an excerpt.
 * `redact` masks echoes of the token in every field, after the body is
 * decoded: the raw text may spell the token with JSON escapes.
 */
export function apiErrorFrom(status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, requestPath: string, redact: Redact = KEEP): ApiError {
  const err = apiErrorOf(status, bodyText, headers, requestPath, redact);
  // Bulk onboarding waits out a refused POST/PATCH itself (the client retries only GETs).
  if (status === 429 || status === 503) err.retryAfter = str(headers['retry-after'])?.slice(0, 64);
  // Not enumerable: the answer's body must never reach the error's JSON or a log by accident.
  Object.defineProperty(err, 'answer', { value: { headers, text: bodyText }, enumerable: false });
  return err;
}

function apiErrorOf(status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, requestPath: string, redact: Redact): ApiError {
  const fromHeaders = headerCorrelation(headers, redact);
  const r = (v: string | undefined) => (v === undefined ? undefined : shown(v, redact));
  let body: unknown;
  try {
    body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    const text = bodyText.trim();
    return new ApiError({
      status,
      message: text === '' ? `The server answered HTTP ${status} with an empty body` : `The server answered HTTP ${status} with a non-JSON body`,
      correlationId: fromHeaders,
      path: requestPath,
      excerpt: text === '' ? undefined : excerpt(shown(unescapeJson(text), redact)),
    });
  }
  const b = body as Record<string, unknown>;
  const inner = (b.error && typeof b.error === 'object' ? b.error : {}) as Record<string, unknown>;
  const details: FieldError[] = [];
  const seen = new Set<string>();
  const add = (field: unknown, message: unknown) => {
    const m = r(str(message));
    if (!m) return;
    const f = r(str(field)) ?? '';
    const key = `${f}\u0000${m}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push({ field: f, message: m });
  };
  if (Array.isArray(inner.details)) {
    for (const d of inner.details) if (d && typeof d === 'object') add((d as any).field, (d as any).message);
  }
  if (Array.isArray(b.errors)) {
    for (const e of b.errors) if (e && typeof e === 'object') add((e as any).property ?? (e as any).field, (e as any).message);
  }
  // RFC 7807 bodies use title/detail; the declared body uses message.
  const message = r(str(b.message) ?? str(inner.message) ?? str(b.detail) ?? str(b.title)) ?? `HTTP ${status}`;
  // A top-level message repeated as the only "field" error adds nothing.
  const fieldDetails = details.filter((d) => !(d.field === '' && d.message === message));
  return new ApiError({
    status,
    message,
    apiCode: r(str(b.code) ?? str(inner.code)),
    correlationId: r(str(b.correlationId)) ?? fromHeaders,
    path: r(str(b.path)) ?? requestPath,
    details: fieldDetails,
  });
}

export function badJsonError(status: number, bodyText: string, redact: Redact = KEEP, headers: Record<string, string | string[] | undefined> = {}): ResponseFormatError {
  return new ResponseFormatError(`The server answered HTTP ${status} with invalid JSON`, status, excerpt(shown(unescapeJson(bodyText), redact)), headerCorrelation(headers, redact));
}
