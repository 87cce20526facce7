// Counts in messages: 20000 → "20,000".

/**
 * An integer with thousands separators, as toLocaleString('en-US') writes
 * it, without that call's first-use cost: loading ICU's locale data took
 * ~12 ms, once per process, and every export pays it for its summary line.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${end > 3 ? ',' : ''}${digits.slice(Math.max(0, end - 3), end)}${out}`;
  return n < 0 ? `-${out}` : out;
}

/** "1 employee", "20,000 employees": a count and its noun, plural with -s. */
export function countOf(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
