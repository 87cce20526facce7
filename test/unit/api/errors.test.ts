import { describe, expect, it } from 'vitest';
import { apiErrorFrom, redirectError } from '../../../src/api/errors.js';
import { ApiError, ExitCode } from '../../../src/errors.js';

const declared422 = {
  timestamp: '2026-11-22T10:00:00.000Z',
  code: 'VALIDATION_ERROR',
  message: 'Request validation failed',
  path: '/v1/employees',
  correlationId: 'corr-123',
  errors: [{ message: 'must be <= 100', property: 'pageSize' }],
  error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details: [{ field: 'pageSize', message: 'must be <= 100' }, { field: 'status', message: 'invalid value' }] },
};

describe('apiErrorFrom', () => {
  it('reads the declared body, merging errors[] and error.details[] without repeats', () => {
    const err = apiErrorFrom(422, JSON.stringify(declared422), {}, '/v1/employees');
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.apiCode).toBe('VALIDATION_ERROR');
    expect(err.message).toBe('Request validation failed');
    expect(err.correlationId).toBe('corr-123');
    expect(err.details).toEqual([
      { field: 'pageSize', message: 'must be <= 100' },
      { field: 'status', message: 'invalid value' },
    ]);
    expect(err.exitCode).toBe(ExitCode.REJECTED);
  });

  it.each([
    [400, ExitCode.REJECTED],
    [401, ExitCode.NOT_AUTHENTICATED],
    [403, ExitCode.FORBIDDEN],
    [404, ExitCode.NOT_FOUND],
    [409, ExitCode.CONFLICT],
    [422, ExitCode.REJECTED],
    [500, ExitCode.FAILURE],
    [503, ExitCode.FAILURE],
  ])('maps HTTP %i to exit %i', (status, code) => {
    expect(apiErrorFrom(status, '{"message":"x"}', {}, '/').exitCode).toBe(code);
  });

  it('keeps an excerpt of an HTML proxy page and the header correlation id', () => {
    const html = '<html><head><title>502</title></head><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>';
    const err = apiErrorFrom(502, html, { 'x-correlation-id': 'hdr-9' }, '/v1/employees');
    expect(err.message).toMatch(/non-JSON/);
    expect(err.excerpt).toContain('502 Bad Gateway');
    expect(err.excerpt).not.toContain('<h1>');
    expect(err.correlationId).toBe('hdr-9');
  });

  it('reads RFC 7807 problem bodies too', () => {
    const err = apiErrorFrom(403, JSON.stringify({ title: 'Forbidden', detail: 'Insufficient permissions' }), {}, '/x');
    expect(err.message).toBe('Insufficient permissions');
  });

  it('handles an empty body', () => {
    expect(apiErrorFrom(500, '', {}, '/x').message).toMatch(/empty body/);
  });
});

describe('redirectError (redirects are not followed)', () => {
  const url = new URL('https://api.example.com/v1/employees?page=3');
  const redirect = (location: string | undefined, headers: Record<string, string> = {}) => redirectError(302, { location, headers, url, apiPath: '/v1/employees' });

  it('the API moved: says where the redirect points and suggests that base URL', () => {
    const err = redirect('https://new.example.com/partner/v1/employees?page=3', { 'x-request-id': 'req-7' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 302, code: 'HTTP_302', exitCode: ExitCode.FAILURE, correlationId: 'req-7', path: '/v1/employees' });
    expect(err.message).toBe('The server answered HTTP 302, a redirect to https://new.example.com/partner/v1/employees?page=3; partner does not follow redirects');
    expect(err.hint).toBe('The base URL is probably out of date: if https://new.example.com/partner is the API\'s address now, use --base-url https://new.example.com/partner (or put it in PARTNER_BASE_URL or the profile).');
  });

  it('a sign-in page (a relative Location): shown resolved, the base URL called probably wrong, nothing suggested', () => {
    const err = redirect('/login?next=%2Fv1%2Femployees');
    expect(err.message).toBe('The server answered HTTP 302, a redirect to https://api.example.com/login?next=%2Fv1%2Femployees; partner does not follow redirects');
    expect(err.hint).toMatch(/^The base URL is probably wrong .*check --base-url, PARTNER_BASE_URL/);
  });

  it('no base URL suggested that partner would refuse (plain http off loopback)', () => {
    expect(redirect('http://new.example.com/v1/employees').hint).toMatch(/^The base URL is probably wrong/);
    expect(redirect('http://127.0.0.1:8080/v1/employees').hint).toContain('--base-url http://127.0.0.1:8080 ');
  });

  it('no Location: says so', () => {
    expect(redirect(undefined).message).toBe('The server answered HTTP 302, a redirect without a Location; partner does not follow redirects');
  });

  it('an unparsable, hostile or huge Location is sanitised and bounded', () => {
    const hostile = redirect('http://[bad\u001b]2J\u0007');
    expect(hostile.message).not.toMatch(/[\u0000-\u001f]/);
    const huge = redirect(`https://x.example.com/${'a'.repeat(5000)}\u001b[31m/v1/employees`);
    expect(huge.message.length).toBeLessThan(300);
    expect(huge.message).not.toContain('\u001b');
    expect(huge.hint).toMatch(/^The base URL is probably wrong/);
  });
});
