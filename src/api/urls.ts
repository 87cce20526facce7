// Which base URLs are allowed: light enough for flag validation at start-up (no undici).
import { UsageError } from '../errors.js';
import { sanitizeTerminal } from '../output/sanitize.js';

/** https anywhere; plain http only on loopback (the sandbox, local tests). */
export function checkBaseUrl(raw: string): URL {
  let url: URL;
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Base URL "${sanitizeTerminal(shown)}" is not a valid URL`, 'Use the full address, for example https://api.example.com');
  }
  // A DNS name has at most 253 characters, 63 per label: refuse before any lookup.
  if (raw.length > 2048 || url.hostname.length > 253 || url.hostname.split('.').some((label) => label.length > 63)) {
    throw new UsageError(`Base URL "${sanitizeTerminal(shown)}" is not a valid URL: the host name is too long`, 'Use the full address, for example https://api.example.com', 'INVALID_BASE_URL');
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new UsageError(
    `Refusing base URL ${url.origin}: only https:// is allowed (plain http only on loopback)`,
    'Use the https:// address your account manager gave you.',
    'INSECURE_BASE_URL',
  );
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
