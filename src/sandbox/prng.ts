// Deterministic hashing, a small seeded PRNG and a keyed 32-bit bijection.
// Everything the sandbox generates derives from these, so the same seed
// always yields the same data and the same fault sequence.

/** Finalising mix of a 32-bit integer (good avalanche, cheap). */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a tuple of integers to an unsigned 32-bit integer. */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) h = mix32((h ^ mix32((p | 0) + 0x9e3779b9)) >>> 0);
  return h;
}

/** A seeded PRNG (mulberry32) with a few helpers. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** A string of `n` decimal digits (may start with 0). */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
  /** A string of `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += this.int(0, 15).toString(16);
    return s;
  }
}

// ---- keyed bijection on 32-bit integers (index <-> opaque id prefix) ----

const M1 = 0x2c1b3c6d | 1;
const M2 = 0x297a2d39 | 1;

function modInverse32(m: number): number {
  // Newton iteration for the inverse of an odd number modulo 2^32.
  let x = m;
  for (let i = 0; i < 5; i++) x = Math.imul(x, (2 - Math.imul(m, x)) | 0);
  return x >>> 0;
}
const M1_INV = modInverse32(M1);
const M2_INV = modInverse32(M2);

function unXorShiftRight(y: number, s: number): number {
  let x = y;
  for (let i = 0; i < Math.ceil(32 / s); i++) x = (y ^ (x >>> s)) >>> 0;
  return x >>> 0;
}

/** Keyed permutation of [0, 2^32). */
export function permute32(i: number, key: number): number {
  let x = (i + key) >>> 0;
  x = Math.imul((x ^ (x >>> 16)) >>> 0, M1) >>> 0;
  x = (x ^ (x >>> 13)) >>> 0;
  x = Math.imul(x, M2) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return (x ^ mix32(key)) >>> 0;
}

/** Inverse of permute32 for the same key. */
export function unpermute32(y: number, key: number): number {
  let x = (y ^ mix32(key)) >>> 0;
  x = unXorShiftRight(x, 16);
  x = Math.imul(x, M2_INV) >>> 0;
  x = unXorShiftRight(x, 13);
  x = Math.imul(x, M1_INV) >>> 0;
  x = unXorShiftRight(x, 16);
  return (x - key) >>> 0;
}

/** A uuid-v4-shaped string from a 32-bit prefix and an Rng for the rest. */
export function uuidFrom(prefix: number, rng: Rng): string {
  const p = (prefix >>> 0).toString(16).padStart(8, '0');
  const variant = rng.pick(['8', '9', 'a', 'b']);
  return `${p}-${rng.hex(4)}-4${rng.hex(3)}-${variant}${rng.hex(3)}-${rng.hex(12)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
