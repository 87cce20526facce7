import { ApiError, ResponseFormatError, type FieldError } from '../errors.js';

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
 * Builds an ApiError from any non-2xx answer. The declared body carries field
 * failures twice (`errors[]` with `property`, `error.details[]` with `field`);
 * both are read and merged. Non-JSON bodies (a proxy's HTML page) keep an excerpt.
 */
export function apiErrorFrom(status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, requestPath: string): ApiError {
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
