import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { checkDepth, jsonOf, MAX_DEPTH } from '../../../src/output/depth.js';
import { failure, nested } from '../../helpers/nested.js';

describe('checkDepth', () => {
  it('accepts 64 levels of arrays and objects, refuses 65 with NESTED_TOO_DEEP (exit 1) naming the path', async () => {
    expect(MAX_DEPTH).toBe(64);
    expect(() => checkDepth(nested(64))).not.toThrow();
    expect(() => checkDepth(nested(63, { a: 1 }))).not.toThrow();
    expect(() => checkDepth({ a: { b: nested(62) } })).not.toThrow();
    for (const tooDeep of [nested(65), nested(64, {}), nested(64, []), { a: { b: nested(63) } }]) expect(() => checkDepth(tooDeep)).toThrow(CliError);
    const err = await failure(() => checkDepth({ a: { b: nested(63) } }, 'dept'));
    expect(err).toBeInstanceOf(CliError);
    expect(err.code).toBe('NESTED_TOO_DEEP');
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe('The value at dept.a.b.0.0.… is nested more than 64 levels deep (arrays or objects inside each other): too deep to show.');
  });

  it('100,000 levels: the same error, no stack overflow', async () => {
    const err = await failure(() => checkDepth({ department: nested(100_000) }));
    expect(err.code).toBe('NESTED_TOO_DEEP');
    expect(err.message).toMatch(/^The value at department\.0\.0\.0\.0\.… is nested/);
  });

  it('names the first branch too deep, and cuts long keys', async () => {
    expect((await failure(() => checkDepth({ ok: [[1]], list: [{ x: 1 }, { y: nested(70) }] }))).message).toMatch(/^The value at list\.1\.y\.0\.0\.… /);
    expect((await failure(() => checkDepth({ [`k${'x'.repeat(100)}`]: nested(64) }))).message).toMatch(new RegExp(`^The value at k${'x'.repeat(39)}…\\.0\\.0\\.0\\.0\\.… `));
    expect((await failure(() => checkDepth(nested(65), 'a.b'))).message).toMatch(/^The value at a\.b\.0\.0\.0\.… /);
  });

  it('scalars and shallow values pass whatever their size', () => {
    for (const v of [null, undefined, 0, 'x', true, [], {}, Array.from({ length: 10_000 }, (_, i) => ({ i }))]) expect(() => checkDepth(v)).not.toThrow();
  });
});

describe('jsonOf', () => {
  it('is JSON.stringify for values up to 64 levels deep', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonOf(v)).toBe(JSON.stringify(v));
      }),
    );
    expect(jsonOf(nested(64))).toBe(`${'['.repeat(64)}"x"${']'.repeat(64)}`);
    expect(jsonOf({ a: [1] }, '', 2)).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
  it('refuses a deeper value, naming it', async () => {
    const err = await failure(() => jsonOf({ b: nested(100_000) }, 'a'));
    expect(err.code).toBe('NESTED_TOO_DEEP');
    expect(err.message).toMatch(/^The value at a\.b\.0\.0\.0\.… /);
  });
});
