// Text as people type it in any script: the same word in NFC or NFD, digits
// from an IME (fullwidth, Arabic-Indic, Persian, Devanagari...), names
// sorted as the reader's language sorts them, and which typed text is safe to
// put back on an editable line exactly as it is.

/** NFC, the spelling compared: `é` typed as one code point or as `e` + U+0301 are the same text. */
export function nfc(text: string): string {
  return text.normalize('NFC');
}

/** The same text once both are NFC (exact otherwise: case and accents count). */
export function sameText(a: string, b: string): boolean {
  return nfc(a) === nfc(b);
}

/** The same text ignoring case (`toLowerCase`, locale-independent), both NFC. */
export function sameTextIgnoringCase(a: string, b: string): boolean {
  return nfc(a).toLowerCase() === nfc(b).toLowerCase();
}

/**
 * Decimal digits of any script (Unicode Nd: `１９９０`, `٦٠٠٠٠`, `۶۰۰۰۰`, `६०`)
 * as ASCII digits, and the fullwidth `+ , - .` as ASCII; everything else as
 * typed. Unicode encodes every set of decimal digits as ten consecutive code
 * points from 0 to 9 (a stability guarantee), so a digit's value is its
 * distance from the start of its run of digits, modulo ten (runs such as the
 * five mathematical digit sets sit back to back).
 */
export function asciiDigits(text: string): string {
  // Punctuation an East Asian IME types in full width alongside its digits:
  // fullwidth plus, comma, hyphen-minus, full stop, and the Arabic decimal
  // separator (only ever a decimal mark, unlike the comma). The regular
  // expressions and this table live here, not at module level, so that the
  // unit tests of this function are the ones that exercise them.
  const wide: Record<string, string> = { '\uff0b': '+', '\uff0c': ',', '\uff0d': '-', '\uff0e': '.', '\u066b': '.' };
  // ASCII stays as typed (an ASCII digit is its own value); a text without other characters is returned as it is.
  return text.replace(/[^\x00-\x7f]/gu, (ch) => {
    if (!/\p{Nd}/u.test(ch)) return wide[ch] ?? ch;
    const cp = ch.codePointAt(0)!;
    let start = cp;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String((cp - start) % 10);
  });
}

/**
 * Compares names as the reader's language sorts them (`Intl.Collator` of the
 * default locale, or `locale`), then by code point, so names the collator
 * calls equal still come in one order on every run.
 */
export function compareNames(a: string, b: string, locale?: string): number {
  return compareWith(new Intl.Collator(locale), a, b);
}

// (A collator's usage is 'sort' unless asked otherwise.)
function compareWith(collator: Intl.Collator, a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The names sorted for people (compareNames, with one collator for the whole sort); a new array. */
export function sortNames(names: readonly string[], locale?: string): string[] {
  const collator = new Intl.Collator(locale);
  return [...names].sort((a, b) => compareWith(collator, a, b));
}

let graphemeSegmenter: Intl.Segmenter | undefined;
/** Grapheme clusters of the text (extended, as Unicode defines them: a segmenter's default granularity). */
export function graphemes(text: string): string[] {
  graphemeSegmenter ??= new Intl.Segmenter();
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

/**
 * Whether the text may go back onto an editable line exactly as it is: only
 * printable text, with joiners and variation selectors inside a grapheme
 * (never starting one: a cluster of its own is invisible), and tag
 * characters only inside a 🏴 flag. Anything else (an escape, a control, a
 * bidi override, a zero-width space) is shown made safe instead.
 */
export function safeToEdit(text: string): boolean {
  for (const cluster of graphemes(text)) {
    let first = true;
    for (const ch of cluster) {
      // Controls (C0 with tab and newline, DEL, C1), and the invisible characters a
      // terminal may act on or that make two texts look alike: default-ignorable
      // code points (bidi controls, zero-width space, word joiner, soft hyphen...),
      // the line and paragraph separators, the interlinear annotation controls.
      if (/[\u0000-\u001f\u007f-\u009f\p{Default_Ignorable_Code_Point}\u2028\u2029\ufff9-\ufffb]/u.test(ch)) {
        // Those that show nothing by themselves but belong to the letter or emoji
        // before them: ZWNJ and ZWJ (Persian, Indic scripts, emoji sequences),
        // variation selectors (VS16 makes an emoji of ❤; Mongolian has its own),
        // the combining grapheme joiner (Hebrew mark order). Combining marks are
        // printable and need no rule. Tag characters only inside a flag that
        // starts with U+1F3F4 (🏴 England): elsewhere they can hide text.
        const joining = /[\u034f\u180b-\u180d\u180f\u200c\u200d\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u.test(ch);
        const joined = !first && (joining || (/[\u{e0020}-\u{e007f}]/u.test(ch) && cluster.startsWith('\u{1f3f4}')));
        if (!joined) return false;
      }
      first = false;
    }
  }
  return true;
}

/**
 * Backspace by grapheme cluster: readline's Backspace takes one code point
 * out of `before`, leaving `after`. Returns how many more code points before
 * the cursor belong to the same cluster (the rest of an emoji sequence, a
 * flag's first half, the letter under a combining mark), so that many more
 * Backspaces delete the whole cluster; 0 when none, or when `after` is not
 * `before` less one code point. Where two places give the same text the
 * first is taken (only text of repeated code points, where either reads the same).
 */
export function restOfCluster(before: string, after: string): number {
  // Where the two first differ (charCodeAt past the end is NaN, equal to nothing), not inside a surrogate pair.
  let i = 0;
  while (before.charCodeAt(i) === after.charCodeAt(i)) i++;
  if ((before.codePointAt(i - 1) ?? 0) > 0xffff) i--;
  // One code point gone there and nothing else changed (a text that grew, or lost none or more, fails this).
  const removed = before.length - after.length;
  const gone = before.slice(i, i + removed);
  if ([...gone].length !== 1 || before.slice(0, i) + before.slice(i + removed) !== after) return 0;
  let start = 0;
  for (const cluster of graphemes(before)) {
    if (start + cluster.length > i) break;
    start += cluster.length;
  }
  return [...before.slice(start, i)].length;
}
