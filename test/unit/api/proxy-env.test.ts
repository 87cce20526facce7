import { describe, expect, it } from 'vitest';
import { noProxyMatches, proxyForUrl, proxyVariable } from '../../../src/api/proxy-env.js';

const url = (u: string) => new URL(u);

describe('the proxy a request takes (proxy-env.ts)', () => {
  it('HTTPS_PROXY for https, else HTTP_PROXY; HTTP_PROXY alone for http; lower case first; empty is unset', () => {
    expect(proxyForUrl(url('https://a.example'), { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://h:1' })).toBe('http://s:1');
    expect(proxyForUrl(url('https://a.example'), { HTTP_PROXY: 'http://h:1' })).toBe('http://h:1');
    expect(proxyForUrl(url('http://a.example'), { HTTPS_PROXY: 'http://s:1' })).toBe('');
    expect(proxyForUrl(url('http://a.example'), { HTTPS_PROXY: 'http://s:1', http_proxy: 'http://h:1' })).toBe('http://h:1');
    expect(proxyForUrl(url('https://a.example'), { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })).toBe('http://lower:1');
    expect(proxyForUrl(url('https://a.example'), { https_proxy: '', HTTPS_PROXY: 'http://upper:1' })).toBe('http://upper:1');
    expect(proxyForUrl(url('https://a.example'), {})).toBe('');
    expect(proxyVariable('https:', { HTTP_PROXY: 'http://h:1' })).toEqual({ name: 'HTTP_PROXY', value: 'http://h:1' });
  });

  it('NO_PROXY: a host and its subdomains, a leading dot or *. alike, a port when named, * for all, case-blind', () => {
    const env = (v: string) => ({ HTTPS_PROXY: 'http://p:1', NO_PROXY: v });
    expect(proxyForUrl(url('https://corp.example'), env('corp.example'))).toBe('');
    expect(proxyForUrl(url('https://api.corp.example'), env('corp.example'))).toBe('');
    expect(proxyForUrl(url('https://api.corp.example'), env('.corp.example'))).toBe('');
    expect(proxyForUrl(url('https://api.corp.example'), env('*.corp.example'))).toBe('');
    expect(proxyForUrl(url('https://notcorp.example'), env('corp.example'))).toBe('http://p:1');
    expect(proxyForUrl(url('https://API.Corp.example'), env('corp.EXAMPLE'))).toBe('');
    expect(proxyForUrl(url('https://a.example:8443'), env('a.example:443'))).toBe('http://p:1');
    expect(proxyForUrl(url('https://a.example'), env('a.example:443'))).toBe('');
    expect(proxyForUrl(url('https://a.example'), env('x.example, a.example'))).toBe('');
    expect(proxyForUrl(url('https://a.example'), env('*'))).toBe('');
    expect(proxyForUrl(url('https://[::1]:9'), env('[::1]'))).toBe('');
    expect(noProxyMatches(url('https://a.example'), { no_proxy: 'a.example', NO_PROXY: 'b.example' })).toBe(true);
    expect(noProxyMatches(url('https://a.example'), { NO_PROXY: ',,' })).toBe(false);
  });
});
