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

  it('allocates for a claimed total of at most 262,144 ids up front, then grows as ids come', () => {
    const before = process.memoryUsage().arrayBuffers;
    const set = new IdSet(1_000_000_000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(set.add('5e1f0000-0000-4000-8000-000000000001')).toBe(true);
    expect(set.has('5e1f0000-0000-4000-8000-000000000001')).toBe(true);
  });

  it('tells apart ids alike in all but one 32-bit word, crowded into the probe chains of a small table', () => {
    // Each id differs from the base in one of the four words only (hex groups 1, 2, 3+4, 5): a check of
    // fewer than all four words would take one for another where their probes meet.
    const variant = (word: number, v: number) => {
      const hex = v.toString(16).padStart(8, '0');
      const g = ['11111111', '2222', '3333', '4444', '555566667777'];
      if (word === 0) g[0] = hex;
      if (word === 1) g[1] = hex.slice(4);
      if (word === 2) g[3] = hex.slice(4);
      if (word === 3) g[4] = `5555${hex}`;
      return g.join('-');
    };
    const members = [0, 1, 2, 3].flatMap((w) => [1, 2, 3, 4, 5].map((v) => variant(w, v)));
    const others = [0, 1, 2, 3].flatMap((w) => [6, 7, 8, 9, 10, 11, 12, 13].map((v) => variant(w, v)));
    const set = new IdSet(16);
    for (const id of members) expect(set.add(id), id).toBe(true);
    expect(set.size).toBe(members.length);
    for (const id of members) expect(set.has(id), id).toBe(true);
    for (const id of others) expect(set.has(id), id).toBe(false);
    for (const id of members) expect(set.add(id), id).toBe(false);
    expect(set.size).toBe(members.length);
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

  it('takes a UUID in upper or mixed case for the same id (RFC 9562), any other string exactly', () => {
    const set = new IdSet();
    const lower = 'abcdef01-2345-4789-8bcd-ef0123456789';
    expect(set.add(lower)).toBe(true);
    expect(set.add(lower.toUpperCase())).toBe(false);
    expect(set.add('ABCdef01-2345-4789-8BCD-ef0123456789')).toBe(false);
    expect(set.has(lower.toUpperCase())).toBe(true);
    const upperFirst = 'FEDCBA98-7654-4321-8FED-CBA987654321';
    expect(set.add(upperFirst)).toBe(true);
    expect(set.has(upperFirst.toLowerCase())).toBe(true);
    expect(set.add('emp-1')).toBe(true);
    expect(set.add('EMP-1')).toBe(true);
    expect(set.add('emp-1')).toBe(false);
    expect(set.has('emp-2')).toBe(false);
    expect(set.size).toBe(4);
  });

  it('keeps numbers as ids of their own kind: 7 and "7" are two ids', () => {
    const set = new IdSet();
    expect(set.add(7)).toBe(true);
    expect(set.add(7)).toBe(false);
    expect(set.has(7)).toBe(true);
    expect(set.has('7')).toBe(false);
    expect(set.add('7')).toBe(true);
    expect(set.has(8)).toBe(false);
    expect(set.add(0)).toBe(true);
    expect(set.size).toBe(3);
  });

  it('agrees with a Set of canonical keys on any strings and numbers (a UUID in lower case, anything else as it is)', () => {
    const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const canonical = (x: string | number) => (typeof x === 'number' ? x : uuidShape.test(x) ? `uuid:${x.toLowerCase()}` : `text:${x}`);
    const ids = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'a'.repeat(36), 'abcdef01-2345-4789-8bcd-ef0123456789', 'ABCDEF01-2345-4789-8BCD-EF0123456789', 'abcDEF01-2345-4789-8bcd-EF0123456789', '0', 0));
    fc.assert(
      fc.property(fc.array(ids, { maxLength: 200 }), (xs) => {
        const ours = new IdSet(4);
        const ref = new Set<string | number>();
        for (const x of xs) {
          expect(ours.add(x)).toBe(!ref.has(canonical(x)));
          ref.add(canonical(x));
        }
        expect(ours.size).toBe(ref.size);
        for (const x of xs) expect(ours.has(x)).toBe(true);
      }),
    );
  });
});

describe('parseUuid', () => {
  it('reads the 128 bits of a canonical UUID, in lower, upper or mixed case', () => {
    for (const id of ['01234567-89ab-cdef-0123-456789abcdef', '01234567-89AB-CDEF-0123-456789ABCDEF', '01234567-89aB-cDeF-0123-456789AbCdEf']) {
      const out = new Uint32Array(4);
      expect(parseUuid(id, out)).toBe(true);
      expect([...out]).toEqual([0x01234567, 0x89abcdef, 0x01234567, 0x89abcdef]);
    }
  });
  it('refuses anything else', () => {
    const out = new Uint32Array(4);
    for (const bad of ['01234567-89ab-cdef-0123-456789abcdeg', '01234567-89ab-cdef-0123-456789abcdeG', '01234567-89ab-cdef-0123-456789abcde@', '01234567-89ab-cdef-0123-456789abcde`', '0123456789ab-cdef-0123-456789abcdef0', '01234567-89ab-cdef-0123-456789abcde', '01234567_89ab-cdef-0123-456789abcdef', '01234567-89ab-cdef-0123-456789abcdef ']) {
      expect(parseUuid(bad, out)).toBe(false);
    }
  });
});
