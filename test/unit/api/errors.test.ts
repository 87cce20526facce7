import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../../src/api/errors.js';
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
