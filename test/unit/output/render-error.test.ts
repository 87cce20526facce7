import { describe, expect, it } from 'vitest';
import { ApiError, CliError, NetworkError, ResponseFormatError, UsageError } from '../../../src/errors.js';
import { colors } from '../../../src/output/colors.js';
import { errorDocument, headline, renderError, renderErrorJson } from '../../../src/output/render-error.js';

const c = colors(false);

describe('headline', () => {
  it('a 401 is a sentence with the most specific code', () => {
    expect(headline(new ApiError({ status: 401, message: 'AUTHORIZATION_INVALID_TOKEN', apiCode: 'UNAUTHORIZED' }))).toBe('Your token was refused (AUTHORIZATION_INVALID_TOKEN)');
    expect(headline(new ApiError({ status: 401, message: 'Token expired', apiCode: 'UNAUTHORIZED' }))).toBe('Your token was refused (UNAUTHORIZED)');
    expect(headline(new ApiError({ status: 401, message: 'Token expired' }))).toBe('Your token was refused (HTTP 401)');
  });
  it('other errors keep their message', () => {
    expect(headline(new UsageError('bad flag'))).toBe('bad flag');
    expect(headline(new Error('boom'))).toBe('unexpected failure: boom');
  });
});

describe('renderError (text)', () => {
  it('a 401: the sentence, then the server answer in its own words when they are not just the code', () => {
    const text = renderError(new ApiError({ status: 401, message: 'Token expired', apiCode: 'UNAUTHORIZED', correlationId: 'c-1' }), c, false);
    expect(text).toBe('Error: Your token was refused (UNAUTHORIZED)\n  Server answer: UNAUTHORIZED, HTTP 401: Token expired\n  Correlation id: c-1 (quote it to support)\nLog in again with `partner auth login`, or check PARTNER_TOKEN.\n');
  });
});

describe('renderError (text): the status', () => {
  it('after the message, with the API code; once only when the message already says it', () => {
    expect(renderError(new ApiError({ status: 422, message: 'Request validation failed', apiCode: 'VALIDATION_ERROR' }), c, false).split('\n')[0]).toBe('Error: Request validation failed (VALIDATION_ERROR, HTTP 422)');
    expect(renderError(new ApiError({ status: 503, message: 'Service unavailable' }), c, false).split('\n')[0]).toBe('Error: Service unavailable (HTTP 503)');
    expect(renderError(new ApiError({ status: 502, message: 'The server answered HTTP 502 with a non-JSON body' }), c, false).split('\n')[0]).toBe('Error: The server answered HTTP 502 with a non-JSON body');
    // A code the message does not say is still shown.
    expect(renderError(new ApiError({ status: 502, message: 'The server answered HTTP 502', apiCode: 'BAD_GATEWAY' }), c, false).split('\n')[0]).toBe('Error: The server answered HTTP 502 (BAD_GATEWAY, HTTP 502)');
  });
});

describe('errorDocument (JSON)', () => {
  it('an API error: code, status, message, correlation id, details, exit code, hint', () => {
    const err = new ApiError({ status: 422, message: 'Request validation failed', apiCode: 'VALIDATION_ERROR', correlationId: 'abc', details: [{ field: 'status', message: 'must be one of ACTIVE' }] });
    expect(errorDocument(err)).toEqual({
      error: { code: 'VALIDATION_ERROR', status: 422, message: 'Request validation failed', correlationId: 'abc', details: [{ field: 'status', message: 'must be one of ACTIVE' }], exitCode: 7 },
    });
  });

  it("partner's own errors: its code, no status, its hint", () => {
    expect(errorDocument(new NetworkError('Could not reach GET https://x/v1: ECONNREFUSED', 'Check the base URL.'))).toEqual({
      error: { code: 'NETWORK', status: null, message: 'Could not reach GET https://x/v1: ECONNREFUSED', correlationId: null, details: [], exitCode: 1, hint: 'Check the base URL.' },
    });
    expect(errorDocument(new TypeError('x is undefined')).error).toMatchObject({ code: 'UNEXPECTED', exitCode: 1, message: 'unexpected failure: x is undefined' });
  });

  it('is one line, sanitised and bounded whatever the server sent', () => {
    const huge = 'A'.repeat(100_000);
    const err = new ApiError({
      status: 400,
      message: `bad \u001b[31mred\u001b[0m ${huge}`,
      apiCode: 'BAD\u001b]0;title\u0007_REQUEST',
      details: Array.from({ length: 5000 }, (_, i) => ({ field: `f${i}\n`, message: huge })),
    });
    const line = renderErrorJson(err);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(line).not.toMatch(/\u001b/);
    expect(line.length).toBeLessThan(100_000);
    const doc = JSON.parse(line) as ReturnType<typeof errorDocument>;
    expect(doc.error.code).toBe('BAD_REQUEST');
    expect(doc.error.message.startsWith('bad red ')).toBe(true);
    expect(doc.error.message.length).toBeLessThanOrEqual(1001);
    expect(doc.error.details).toHaveLength(100);
    expect(doc.error.details[0]!.message.length).toBeLessThanOrEqual(501);
  });
});

