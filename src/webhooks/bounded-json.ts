// Size and nesting limits checked on JSON text BEFORE JSON.parse: a 40 KB
// header of 5,000 nested objects parses, but every recursive walk after it
// (JSON.stringify, sanitising, rendering) overflows the stack. The scan is
// linear and allocation-free.

/** True when arrays/objects in `text` nest deeper than `max` (strings are skipped, escapes honoured). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Trims JSON whitespace (space, tab, CR, LF) only. String#trim would also
 * remove U+FEFF, silently accepting a byte-order mark, and a regex anchored
 * at the end backtracks quadratically on long whitespace runs.
 */
export function trimJsonWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && WS.has(text.charCodeAt(start))) start++;
  while (end > start && WS.has(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
