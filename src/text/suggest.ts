// "Did you mean": the one edit distance of the project (unknown commands,
// sections, flags' values).

/** Edit distance (insert, delete, substitute, swap adjacent). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest name within `max` edits (default: 40% of its length, at least 1), if any. */
export function closest(word: string, names: readonly string[], max?: number): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const dist = distance(word, n);
    if (dist < bestD && dist <= (max ?? Math.max(1, Math.floor(n.length * 0.4)))) {
      best = n;
      bestD = dist;
    }
  }
  return best;
}
