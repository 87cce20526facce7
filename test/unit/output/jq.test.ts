import { describe, expect, it } from 'vitest';
import { applyJq, checkJqFilter, jqLimits, MAX_JQ_DOCUMENT_BYTES } from '../../../src/output/jq.js';
import { CliError, UsageError } from '../../../src/errors.js';
import { failure, nested } from '../../helpers/nested.js';

describe('embedded jq', () => {
  it('prints results one per line: compact JSON, strings raw', async () => {
    expect(await applyJq({ a: [1, 'x', { b: null }] }, '.a[]')).toBe('1\nx\n{"b":null}\n');
    expect(await applyJq([], '.[]')).toBe('');
    expect(await applyJq(null, '.')).toBe('null\n');
  });

  it('handles a large document in linear time (no quadratic stdin)', async () => {
    const data = Array.from({ length: 20_000 }, (_, i) => ({ id: `id-${i}`, name: 'x'.repeat(100) }));
    expect(await applyJq(data, 'length')).toBe('20000\n');
  });

  it('a syntax error is a UsageError with jq\'s message; a run-time error on null is not', async () => {
    await expect(checkJqFilter('.a |||')).rejects.toBeInstanceOf(UsageError);
    await expect(checkJqFilter('.a |||')).rejects.toThrow(/syntax error/);
    await expect(checkJqFilter('.[] | .a')).resolves.toBeUndefined();
  });

  it('a run-time error on the data exits 1', async () => {
    const err = await applyJq({ a: 1 }, '.a.b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(1);
    expect((err as CliError).code).toBe('JQ_ERROR');
  });

  it('a document nested 100,000 levels deep is NESTED_TOO_DEEP naming the field, never a stack overflow', async () => {
    const err = await failure(() => applyJq({ data: [{ dept: nested(100_000) }] }, '.'));
    expect(err.code).toBe('NESTED_TOO_DEEP');
    expect(err.message).toMatch(/^The value at data\.0\.dept\.0\.0\.… /);
  });
});

describe('the bounds of --jq', () => {
  it('a document over 64 MiB is JQ_LIMIT naming the limit and the streaming alternative', async () => {
    const err = await applyJq({ data: ['x'.repeat(MAX_JQ_DOCUMENT_BYTES)] }, '.data | length').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe('JQ_LIMIT');
    expect((err as CliError).exitCode).toBe(1);
    expect((err as CliError).message).toContain('over its limit of 64 MiB');
    expect((err as CliError).hint).toContain('-o ndjson | jq');
  });

  it('counts the document in UTF-8 bytes: 30 M three-byte characters are over the limit', async () => {
    const err = await applyJq(['€'.repeat(30 * 1024 * 1024)], 'length').catch((e: unknown) => e);
    expect((err as CliError).code).toBe('JQ_LIMIT');
    expect((err as CliError).message).toMatch(/is 90(\.\d)? MiB, over its limit/);
  });

  it('output and memory grow with the document, within fixed bounds', () => {
    expect(jqLimits(4)).toEqual({ maxOutputBytes: 1024 * 1024 + 16, maxHeapBytes: 64 * 1024 * 1024 + 32 });
    expect(jqLimits(MAX_JQ_DOCUMENT_BYTES)).toEqual({ maxOutputBytes: 256 * 1024 * 1024, maxHeapBytes: 576 * 1024 * 1024 });
    expect(jqLimits(10 * MAX_JQ_DOCUMENT_BYTES)).toEqual({ maxOutputBytes: 256 * 1024 * 1024, maxHeapBytes: 1024 * 1024 * 1024 });
  });

  it('a filter that prints without end is stopped at its output limit (JQ_LIMIT)', async () => {
    const err = await checkJqFilter('repeat("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")').catch((e: unknown) => e);
    expect((err as CliError).code).toBe('JQ_LIMIT');
    expect((err as CliError).message).toBe('--jq stopped: the filter printed more than 1 MiB.');
  });

  it('a filter whose memory grows without end is stopped at its memory limit (JQ_LIMIT)', async () => {
    const err = await checkJqFilter('[range(1e9)] | length').catch((e: unknown) => e);
    expect((err as CliError).code).toBe('JQ_LIMIT');
    expect((err as CliError).message).toBe('--jq stopped: the filter needed more than 64 MiB of memory.');
    // The engine is still usable after a run was unwound.
    expect(await applyJq([1, 2], 'add')).toBe('3\n');
  });
});
