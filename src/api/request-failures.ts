// What the API client (http.ts) makes of a request that failed without an
// HTTP answer: which failures are worth another attempt, and the error the
// user reads for the last one. Told apart by class or code only: undici's
// error classes (its `errors`), Node's socket and TLS codes, and partner's
// own PROXY_CLOSED (undici.ts).
import { errors } from 'undici';
import { InterruptedError, NetworkError } from '../errors.js';
import type { Deadline } from './deadline.js';

/** A tunnel the proxy closed without answering CONNECT (undici.ts proxyAgent). */
export const PROXY_CLOSED = 'PROXY_CLOSED';

/** Failures of a GET worth another attempt: the connection failed or broke, never an answer refused. */
export const RETRY_ERROR_CODES = new Set([PROXY_CLOSED, 'UND_ERR_SOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENETUNREACH', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

const codeOf = (err: unknown): string => (err as { code?: unknown } | null)?.code?.toString() ?? '';

/** The error for the last failed attempt of a request. */
export function failure(err: unknown, a: { url: URL; method: string; attempts: number; answered: boolean; deadline: Deadline; timeoutMs: number }): Error {
  if (a.deadline.stopped) return new InterruptedError();
  if (a.deadline.expired) return timeoutError(a.url, a.method, a.timeoutMs, err);
  if (a.answered && !isTimeout(err)) return cutError(err, a.url, a.method, a.attempts);
  if (err instanceof errors.SocketError || codeOf(err) === 'ECONNRESET') return droppedError(err, a.url, a.method, a.attempts);
  return networkError(err, a.url, a.method, a.timeoutMs);
}

/** undici's own time limits: connecting, the headers, the gap between body bytes (undici.ts agentOptions). */
function isTimeout(err: unknown): boolean {
  return err instanceof errors.ConnectTimeoutError || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError;
}

/** OpenSSL's and Node's codes for a server certificate that was checked and refused: the request never went out. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const PARSER_SAYS = 'Response does not match the HTTP/1.1 protocol (';

/**
 * What undici's parser refused, for the message ("Invalid character in chunk
 * size"): llhttp's reason, which undici gives only inside its message (its
 * HTTPParserError has no code for it). Only the wording: the error is told
 * apart by its class (errors.HTTPParserError). Bounded: it may quote the server's bytes.
 */
function parseErrorText(err: Error): string {
  const m = err.message;
  return (m.startsWith(PARSER_SAYS) && m.endsWith(')') ? m.slice(PARSER_SAYS.length, -1) : m).slice(0, 200);
}

/** What to do next after a failure: a request that changes something may have taken effect. */
function nextStep(method: string, forGet: string): string {
  return method === 'GET' ? forGet : 'The request was sent: check whether it took effect before trying again.';
}

const RAISE_TIMEOUT = 'Raise the limit with --timeout SECONDS, or check the server and your network.';

function timeoutError(url: URL, method: string, timeoutMs: number, cause: unknown): NetworkError {
  return new NetworkError(`No complete answer from ${method} ${url.origin}${url.pathname} within ${timeoutMs / 1000} s`, nextStep(method, RAISE_TIMEOUT), 'TIMEOUT', cause);
}

/**
 * The connection was made and dropped before the answer began (on every
 * attempt, for a GET): not "could not reach", and not a code name.
 */
function droppedError(err: unknown, url: URL, method: string, attempts: number): NetworkError {
  const where = `${method} ${url.origin}${url.pathname}`;
  const what = codeOf(err) === 'ECONNRESET' ? `The connection was reset before ${where} was answered` : `The server closed the connection without answering ${where}`;
  const hint = nextStep(method, 'Try again in a while; if it keeps happening, check that the base URL is the API, and any proxy on the way (HTTPS_PROXY, NO_PROXY), or ask the API provider.');
  return new NetworkError(`${what}${attempts > 1 ? ` (${attempts} attempts)` : ''}`, hint, 'NETWORK', err);
}

/**
 * The server answered, and the connection broke while the body was coming
 * (on every attempt, for a GET): not "could not reach", and not the base URL.
 */
function cutError(err: unknown, url: URL, method: string, attempts: number): NetworkError {
  const code = codeOf(err);
  const what =
    code === 'ECONNRESET'
      ? 'The connection was reset'
      : err instanceof errors.SocketError
        ? 'The connection was closed'
        : err instanceof errors.HTTPParserError
          ? `The server broke the HTTP/1.1 protocol (${parseErrorText(err)})`
          : `The connection failed (${code || (err as Error).message})`;
  const hint = nextStep(method, 'Try again in a while; if it keeps happening, a proxy or load balancer on the way may be cutting answers off (check HTTPS_PROXY and NO_PROXY), or ask the API provider.');
  return new NetworkError(`${what} while the answer of ${method} ${url.origin}${url.pathname} was being received${attempts > 1 ? ` (${attempts} attempts)` : ''}`, hint, 'RESPONSE_CUT', err);
}

function networkError(err: unknown, url: URL, method: string, timeoutMs: number): NetworkError {
  const e = err as Error;
  const code = codeOf(err);
  const where = `${method} ${url.origin}${url.pathname}`;
  if (isTimeout(err)) return new NetworkError(`No answer from ${where} within ${timeoutMs / 1000} s`, nextStep(method, RAISE_TIMEOUT), 'TIMEOUT', err);
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return new NetworkError(
      `The TLS certificate of ${url.origin} is not trusted (${code}); nothing was sent`,
      'Check the base URL. A gateway of your own with a private certificate authority: give its CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.',
      'NETWORK',
      err,
    );
  }
  if (err instanceof errors.HeadersOverflowError) {
    return new NetworkError(`The answer of ${where} has headers larger than 16 KiB; it was not read`, 'No answer of the API has headers that large: check the base URL (another service may be answering), or ask the API provider.', 'NETWORK', err);
  }
  if (err instanceof errors.HTTPParserError) return new NetworkError(`The answer of ${where} is not HTTP/1.1 (${parseErrorText(err)})`, 'Check the base URL: something other than the API answers there (an https port reached with http://, or another service).', 'NETWORK', err);
  return new NetworkError(`Could not reach ${where}: ${code === PROXY_CLOSED ? e.message : code || e.message}`, 'Check the base URL, your network and any proxy settings (HTTPS_PROXY, NO_PROXY).', 'NETWORK', err);
}