describe('renderError, every kind', () => {
  it('an API error other than 401: message, code and status, fields, body, path, correlation id, hint', () => {
    const err = new ApiError({ status: 422, message: 'Request validation failed', apiCode: 'VALIDATION_ERROR', correlationId: 'abc', path: '/v1/x', details: [{ field: 'status', message: 'bad' }, { field: '', message: 'general' }], excerpt: 'Bad Gateway' });
    expect(renderError(err, c, false)).toBe('Error: Request validation failed (VALIDATION_ERROR, HTTP 422)\n  - status: bad\n  - general\n  Body: Bad Gateway\n  Path: /v1/x\n  Correlation id: abc (quote it to support)\n');
    expect(renderError(new ApiError({ status: 500, message: 'boom' }), c, false)).toBe('Error: boom (HTTP 500)\nThe service had a problem; try again later and quote the correlation id if it persists.\n');
  });

  it('a 401 whose message is the code alone: no repeat of it', () => {
    expect(renderError(new ApiError({ status: 401, message: 'AUTHORIZATION_INVALID_TOKEN', apiCode: 'UNAUTHORIZED' }), c, false)).toBe(
      'Error: Your token was refused (AUTHORIZATION_INVALID_TOKEN)\n  Server answer: UNAUTHORIZED, HTTP 401\nLog in again with `partner auth login`, or check PARTNER_TOKEN.\n',
    );
  });

  it('a bad response body, a CliError with a hint, a bug with and without --debug', () => {
    expect(renderError(new ResponseFormatError('The server answered HTTP 200 with invalid JSON', 200, '<html>'), c, false)).toBe('Error: The server answered HTTP 200 with invalid JSON\n  Body: <html>\n');
    expect(renderError(new UsageError('bad flag', 'do this'), c, false)).toBe('Error: bad flag\ndo this\n');
    expect(renderError(new Error('boom'), c, false)).toBe('Error: unexpected failure: boom\nThis is a bug in partner. Run again with --debug for details and report it.\n');
    expect(renderError(new Error('boom'), c, true)).toMatch(/^Error: unexpected failure: boom\nError: boom\n\s+at /);
    const withCause = new NetworkError('Could not reach', undefined, 'NETWORK', new Error('ECONNREFUSED'));
    expect(renderError(withCause, c, false)).toBe('Error: Could not reach\n');
    // --debug prints no stack trace for an ordinary network failure; other causes keep theirs.
    expect(renderError(withCause, c, true)).toBe('Error: Could not reach\n');
    const failedCause = new CliError('Could not finish', { code: 'X', exitCode: 1, cause: new Error('EIO') });
    expect(renderError(failedCause, c, true)).toMatch(/^Error: Could not finish\nError: EIO\n\s+at /);
  });
});

describe('errorDocument, edges', () => {
  it('code-like only when the whole message is an UPPER_SNAKE word', () => {
    expect(headline(new ApiError({ status: 401, message: 'bad AUTH_FAILED', apiCode: 'UNAUTHORIZED' }))).toBe('Your token was refused (UNAUTHORIZED)');
    expect(headline(new ApiError({ status: 401, message: 'AUTH_FAILED now', apiCode: 'UNAUTHORIZED' }))).toBe('Your token was refused (UNAUTHORIZED)');
  });

  it('the start of a non-JSON body, and what the failure concerns', () => {
    expect(errorDocument(new ResponseFormatError('invalid JSON', 200, '<html>x')).error).toMatchObject({ code: 'BAD_RESPONSE', status: 200, body: '<html>x' });
    expect(errorDocument(new ApiError({ status: 502, message: 'non-JSON body', excerpt: 'Bad Gateway' })).error.body).toBe('Bad Gateway');
    const line = JSON.parse(renderErrorJson(new UsageError('x'), { employee: 'ACME-1', section: null })) as { error: Record<string, unknown> };
    expect(line.error).toMatchObject({ code: 'USAGE', employee: 'ACME-1', section: null });
  });

  it('a message of exactly the bound is kept whole', () => {
    expect(errorDocument(new UsageError('m'.repeat(1000))).error.message).toBe('m'.repeat(1000));
    expect(errorDocument(new UsageError('m'.repeat(1001))).error.message).toBe(`${'m'.repeat(1000)}…`);
  });
});
