// proxy-from-env ships no types: its one export, as its README documents it.
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from *_PROXY and NO_PROXY, or '' for none. */
  export function getProxyForUrl(url: string | URL): string;
}
