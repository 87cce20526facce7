// What `partner api <path>` may ask for: a path of the configured API, never
// another origin. The token goes wherever the request goes, so anything that
// could leave the base URL (an absolute URL, `//host`, a backslash that a
// parser reads as a slash, dot segments that climb above the base path, raw or
// percent-encoded) is refused before anything is sent.
import { UsageError } from '../errors.js';
import { sanitizeTerminal } from '../text/sanitize.js';

const MAX_PATH = 4096;

/** The request target, split: the path (under the base path) and the query string's parameters. */
export interface ApiTarget {
  path: string;
  query: [string, string][];
}

function refuse(raw: string, why: string): never {
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  throw new UsageError(`Refusing "${sanitizeTerminal(shown)}": ${why}`, 'Give a path of the API that starts with /, for example partner api /v1/employees; the base URL comes from the profile (or --base-url).', 'INVALID_API_PATH');
}

/**
 * Checks `raw` and resolves it against `base` exactly as the HTTP client will
 * (base path + path): the result must stay on the base's origin and under its
 * path. Throws UsageError (exit 2).
 */
export function checkApiPath(raw: string, base: URL): ApiTarget {
  if (raw.length > MAX_PATH) refuse(raw, `the path is longer than ${MAX_PATH} characters`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) refuse(raw, 'only a path of the configured API is allowed, not a URL');
  if (raw === '') refuse(raw, 'the path is empty');
  // `partner api v1/employees` is `/v1/employees`, as gh api takes `repos/…`; every check below still applies.
  if (!raw.startsWith('/')) return checkApiPath(`/${raw}`, base);
  if (raw.startsWith('//')) refuse(raw, 'a path starting with // names another host');
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) refuse(raw, 'the path contains a control character or a backslash');
  if (raw.includes('#')) refuse(raw, 'the path contains a fragment (#)');
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const segments = pathPart.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      refuse(raw, 'the path has a malformed %-escape');
    }
  });
  if (segments.some((s) => s === '.' || s === '..' || s.includes('/') || s.includes('\\'))) refuse(raw, 'dot segments (. and ..) and encoded slashes are not allowed');
  const basePath = base.pathname.replace(/\/$/, '');
  const url = new URL(basePath + pathPart, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) refuse(raw, 'it would leave the configured API');
  const query: [string, string][] = [];
  if (q >= 0) for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) query.push([k, v]);
  return { path: pathPart, query };
}
