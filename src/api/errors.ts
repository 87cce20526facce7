import { ApiError, ResponseFormatError, type FieldError } from '../errors.js';
import { sanitizeTerminal } from '../output/sanitize.js';
import { isLoopback } from './urls.js';

const EXCERPT_LENGTH = 160;

/** First characters of a body, on one line, for error messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * A 3xx answer. Redirects are not followed: the token would go wherever the
 * server points, and an API that moved is configured, not chased. Says where
 * it points (sanitised, bounded) and, when that address ends with the path
 * asked for, the base URL to use instead; otherwise the base URL is probably
 * wrong (a sign-in page or another service answered). `location` is the
 * header as received (token echoes already masked).
 */
export function redirectError(status: number, a: { location?: string; headers: Record<string, string | string[] | undefined>; url: URL; apiPath: string }): ApiError {
  let target: URL | undefined;
  try {
    target = a.location ? new URL(a.location, a.url) : undefined;
  } catch {
    target = undefined;
  }
  const where = a.location ? excerpt(sanitizeTerminal(target?.href ?? a.location)) : undefined;
  const base = target && suggestedBase(target, a.apiPath);
  return new ApiError({
    status,
    message: where ? `The server answered HTTP ${status}, a redirect to ${where}; partner does not follow redirects` : `The server answered HTTP ${status}, a redirect without a Location; partner does not follow redirects`,
    correlationId: str(a.headers['x-correlation-id']) ?? str(a.headers['x-request-id']),
    path: a.url.pathname,
    hint: base
      ? `The base URL is probably out of date: if ${base} is the API's address now, use --base-url ${base} (or put it in PARTNER_BASE_URL or the profile).`
      : "The base URL is probably wrong (a sign-in page or another service answered): check --base-url, PARTNER_BASE_URL or the profile's base URL.",
  });
}

/** The base URL under which `target` is the API path asked for, if it is one partner accepts (https, or http on loopback). */
function suggestedBase(target: URL, apiPath: string): string | undefined {
  if (!target.pathname.endsWith(apiPath)) return undefined;
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopback(target.hostname))) return undefined;
  const base = `${target.origin}${target.pathname.slice(0, target.pathname.length - apiPath.length)}`;
  return base.length <= EXCERPT_LENGTH ? sanitizeTerminal(base) : undefined;
}

/**
 * Builds an ApiError from any non-2xx answer. The declared body carries field
 * failures twice (`errors[]` with `property`, `error.details[]` with `field`);
 * both are read and merged. Non-JSON bodies (a proxy's HTML page) keep an excerpt.
 */
export function apiErrorFrom(status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, requestPath: string): ApiError {
  const err = apiErrorOf(status, bodyText, headers, requestPath);
  if (status === 429 || status === 503) err.retryAfter = str(headers['retry-after'])?.slice(0, 64);
  return err;
}

function apiErrorOf(status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, requestPath: string): ApiError {
  const headerCorrelation = str(headers['x-correlation-id']) ?? str(headers['x-request-id']);
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
      correlationId: headerCorrelation,
      path: requestPath,
      excerpt: text === '' ? undefined : excerpt(text),
    });
  }
  const b = body as Record<string, unknown>;
  const inner = (b.error && typeof b.error === 'object' ? b.error : {}) as Record<string, unknown>;
  const details: FieldError[] = [];
  const seen = new Set<string>();
  const add = (field: unknown, message: unknown) => {
    const m = str(message);
    if (!m) return;
    const f = str(field) ?? '';
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
  const message = str(b.message) ?? str(inner.message) ?? str(b.detail) ?? str(b.title) ?? `HTTP ${status}`;
  // A top-level message repeated as the only "field" error adds nothing.
  const fieldDetails = details.filter((d) => !(d.field === '' && d.message === message));
  return new ApiError({
    status,
    message,
    apiCode: str(b.code) ?? str(inner.code),
    correlationId: str(b.correlationId) ?? headerCorrelation,
    path: str(b.path) ?? requestPath,
    details: fieldDetails,
  });
}

export function badJsonError(status: number, bodyText: string): ResponseFormatError {
  return new ResponseFormatError(`The server answered HTTP ${status} with invalid JSON`, status, excerpt(bodyText));
}
