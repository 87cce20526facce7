// Untrusted text (API data, webhook payloads) is neutralised here before it
// reaches a terminal or a spreadsheet. Below every layer that shows text (the
// API layer's messages, the output layer); JSON's own escaping is the output
// layer's (output/sanitize.ts).

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and the other
// escapes (ESC, any intermediates, one final byte: ESC c reset, ESC 7, ESC ( B).
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[ -/]*[0-~]?)|\u009b[0-?]*[ -/]*[@-~]?/g;
// Characters that show nothing where they stand, yet reorder what is shown or
// make two texts that look alike differ ("admin" and "ad\u200bmin"): Unicode's
// default-ignorable code points (bidi marks, embeddings, overrides and
// isolates; zero-width space, joiners, word joiner, invisible operators; BOM;
// soft hyphen; Hangul fillers; variation selectors; tag characters), the line
// and paragraph separators, and the interlinear annotation controls.
export const INVISIBLE = '\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\ufff9-\\ufffb';
// C0 controls except tab/newline, DEL, C1 controls, and the invisible characters (a character class).
const CONTROL = `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`;
// Anything sanitizeTerminal may change: an escape or one of CONTROL. Most cells
// of a big table hold none, and are returned as they are after this one test.
const CANDIDATE = new RegExp(`[\\u001b\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'u');

// Some of the invisible characters are ordinary spelling where they stand, and
// are kept then (see keptFormat): ZWNJ and ZWJ between two letters of a script
// whose letters join (Persian "علی\u200cرضا"), or after a virama (an Indic
// conjunct shown or not), ZWJ inside an emoji ZWJ sequence ("👩🏽\u200d💻"),
// VS15/VS16 right after a character that has a text and an emoji presentation
// ("❤\ufe0f"), an ideographic variation selector after a CJK ideograph (the
// variant of a Japanese name's kanji), a Mongolian free variation selector
// after a Mongolian letter, and the tag characters of the three subdivision
// flags. Anywhere else (at the start or end of the text, next to a space or
// another invisible character, between Latin letters: "ad\u200dmin") they can
// only hide text, and are shown as U+FFFD. Bidi controls are always replaced.
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
/** Scripts whose letters join each other, where ZWNJ/ZWJ choose the shape. */
const JOINING_LETTER = /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Mandaic}\p{scx=Manichaean}\p{scx=Psalter_Pahlavi}\p{scx=Adlam}\p{scx=Hanifi_Rohingya}\p{scx=Sogdian}\p{scx=Old_Uyghur}\p{scx=Phags_Pa}]/u;
/** Viramas (and Khmer coeng, Myanmar asat/virama...): a ZWJ or ZWNJ after one shapes the conjunct. */
const VIRAMA = new Set([
  0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d3b, 0x0d3c, 0x0d4d, 0x0dca, 0x0f84, 0x1039, 0x103a, 0x1714, 0x1715, 0x1734, 0x17d2,
  0x1b44, 0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0xa806, 0xa82c, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f, 0x11046, 0x11070, 0x1107f, 0x110b9, 0x11133,
  0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d, 0x11442, 0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b, 0x11839, 0x1193d, 0x1193e, 0x119e0, 0x11a34,
  0x11a47, 0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97, 0x11f41, 0x11f42,
]);
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LETTER = /\p{L}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** What may stand between an emoji and the ZWJ of its sequence: VS16, skin tones. */
const EMOJI_TAIL = /[\ufe0f\p{Emoji_Modifier}]/u;
const EMOJI = /\p{Emoji}/u;
const IDEOGRAPH = /\p{Ideographic}/u;
const MONGOLIAN = /\p{scx=Mongolian}/u;
/** England, Scotland, Wales: the only tag sequences RGI emoji have; other tag text could smuggle words. */
const TAG_FLAG = /\u{1f3f4}(?:\u{e0067}\u{e0062}(?:\u{e0065}\u{e006e}\u{e0067}|\u{e0073}\u{e0063}\u{e0074}|\u{e0077}\u{e006c}\u{e0073})\u{e007f})/u;

/**
 * The code point before `at` in `text` (a surrogate pair read whole), or 0 at
 * the start: U+0000 is in none of the classes below, so "nothing there" needs no case of its own.
 */
function before(text: string, at: number): number {
  if (at <= 0) return 0;
  const pair = text.codePointAt(at - 2) ?? 0;
  return pair > 0xffff ? pair : text.charCodeAt(at - 1);
}
const lengthOf = (cp: number) => String.fromCodePoint(cp).length;
// One code point is tested, so the classes above need no anchors.
const is = (re: RegExp, cp: number) => re.test(String.fromCodePoint(cp));

/** Whether the invisible character `c` at `at` is spelling in its place (see above), not something hiding text. */
function keptFormat(c: string, at: number, text: string): boolean {
  const cp = c.codePointAt(0)!;
  const prev = before(text, at);
  const nextAt = at + c.length;
  const next = nextAt < text.length ? text.codePointAt(nextAt)! : 0;
  if (cp === ZWNJ || cp === ZWJ) {
    if (VIRAMA.has(prev)) return is(LETTER, next) && is(LETTER_OR_MARK, before(text, at - lengthOf(prev)));
    if (is(JOINING_LETTER, prev) && is(LETTER_OR_MARK, prev) && is(JOINING_LETTER, next) && is(LETTER, next)) return true;
    if (cp !== ZWJ || !is(PICTOGRAPHIC, next)) return false;
    // Back over VS16 and a skin tone (at most one of each) to the emoji the sequence joins.
    let back = at;
    let base = prev;
    for (let i = 0; i < 2 && is(EMOJI_TAIL, base); i++) {
      back -= lengthOf(base);
      base = before(text, back);
    }
    return is(PICTOGRAPHIC, base);
  }
  if (cp === 0xfe0e || cp === 0xfe0f) {
    if (!is(EMOJI, prev)) return false;
    // A digit, # or * takes one only as a keycap ("1\ufe0f\u20e3"): "user1" and "user1\ufe0f" look alike.
    // (© U+00A9 is the first emoji past those ASCII ones.)
    return prev >= 0xa9 || next === 0x20e3;
  }
  // What MAYBE_KEPT leaves: VS1-VS14 and the ideographic variation selectors (after an ideograph), Mongolian FVS1-FVS4.
  if (cp >= 0xfe00) return is(IDEOGRAPH, prev);
  return is(MONGOLIAN, prev) && is(LETTER, prev);
}

/** Candidates for keptFormat: joiners, variation selectors. Everything else in CONTROL is always replaced. */
const MAYBE_KEPT = /[\u200c\u200d\ufe00-\ufe0f\u180b-\u180d\u180f\u{e0100}-\u{e01ef}]/u;
const FLAG_OR_CONTROL = new RegExp(`${TAG_FLAG.source}|${CONTROL}`, 'gu');

/**
 * Safe for a terminal: escape sequences removed, other controls and invisible
 * characters shown as U+FFFD, but for joiners and variation selectors that are
 * spelling where they stand (above). Newlines and tabs kept.
 */
export function sanitizeTerminal(text: string): string {
  if (!CANDIDATE.test(text)) return text;
  // A subdivision flag is matched whole (its tag characters kept); a tag character anywhere else is one of CONTROL.
  return text.replace(ESCAPE_SEQUENCE, '').replace(FLAG_OR_CONTROL, (c: string, at: number, whole: string) => {
    if (c.length > 2) return c;
    return MAYBE_KEPT.test(c) && keptFormat(c, at, whole) ? c : '\ufffd';
  });
}

/** Safe for one table cell: as sanitizeTerminal, and on one line. */
export function sanitizeCell(text: string): string {
  return sanitizeTerminal(text.replace(/\r\n|\r|\n/g, ' ↵ ').replace(/\t/g, ' '));
}

// Tab or CR first, or = + - @ first once an importer has trimmed what it may:
// whitespace and line breaks, a BOM, control and invisible characters.
const FORMULA_START = new RegExp(`^(?:[\\t\\r]|[\\s\\p{Cc}${INVISIBLE}]*[=+\\-@])`, 'u');

// What a terminal acts on when a file is printed (`cat`, `grep`, `less -r`): C0 controls but tab
// and line feed, DEL, C1, and a carriage return that does not end a line (it would overwrite it).
const FILE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/**
 * Terminal control characters in data bound for a file (a CSV cell) shown as
 * their visible Control Pictures (ESC as ␛, BEL as ␇, DEL as ␡; a C1 control
 * as U+FFFD): the file keeps what was there, and printing it changes nothing
 * on the screen. Line breaks and tabs are kept.
 */
export function neutraliseControls(text: string): string {
  return text.replace(FILE_CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0x1f ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
  });
}

/** Spreadsheet formula injection: a leading ' makes the cell plain text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
