import { ApiError, CliError, ResponseFormatError, answerOf, exitCodeFor, inCauses, NetworkError, InvalidValuesError } from '../errors.js';
import type { Colors } from './colors.js';
import { jsonText } from './sanitize.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { wrapMessage } from '../text/wrap.js';

/** An UPPER_SNAKE word: a code, not a sentence (the 401 message is one: AUTHORIZATION_INVALID_TOKEN). */
const CODE_LIKE = /^[A-Z][A-Z0-9_]{2,}$/;

/**
 * The first line of an error, the same in text and JSON. A 401 says what
 * happened in words, with the most specific code the server gave.
 */
export function headline(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) {
    const code = CODE_LIKE.test(err.message) ? err.message : (err.apiCode ?? 'HTTP 401');
    return `Your token was refused (${code})`;
  }
  if (err instanceof CliError) return err.message;
  return `unexpected failure: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * One readable block on stderr for any failure: the message, the API's code
 * and HTTP status, each failing field, the correlation id to quote to
 * support, and what to do next. Stack traces only with --debug, and for bugs.
 */
export function renderError(err: unknown, c: Colors, debug: boolean): string {
  const lines: string[] = [];
  if (err instanceof ApiError) {
    const code = [err.apiCode, `HTTP ${err.status}`].filter(Boolean).join(', ');
    if (err.status === 401) {
      lines.push(`${c.red('Error:')} ${clean(headline(err))}`);
      // The server's own words when they are more than the code already shown.
      lines.push(`  Server answer: ${clean(code)}${CODE_LIKE.test(err.message) ? '' : `: ${clean(err.message)}`}`);
    } else {
      // The status once: not "answered HTTP 502 with a non-JSON body (HTTP 502)".
      const said = !err.apiCode && err.message.includes(`HTTP ${err.status}`);
      lines.push(`${c.red('Error:')} ${clean(err.message)}${said ? '' : ` (${clean(code)})`}`);
    }
    for (const d of err.details) lines.push(`  - ${d.field ? `${c.bold(clean(d.field))}: ` : ''}${clean(d.message)}`);
    if (err.excerpt) lines.push(`  Body: ${clean(err.excerpt)}`);
    if (err.path) lines.push(`  Path: ${clean(err.path)}`);
    if (err.correlationId) lines.push(`  Correlation id: ${clean(err.correlationId)} (quote it to support)`);
  } else if (err instanceof ResponseFormatError) {
    lines.push(`${c.red('Error:')} ${clean(err.message)}`);
    if (err.excerpt) lines.push(`  Body: ${clean(err.excerpt)}`);
    lines.push(...traceLines(err, false));
  } else if (err instanceof CliError) {
    lines.push(`${c.red('Error:')} ${clean(err.message)}`);
    // A failure read from an answer (a 409 as CONFLICT): what support needs of that answer.
    lines.push(...traceLines(err, true));
  } else {
    const e = err instanceof Error ? err : new Error(String(err));
    lines.push(`${c.red('Error:')} ${clean(headline(e))}`);
    lines.push(debug ? (e.stack ?? '') : 'This is a bug in partner. Run again with --debug for details and report it.');
  }
  if (err instanceof CliError && err.progress) lines.push(`  ${clean(err.progress.text)}`);
  if (err instanceof CliError && err.hint) lines.push(c.dim(err.hint));
  // --debug shows the cause's stack for bugs, not for an ordinary network failure (its code is in the message).
  if (debug && err instanceof CliError && !(err instanceof NetworkError) && err.cause instanceof Error && err.cause.stack && !answerOf(err.cause)) lines.push(c.dim(err.cause.stack));
  return `${lines.join('\n')}\n`;
}

/**
 * An error's text block as stderr shows it: at stderr's `width`, between
 * words only; a stack trace under --debug is left as it is.
 */
export function fitError(text: string, width: number | undefined, debug: boolean): string {
  return debug ? text : wrapMessage(text, width);
}

/** The status (when `withStatus`) and correlation id of the answer an error came from, as lines of the text block. */
export function traceLines(err: unknown, withStatus: boolean): string[] {
  const answer = answerOf(err);
  if (!answer) return [];
  const lines = withStatus ? [`  Server answer: HTTP ${answer.status}`] : [];
  if (answer.correlationId) lines.push(`  Correlation id: ${clean(answer.correlationId)} (quote it to support)`);
  return lines;
}

/** The ApiError an error is or wraps (its field failures are the error's details). */
function causeApi(err: unknown): ApiError | undefined {
  return inCauses(err, (e): e is ApiError => e instanceof ApiError);
}

/** Bounds on what one JSON error line carries (server text is untrusted). */
const MAX_TEXT = 1000;
const MAX_DETAILS = 100;
const MAX_DETAIL_TEXT = 500;

export interface ErrorDocument {
  error: {
    /** The API's code (UNAUTHORIZED, VALIDATION_ERROR…) or partner's (USAGE, NETWORK, NOT_AUTHENTICATED…). */
    code: string;
    /** HTTP status of the API's answer; null when there was none. */
    status: number | null;
    message: string;
    correlationId: string | null;
    details: { field: string; message: string }[];
    /** What to do next, when partner knows. */
    hint?: string;
    /** Start of a body that was not the JSON expected (a proxy's HTML page). */
    body?: string;
    /** How far the job got (an export: page, rows written, the file left untouched). */
    progress?: Record<string, string | number | boolean | null>;
    exitCode: number;
  };
}

/** The error as data: sanitised (no escape sequences) and bounded in size. */
export function errorDocument(err: unknown): ErrorDocument {
  const api = err instanceof ApiError ? err : undefined;
  // The answer the failure came from, also when a command read it as its own error (a 409 as CONFLICT).
  const answer = answerOf(err);
  const status = answer?.status ?? null;
  const code = api?.apiCode ?? (err instanceof CliError ? err.code : 'UNEXPECTED');
  const details = (causeApi(err)?.details ?? (err instanceof InvalidValuesError ? err.fields : [])).slice(0, MAX_DETAILS).map((d) => ({ field: bound(d.field, MAX_DETAIL_TEXT), message: bound(d.message, MAX_DETAIL_TEXT) }));
  const doc: ErrorDocument = {
    error: {
      code: bound(code, MAX_DETAIL_TEXT),
      status,
      message: bound(headline(err), MAX_TEXT),
      correlationId: answer?.correlationId ? bound(answer.correlationId, MAX_DETAIL_TEXT) : null,
      details,
      exitCode: exitCodeFor(err),
    },
  };
  if (err instanceof CliError && err.hint) doc.error.hint = bound(err.hint, MAX_TEXT);
  const excerpt = api?.excerpt ?? (err instanceof ResponseFormatError ? err.excerpt : undefined);
  if (excerpt) doc.error.body = bound(excerpt, MAX_TEXT);
  if (err instanceof CliError && err.progress) doc.error.progress = Object.fromEntries(Object.entries(err.progress.data).map(([k, v]) => [k, typeof v === 'string' ? bound(v, MAX_DETAIL_TEXT) : v]));
  return doc;
}

/**
 * One line of JSON for stderr, for scripts that asked for JSON output.
 * `about` adds what the failure concerns (one employee of several).
 */
export function renderErrorJson(err: unknown, about: Record<string, string | null> = {}): string {
  const doc = errorDocument(err);
  const extra = Object.fromEntries(Object.entries(about).map(([k, v]) => [k, v === null ? null : bound(v, MAX_DETAIL_TEXT)]));
  return `${jsonText({ error: { ...doc.error, ...extra } })}\n`;
}

function bound(s: string, max: number): string {
  const t = clean(s);
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

function clean(s: string): string {
  return sanitizeTerminal(s);
}
