// How far a job got (CliError.progress, set by an export that failed on a
// page): a line under the message in text, `progress` in the JSON error;
// sanitised and bounded like everything else there.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/errors.js';
import { colors } from '../../../src/output/colors.js';
import { errorDocument, renderError } from '../../../src/output/render-error.js';

const c = colors(false);

describe('error progress', () => {
  it('text: one indented line after the details, before the hint', () => {
    const err = new ApiError({ status: 429, message: 'Too many requests', apiCode: 'RATE_LIMITED', path: '/v1/employees' });
    err.progress = { text: 'Stopped at page 3 of 5; 200 rows written.', data: { page: 3 } };
    expect(renderError(err, c, false)).toBe(
      'Error: Too many requests (RATE_LIMITED, HTTP 429)\n  Path: /v1/employees\n  Stopped at page 3 of 5; 200 rows written.\nThe server is rate limiting requests; wait a moment or lower --concurrency.\n',
    );
  });

  it('JSON: `progress` holds the data; its strings sanitised and bounded, numbers and booleans as they are', () => {
    const err = new NetworkError('No complete answer', 'Raise the limit', 'TIMEOUT');
    err.progress = { text: 'ignored here', data: { page: 3, pages: null, outputFile: `out\u001b[2J/${'x'.repeat(600)}.csv`, outputFileUntouched: true } };
    const progress = errorDocument(err).error.progress!;
    expect(progress).toMatchObject({ page: 3, pages: null, outputFileUntouched: true });
    expect(progress.outputFile).not.toContain('\u001b');
    expect((progress.outputFile as string).length).toBeLessThanOrEqual(501);
  });

  it('no progress, no line and no key', () => {
    const err = new NetworkError('Could not reach', 'Check the base URL.');
    expect(renderError(err, c, false)).toBe('Error: Could not reach\nCheck the base URL.\n');
    expect(errorDocument(err).error).not.toHaveProperty('progress');
  });
});
