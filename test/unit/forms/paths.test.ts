import { describe, expect, it } from 'vitest';
import { getAt, setAt } from '../../../src/forms/paths.js';

describe('dot paths into the answers', () => {
  it('setAt creates objects and arrays on the way; getAt reads through both', () => {
    const doc: Record<string, unknown> = {};
    setAt(doc, ['a', 'list', '0', 'x'], 1);
    expect(doc).toEqual({ a: { list: [{ x: 1 }] } });
    expect(getAt(doc, ['a', 'list', '0', 'x'])).toBe(1);
    expect(getAt(doc, ['a', 'list', '1', 'x'])).toBeUndefined();
    expect(getAt(doc, ['a', 'list', 'x'])).toBeUndefined(); // not an index of the array
    expect(getAt({ a: 'text' }, ['a', 'b'])).toBeUndefined();
  });

  it('undefined deletes a key, or removes an array item (the ones after it move up)', () => {
    const doc: Record<string, unknown> = { a: { list: [{ x: 1 }, { x: 2 }, { x: 3 }], k: 1 } };
    setAt(doc, ['a', 'list', '0'], undefined);
    setAt(doc, ['a', 'k'], undefined);
    expect(doc).toEqual({ a: { list: [{ x: 2 }, { x: 3 }] } });
  });

  it('a scalar on the way is replaced by the container the path needs', () => {
    const doc: Record<string, unknown> = { a: 'text' };
    setAt(doc, ['a', 'b'], true);
    expect(doc).toEqual({ a: { b: true } });
  });
});
