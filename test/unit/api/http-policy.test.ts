import { describe, expect, it } from 'vitest';
import { backoffMs, checkBaseUrl, isLoopback, parseRetryAfter } from '../../../src/api/http.js';
import { UsageError } from '../../../src/errors.js';

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0')).toBe(0);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('long waits as asked (the retry policy decides against --timeout), and ignores junk', () => {
    expect(parseRetryAfter('99999')).toBe(99_999_000);
    expect(parseRetryAfter('Fri, 01 Jan 2999 00:00:00 GMT', Date.parse('2026-11-22T10:00:00Z'))).toBe(Date.parse('2999-01-01T00:00:00Z') - Date.parse('2026-11-22T10:00:00Z'));
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    // Empty or blank is no header at all (Date.parse('  ') would be NaN either way; this is the rule, not luck).
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('   ')).toBeUndefined();
    expect(parseRetryAfter([' 3 ', '9'])).toBe(3000);
  });
  it('delta-seconds: several digits, a fraction, surrounding spaces; the first of repeated headers', () => {
    // Each of these also parses as some date in 2001 (V8's lenient Date.parse): as seconds, never as a date.
    expect(parseRetryAfter('12')).toBe(12_000);
    expect(parseRetryAfter('1.5')).toBe(1500);
    expect(parseRetryAfter('0.25')).toBe(250);
    expect(parseRetryAfter(' 2 ')).toBe(2000);
    expect(parseRetryAfter(['3', '7'])).toBe(3000);
  });
  it('a date that starts with a digit is a date; digits mixed with anything else are junk, never NaN', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('22 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('x5')).toBeUndefined();
    expect(parseRetryAfter('5 apples')).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('   ')).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('grows exponentially with jitter inside the bounds', () => {
    expect(backoffMs(1, 100, () => 0)).toBe(10);
    expect(backoffMs(1, 100, () => 1)).toBe(100);
    expect(backoffMs(3, 100, () => 1)).toBe(400);
    expect(backoffMs(30, 100, () => 1)).toBe(20_000);
  });
});

describe('checkBaseUrl', () => {
  it('accepts https and loopback http', () => {
    expect(checkBaseUrl('https://api.example.com').host).toBe('api.example.com');
    expect(checkBaseUrl('http://127.0.0.1:8080').port).toBe('8080');
    expect(checkBaseUrl('http://localhost:1').hostname).toBe('localhost');
    expect(checkBaseUrl('http://[::1]:9').hostname).toBe('[::1]');
  });
  it('refuses plain http elsewhere and other schemes with a code', () => {
    for (const bad of ['http://api.example.com', 'ftp://x', 'http://10.0.0.1', 'not a url']) {
      expect(() => checkBaseUrl(bad)).toThrow(UsageError);
    }
    try {
      checkBaseUrl('http://api.example.com');
    } catch (e) {
      expect((e as UsageError).code).toBe('INSECURE_BASE_URL');
    }
  });
  it('knows loopback names', () => {
    expect(isLoopback('127.4.5.6')).toBe(true);
    expect(isLoopback('localhost.evil.com')).toBe(false);
  });
});
