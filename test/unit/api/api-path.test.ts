import { describe, expect, it } from 'vitest';
import { checkApiPath } from '../../../src/api/api-path.js';
import { UsageError } from '../../../src/errors.js';

const base = new URL('https://api.example.com/partner/');

describe('checkApiPath', () => {
  it('keeps a path under the base path, with its query string split off', () => {
    expect(checkApiPath('/v1/employees?status=ACTIVE&page=2', base)).toEqual({ path: '/v1/employees', query: [['status', 'ACTIVE'], ['page', '2']] });
    expect(checkApiPath('/v1/employees/ACME%2D1/personal', base).path).toBe('/v1/employees/ACME%2D1/personal');
  });

  it('takes a path without its leading slash, as gh api does', () => {
    expect(checkApiPath('v1/employees?page=2', base)).toEqual(checkApiPath('/v1/employees?page=2', base));
    // Still under the configured API: a host-looking first segment is only a path there.
    expect(checkApiPath('evil.example/v1', base).path).toBe('/evil.example/v1');
  });

  it.each([
    'https://evil.example/v1',
    'HTTP://api.example.com/v1',
    'v1/../../x',
    'v1:x',
    '',
    '//evil.example/v1',
    '/\\evil.example',
    '/v1/../../x',
    '/..',
    '/v1/%2e%2E/x',
    '/v1/.%2e/x',
    '/v1/./x',
    '/v1/a%2Fb',
    '/v1/a%5Cb',
    '/v1/%zz',
    '/v1#frag',
    '/v1/\u0000',
    '/v1/\r\nHost: evil',
    `/${'a'.repeat(5000)}`,
  ])('refuses %j with a usage error', (raw) => {
    expect(() => checkApiPath(raw, base)).toThrow(UsageError);
  });
});
