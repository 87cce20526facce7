// Which proxy a request takes, read from the environment by the rules partner
// has always applied (they were undici's EnvHttpProxyAgent's, and the guides
// describe them): HTTPS_PROXY for an https URL, else HTTP_PROXY; HTTP_PROXY for
// an http URL; the lower-case name before the upper-case one; NO_PROXY a list of
// hosts, each with an optional :port, matching that host and its subdomains
// ("*" alone: no proxy at all; a leading "." or "*." is the same as none).
// Not proxy-from-env: it reads HTTP_PROXY for http URLs only and matches
// NO_PROXY's "example.com" to that host alone, which would send a user's
// requests through another route than before without a word.
// Pure: no module is loaded, so the client asks it on every start for free.

/** The variables these rules read, in the order they are looked at. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;

/** The proxy URL for `url` ('' for a direct connection). */
export function proxyForUrl(url: URL, env: NodeJS.ProcessEnv = process.env): string {
  const proxy = proxyVariable(url.protocol, env)?.value ?? '';
  if (proxy === '' || noProxyMatches(url, env)) return '';
  return proxy;
}

/** The variable that names the proxy for a URL of this scheme ('https:' or 'http:'), ignoring NO_PROXY. */
export function proxyVariable(protocol: string, env: NodeJS.ProcessEnv = process.env): { name: string; value: string } | undefined {
  const pick = (name: string) => (env[name] ? { name, value: env[name] } : undefined);
  const http = pick('http_proxy') ?? pick('HTTP_PROXY');
  return protocol === 'https:' ? (pick('https_proxy') ?? pick('HTTPS_PROXY') ?? http) : http;
}

/** Whether NO_PROXY names the URL's host (and its port, when the entry has one). */
export function noProxyMatches(url: URL, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.no_proxy || env.NO_PROXY || '').trim().toLowerCase();
  if (value === '') return false;
  if (value === '*') return true;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return value.split(/[,\s]+/).some((raw) => {
    const entry = noProxyEntry(raw);
    if (!entry || (entry.port !== undefined && entry.port !== port)) return false;
    return host === entry.host || host.endsWith(`.${entry.host}`);
  });
}

/** A NO_PROXY entry: `host`, `host:port`, `[v6]`, `[v6]:port` or a bare v6 address; a leading "." or "*." dropped. */
function noProxyEntry(raw: string): { host: string; port?: string } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] };
  if (raw.indexOf(':') !== raw.lastIndexOf(':')) return { host: raw }; // an IPv6 address without brackets
  const [name, port] = raw.split(':');
  const host = (name ?? '').replace(/^\*?\./, '');
  return host === '' ? undefined : { host, port: port || undefined };
}
