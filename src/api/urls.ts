// Which base URLs are allowed: light enough for flag validation at start-up (no node:http).
import { UsageError } from '../errors.js';
import { sanitizeTerminal } from '../text/sanitize.js';

/** The URL as it may be shown: any `user:pass@` replaced (a password is never printed, even in an error). */
export function withoutCredentials(raw: string): string {
  // Up to the last "@": a password may hold "/" or "#" (then the URL does not even parse).
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/*).*@/is, '$1***@');
}

/**
 * https anywhere; plain http only on loopback (the sandbox, local tests); never
 * with credentials (`https://user:pass@host`): the client sends only the bearer
 * token, so the password would never be used, only kept and shown.
 * `from` says where the URL came from, for the message (--base-url, PARTNER_BASE_URL, a profile).
 */
export function checkBaseUrl(raw: string, from?: string): URL {
  let url: URL;
  const safe = withoutCredentials(raw);
  const shown = safe.length > 80 ? `${safe.slice(0, 80)}…` : safe;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Base URL "${sanitizeTerminal(shown)}" is not a valid URL`, 'Use the full address, for example https://api.example.com');
  }
  // A DNS name has at most 253 characters, 63 per label: refuse before any lookup.
  if (raw.length > 2048 || url.hostname.length > 253 || url.hostname.split('.').some((label) => label.length > 63)) {
    throw new UsageError(`Base URL "${sanitizeTerminal(shown)}" is not a valid URL: the host name is too long`, 'Use the full address, for example https://api.example.com', 'INVALID_BASE_URL');
  }
  refuseCredentials(url, from);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new UsageError(
    `Refusing base URL ${url.origin}: only https:// is allowed (plain http only on loopback)`,
    'Use the https:// address your account manager gave you.',
    'INSECURE_BASE_URL',
  );
}

/** A base URL with `user:pass@` is refused (exit 2), whatever else it is: see checkBaseUrl. */
export function refuseCredentials(url: URL, from?: string): void {
  if (url.username === '' && url.password === '') return;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  const shown = withoutCredentials(url.href);
  throw new UsageError(
    `Refusing base URL ${sanitizeTerminal(shown.length > 80 ? `${shown.slice(0, 80)}…` : shown)}${from ? ` (${from})` : ''}: it holds a user name or password, which partner never sends (it authenticates with the API token only)`,
    `Remove the "user:password@" part${from ? ` from ${from}` : ''} (use ${sanitizeTerminal(bare.href.slice(0, 120))}) and log in with the API token: \`partner auth login --base-url ${sanitizeTerminal(bare.origin)}\`.`,
    'BASE_URL_CREDENTIALS',
  );
}

/** refuseCredentials for a URL as text (the profile precedence: a URL that does not parse is left to checkBaseUrl's message). */
export function refuseCredentialsIn(raw: string | undefined, from: string): void {
  if (raw === undefined || !raw.includes('@')) return;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return;
  }
  refuseCredentials(url, from);
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
