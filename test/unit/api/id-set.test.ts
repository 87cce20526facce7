import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet, parseUuid } from '../../../src/api/id-set.js';

describe('IdSet', () => {
  it('is exact for 200,000 random UUIDs, growing past its first size', () => {
    const set = new IdSet(16);
    const ids = Array.from({ length: 200_000 }, () => randomUUID());
    let added = 0;
    for (const id of ids) if (set.add(id)) added++;
    expect(added).toBe(200_000);
    expect(set.size).toBe(200_000);
    for (let i = 0; i < ids.length; i += 997) {
      expect(set.add(ids[i]!)).toBe(false);
      expect(set.has(ids[i]!)).toBe(true);
    }
    expect(set.has(randomUUID())).toBe(false);
    expect(set.size).toBe(200_000);
  });

  it('tells apart ids that differ in one bit, sequential ids and the all-zero UUID', () => {
    const set = new IdSet();
    const seq = Array.from({ length: 5000 }, (_, i) => `00000000-0000-0000-0000-${i.toString(16).padStart(12, '0')}`);
    for (const id of seq) expect(set.add(id)).toBe(true);
    for (const id of seq) expect(set.add(id)).toBe(false);
    expect(set.size).toBe(5000);
    expect(set.has('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(set.has('00000000-0000-0000-0001-000000000000')).toBe(false);
  });

  it('keeps any other string exactly, case included', () => {
    const set = new IdSet();
    const lower = 'abcdef01-2345-4789-8bcd-ef0123456789';
    expect(set.add(lower)).toBe(true);
    expect(set.add(lower.toUpperCase())).toBe(true);
    expect(set.add('emp-1')).toBe(true);
    expect(set.add('emp-1')).toBe(false);
    expect(set.has('emp-2')).toBe(false);
    expect(set.has(lower.toUpperCase())).toBe(true);
    expect(set.size).toBe(3);
  });

  it('agrees with a Set<string> on any strings', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.uuid(), fc.string(), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'a'.repeat(36))), { maxLength: 200 }), (xs) => {
        const ours = new IdSet(4);
        const ref = new Set<string>();
        for (const x of xs) {
          expect(ours.add(x)).toBe(!ref.has(x));
          ref.add(x);
        }
        expect(ours.size).toBe(ref.size);
        for (const x of xs) expect(ours.has(x)).toBe(true);
      }),
    );
  });
});

describe('parseUuid', () => {
  it('reads the 128 bits of a canonical lower-case UUID', () => {
    const out = new Uint32Array(4);
    expect(parseUuid('01234567-89ab-cdef-0123-456789abcdef', out)).toBe(true);
    expect([...out]).toEqual([0x01234567, 0x89abcdef, 0x01234567, 0x89abcdef]);
  });
  it('refuses anything else', () => {
    const out = new Uint32Array(4);
    for (const bad of ['01234567-89ab-cdef-0123-456789abcdeg', '01234567-89AB-cdef-0123-456789abcdef', '0123456789ab-cdef-0123-456789abcdef0', '01234567-89ab-cdef-0123-456789abcde', '01234567_89ab-cdef-0123-456789abcdef', '01234567-89ab-cdef-0123-456789abcdef ']) {
      expect(parseUuid(bad, out)).toBe(false);
    }
  });
});
