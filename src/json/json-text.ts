// Reading JSON text by hand, where JSON.parse cannot say what is needed: where
// a row's text starts and ends (json/raw-rows.ts), which numbers JSON.parse
// would change (parse-exact.ts).

/** The end of the string whose opening quote is at `i` (exclusive: after the closing quote), or -1 when it is not closed. */
export function endOfString(t: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let b = q - 1; t.charCodeAt(b) === 0x5c; b--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The first index from `i` that is not JSON whitespace (space, LF, CR, tab). */
export function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
