import { describe, expect, it } from 'vitest';
import { applyJq, checkJqFilter } from '../../../src/output/jq.js';
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
