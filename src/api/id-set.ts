import { decimalKey, isExact, LosslessNumber } from '../json/lossless-number.js';

/**
 * An exact set of ids for a whole export, compact enough for 200,000
 * employees: a UUID (what the API sends) is kept as its 128 bits in an
 * open-addressing table of Uint32 words (16 bytes a slot, no string kept
 * alive), instead of ~90 bytes for a string in a Set. UUIDs are
 * case-insensitive (RFC 9562), so "ABC…" and "abc…" are one id. Any other
 * string goes to a plain Set<string>, so membership is exact for every
 * string: no hashing of the text, no false "seen before". A number is an id
 * of its own kind (a Set<number>): 1 and "1" are two ids. A number a double
 * does not hold (12345678901234567890, a LosslessNumber) is kept by its
 * decimal value, exactly: never one id with its nearest neighbour.
 */
export class IdSet {
  private words: Uint32Array;
  private capacity: number;
  private count = 0;
  private zero = false;
  private readonly others = new Set<string>();
  private readonly numbers = new Set<number>();
  private readonly bigNumbers = new Set<string>();
  private readonly key = new Uint32Array(4);

  /**
   * `expected`: how many ids are likely (the announced total); the table
   * grows past it anyway. Sized for at most 262,144 up front (8 MiB): a
   * total is the server's claim (a bad one said a billion), and the table
   * doubles as ids really come.
   */
  constructor(expected = 1024) {
    this.capacity = tableSize(Math.min(expected, 1 << 18));
    this.words = new Uint32Array(this.capacity * 4);
  }

  get size(): number {
    return this.count + (this.zero ? 1 : 0) + this.others.size + this.numbers.size + this.bigNumbers.size;
  }

  /** Adds the id; false if it was already there. */
  add(id: string | number | LosslessNumber): boolean {
    if (typeof id === 'number') return added(this.numbers, id);
    if (id instanceof LosslessNumber) return isExact(id.source) ? added(this.numbers, Number(id.source)) : added(this.bigNumbers, decimalKey(id.source));
    if (!parseUuid(id, this.key)) return added(this.others, id);
    const k = this.key;
    if ((k[0]! | k[1]! | k[2]! | k[3]!) === 0) {
      // The all-zero UUID is the empty-slot marker of the table: kept aside.
      if (this.zero) return false;
      this.zero = true;
      return true;
    }
    if ((this.count + 1) * 4 > this.capacity * 3) this.grow();
    if (!this.insert(k)) return false;
    this.count++;
    return true;
  }

  has(id: string | number | LosslessNumber): boolean {
    if (typeof id === 'number') return this.numbers.has(id);
    if (id instanceof LosslessNumber) return isExact(id.source) ? this.numbers.has(Number(id.source)) : this.bigNumbers.has(decimalKey(id.source));
    if (!parseUuid(id, this.key)) return this.others.has(id);
    const k = this.key;
    if ((k[0]! | k[1]! | k[2]! | k[3]!) === 0) return this.zero;
    const w = this.words;
    const mask = this.capacity - 1;
    for (let slot = hash(k) & mask; ; slot = (slot + 1) & mask) {
      const o = slot * 4;
      if ((w[o]! | w[o + 1]! | w[o + 2]! | w[o + 3]!) === 0) return false;
      if (w[o] === k[0] && w[o + 1] === k[1] && w[o + 2] === k[2] && w[o + 3] === k[3]) return true;
    }
  }

  /** Linear probing; false if the key is present. */
  private insert(k: Uint32Array): boolean {
    const w = this.words;
    const mask = this.capacity - 1;
    for (let slot = hash(k) & mask; ; slot = (slot + 1) & mask) {
      const o = slot * 4;
      if ((w[o]! | w[o + 1]! | w[o + 2]! | w[o + 3]!) === 0) {
        w[o] = k[0]!;
        w[o + 1] = k[1]!;
        w[o + 2] = k[2]!;
        w[o + 3] = k[3]!;
        return true;
      }
      if (w[o] === k[0] && w[o + 1] === k[1] && w[o + 2] === k[2] && w[o + 3] === k[3]) return false;
    }
  }

  private grow(): void {
    const old = this.words;
    this.capacity *= 2;
    this.words = new Uint32Array(this.capacity * 4);
    const k = new Uint32Array(4);
    for (let o = 0; o < old.length; o += 4) {
      if ((old[o]! | old[o + 1]! | old[o + 2]! | old[o + 3]!) === 0) continue;
      k[0] = old[o]!;
      k[1] = old[o + 1]!;
      k[2] = old[o + 2]!;
      k[3] = old[o + 3]!;
      this.insert(k);
    }
  }
}

/** Adds `x` to `set`; false if it was already there. */
function added<T>(set: Set<T>, x: T): boolean {
  const before = set.size;
  return set.add(x).size > before;
}

/** A power of two with room for `expected` keys at a load of at most 3/4. */
function tableSize(expected: number): number {
  let size = 16;
  while (size * 3 < Math.max(0, expected) * 4) size *= 2;
  return size;
}

function hash(k: Uint32Array): number {
  // Not every id is a random v4 UUID (v1/v7 ones share their leading bits): mix all four words.
  let h = Math.imul(k[0]! ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ k[1]! ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ k[2]! ^ (h >>> 13), 0x85ebca6b);
  h = Math.imul(h ^ k[3]! ^ (h >>> 16), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Parses a UUID in its canonical form (36 characters, dashes at 8/13/18/23,
 * hex digits in either case) into four 32-bit words; false for any other
 * string, which the caller then keeps as text. Lower case is checked first:
 * it is what servers send, and costs nothing more than before.
 */
export function parseUuid(id: string, out: Uint32Array): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let nibbles = 0;
  let w = 0;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
      continue;
    }
    let v: number;
    if (c >= 48 && c <= 57) v = c - 48;
    else if (c >= 97 && c <= 102) v = c - 87;
    else if (c >= 65 && c <= 70) v = c - 55;
    else return false;
    word = (word << 4) | v;
    if (++nibbles === 8) {
      out[w++] = word >>> 0;
      word = 0;
      nibbles = 0;
    }
  }
  return true;
}
