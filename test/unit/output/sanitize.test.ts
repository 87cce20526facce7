import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../../src/output/sanitize.js';
import { neutraliseFormula, sanitizeCell, sanitizeTerminal } from '../../../src/text/sanitize.js';

/**
 * Characters that render as nothing (or not where they stand) yet make two
 * texts differ or reorder them: direction marks, the line and paragraph
 * separators, zero-width characters and joiners, invisible operators, BOM,
 * soft hyphen, Hangul fillers, variation selectors, tag characters (astral),
 * invisible musical formatting (astral), interlinear annotation controls.
 */
const INVISIBLE = ['\u200e', '\u200f', '\u061c', '\u2028', '\u2029', '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2064', '\u206a', '\u206f', '\ufeff', '\u180e', '\u00ad', '\u034f', '\u115f', '\u3164', '\uffa0', '\ufe0f', '\ufff8', '\ufff9', '\ufffb', '\u{e0041}', '\u{e007f}', '\u{e0100}', '\u{1d173}'];
/** Their neighbours, and other text that is visible: kept as it is. */
const VISIBLE = ['\u00a0', '\u00ac', '\u2027', '\u202f', '\u205f', '\u2070', '\ufffc', '\ufffd', 'é', 'e\u0301', '李', 'محمد', '😀', '\u{e1000}'];

describe('sanitizeTerminal', () => {
  it('removes CSI, OSC and other escape sequences', () => {
    expect(sanitizeTerminal('\u001b[31mred\u001b[0m')).toBe('red');
    expect(sanitizeTerminal('a\u001b]0;evil title\u0007b')).toBe('ab');
    expect(sanitizeTerminal('a\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\b')).toBe('alinkb');
    expect(sanitizeTerminal('x\u009b2Jy')).toBe('xy');
  });
  it('replaces other control characters and bidi overrides, keeps newlines and text', () => {
    expect(sanitizeTerminal('a\u0007b\u0000c')).toBe('a\ufffdb\ufffdc');
    expect(sanitizeTerminal('abc\u202edef')).toBe('abc\ufffddef');
    expect(sanitizeTerminal('José, Zoë\nŁukasz 李')).toBe('José, Zoë\nŁukasz 李');
  });
  it('puts a cell on one line', () => {
    expect(sanitizeCell('one\ntwo\r\nthree')).toBe('one ↵ two ↵ three');
  });
});

describe('sanitizeTerminal, every kind of sequence', () => {
  it('removes OSC 52 clipboard writes, OSC 8 links, DCS/APC/PM/SOS strings and two-byte escapes', () => {
    expect(sanitizeTerminal('a\u001b]52;c;ZXZpbA==\u0007b')).toBe('ab');
    expect(sanitizeTerminal('a\u001b]52;c;ZXZpbA==\u001b\\b')).toBe('ab');
    expect(sanitizeTerminal('a\u001bPq#0;2;0;0;0\u001b\\b')).toBe('ab');
    expect(sanitizeTerminal('a\u001b_apc\u001b\\b\u001b^pm\u001b\\c\u001bXsos\u001b\\d')).toBe('abcd');
    expect(sanitizeTerminal('a\u001bcb\u001b7c\u001bMd\u001b(Be')).toBe('abcde');
    expect(sanitizeTerminal('\u001b[2J\u001b[H\u001b[?25l\u001b[38;5;196mX')).toBe('X');
    expect(sanitizeTerminal('\u001b[1;31')).toBe('');
    // The 8-bit CSI alike: cut short, the whole sequence goes.
    expect(sanitizeTerminal('a\u009b1;31')).toBe('a');
    expect(sanitizeTerminal('cut\u001b]0;unterminated title')).toBe('cut');
    expect(sanitizeTerminal('x\u001b')).toBe('x');
  });
  it('replaces C0 (but tab and newline), DEL, C1 and every bidi control', () => {
    const all = ['\u0000', '\u0008', '\u000b', '\u000c', '\r', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of all) expect(sanitizeTerminal(`a${c}b`)).toBe('a\ufffdb');
    expect(sanitizeTerminal('a\tb\nc')).toBe('a\tb\nc');
  });
  it('replaces every invisible character (one U+FFFD per character, astral ones too), keeps visible text', () => {
    for (const c of INVISIBLE) expect(sanitizeTerminal(`a${c}b`), escape(c)).toBe('a\ufffdb');
    for (const c of INVISIBLE) expect(sanitizeCell(`a${c}b`), escape(c)).toBe('a\ufffdb');
    for (const c of VISIBLE) expect(sanitizeTerminal(`a${c}b`), escape(c)).toBe(`a${c}b`);
    expect(sanitizeTerminal('\u202e\u200f\u2028')).toBe('\ufffd\ufffd\ufffd');
  });
  it('leaves nothing a terminal acts on or hides, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\u001b', '[', ']', '\u0007', 'x', 'ب', '😀', '\u094d', ...INVISIBLE) }), (s, t) => {
        expectNothingHidden(sanitizeTerminal(s + t));
      }),
    );
  });
});

describe('sanitizeTerminal, joiners and variation selectors that are spelling', () => {
  const KEPT = {
    'Persian ZWNJ': 'علی\u200cرضا',
    'Persian ZWNJ after a vowel mark': 'بِ\u200cرو',
    'Arabic ZWJ': 'ل\u200dا',
    'Syriac ZWNJ': '\u0710\u200c\u0712',
    'Mongolian ZWJ': '\u182a\u200d\u1820',
    'Devanagari half form (ZWJ after virama)': 'क्\u200dष',
    'Devanagari explicit virama (ZWNJ after virama)': 'क्\u200cष',
    'Kannada arkavattu (ZWJ after virama)': 'ರ್\u200dಕ',
    'Brahmi conjunct (an astral virama)': '\u{11013}\u{11046}\u200d\u{11013}',
    'Sinhala yansaya': 'ක්\u200dය',
    'emoji ZWJ sequence with skin tone': '👩🏽\u200d💻',
    'family': '👨\u200d👩\u200d👧\u200d👦',
    'heart on fire (VS16 then ZWJ)': '❤\ufe0f\u200d🔥',
    'rainbow flag': '🏳\ufe0f\u200d🌈',
    'VS16': '❤\ufe0f',
    'VS15': '☺\ufe0e',
    'keycap': '1\ufe0f\u20e3 #\ufe0f\u20e3',
    'copyright as emoji': '©\ufe0f',
    'ideographic variation selector': '葛\u{e0100}城',
    'Scotland flag': '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
    'Mongolian free variation selector': '\u1820\u180b',
  };
  it.each(Object.entries(KEPT))('keeps %s', (_, text) => {
    expect(sanitizeTerminal(text)).toBe(text);
    expect(sanitizeCell(`x ${text} y`)).toBe(`x ${text} y`);
  });
  const REPLACED: Record<string, [string, string]> = {
    'ZWJ between Latin letters': ['ad\u200dmin', 'ad\ufffdmin'],
    'ZWNJ between Latin letters': ['ad\u200cmin', 'ad\ufffdmin'],
    'ZWNJ at the start': ['\u200cعلی', '\ufffdعلی'],
    'ZWNJ at the end': ['علی\u200c', 'علی\ufffd'],
    'ZWJ alone': ['\u200d', '\ufffd'],
    'a run of joiners': ['علی\u200c\u200cرضا', 'علی\ufffd\ufffdرضا'],
    'ZWJ then ZWNJ': ['علی\u200d\u200cرضا', 'علی\ufffd\ufffdرضا'],
    'a doubled ZWJ in an emoji sequence': ['👩\u200d\u200d💻', '👩\ufffd\ufffd💻'],
    'ZWNJ after a space': ['علی \u200cرضا', 'علی \ufffdرضا'],
    'ZWNJ before a space': ['علی\u200c رضا', 'علی\ufffd رضا'],
    'ZWNJ between Arabic and Latin': ['علی\u200ca', 'علی\ufffda'],
    'ZWJ between Arabic and an emoji': ['علی\u200d😀', 'علی\ufffd😀'],
    'ZWJ after an emoji, before a letter': ['😀\u200da', '😀\ufffda'],
    'ZWJ after a virama, before a space': ['क्\u200d ', 'क्\ufffd '],
    'ZWJ after a virama at the start': ['\u094d\u200dक', '\u094d\ufffdक'],
    'VS16 after a Latin letter': ['admin\ufe0f', 'admin\ufffd'],
    'VS16 after a digit, no keycap': ['user1\ufe0f', 'user1\ufffd'],
    'VS16 twice': ['❤\ufe0f\ufe0f', '❤\ufe0f\ufffd'],
    'VS16 at the start': ['\ufe0f❤', '\ufffd❤'],
    'ideographic variation selector after a Latin letter': ['a\u{e0100}', 'a\ufffd'],
    'tag characters spelling a word after a black flag': ['🏴\u{e0061}\u{e0064}\u{e006d}\u{e007f}', '🏴\ufffd\ufffd\ufffd\ufffd'],
    'bidi marks between Arabic letters': ['ع\u200fل', 'ع\ufffdل'],
    'an override inside an emoji sequence': ['👩\u202e\u200d💻', '👩\ufffd\ufffd💻'],
    'zero-width space between Arabic letters': ['ع\u200bل', 'ع\ufffdل'],
  };
  it.each(Object.entries(REPLACED))('replaces %s', (_, [text, shown]) => {
    expect(sanitizeTerminal(text)).toBe(shown);
  });
  it('returns plain text unchanged (the same string)', () => {
    const plain = 'Jane Doe, ENG-42, 2026-01-01 李 é';
    expect(sanitizeTerminal(plain)).toBe(plain);
  });
});

/** What must never reach a terminal: C0 but tab and newline, DEL, C1, and the invisible characters that are never spelling. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufff9-\ufffb\u200b\u200e\u200f\u061c\u202a-\u202e\u2060-\u206f\ufeff\u00ad\u034f\u115f\u3164\uffa0]/u;
const JOINER_OR_SELECTOR = /[\u200c\u200d\ufe00-\ufe0f\u180b-\u180d\u180f\u{e0100}-\u{e01ef}\u{e0020}-\u{e007f}]/u;
/** JSON writes every invisible character as a \\u escape, spelling or not. */
const JSON_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Default_Ignorable_Code_Point}\u2028\u2029\ufff9-\ufffb]/u;
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

/**
 * Invariants of a sanitised text, independent of how keptFormat decides: nothing
 * of UNSAFE, every other invisible character is a joiner or selector, and none
 * of them starts the text, follows whitespace, stands between two ASCII letters,
 * or (joiners) ends the text or precedes whitespace or another invisible character.
 */
function expectNothingHidden(out: string): void {
  expect(out.replace(/\n/g, '')).not.toMatch(UNSAFE);
  const cps = [...out];
  cps.forEach((c, i) => {
    if (!IGNORABLE.test(c)) return;
    const where = `${escape(c)} at ${i} of ${escape(out)}`;
    expect(c, where).toMatch(JOINER_OR_SELECTOR);
    const prev = cps[i - 1];
    const next = cps[i + 1];
    expect(prev, where).toBeDefined();
    expect(prev!, where).not.toMatch(/^\s$/u);
    expect(`${prev}${next ?? ''}`, where).not.toMatch(/^[A-Za-z]{2}$/);
    if (c === '\u200c' || c === '\u200d') {
      expect(next, where).toBeDefined();
      expect(next!, where).not.toMatch(/^[\s\p{Default_Ignorable_Code_Point}]$/u);
      expect(prev!, where).not.toMatch(/^[\u200c\u200d]$/u);
    }
  });
}

function escape(s: string): string {
  return [...s].map((c) => `U+${c.codePointAt(0)!.toString(16)}`).join(' ');
}

describe('sanitizeCell', () => {
  it('puts a cell on one line without tabs, and removes escapes', () => {
    expect(sanitizeCell('a\tb')).toBe('a b');
    expect(sanitizeCell('a\rb')).toBe('a ↵ b');
    expect(sanitizeCell('\u001b[31mred\u001b[0m\nx')).toBe('red ↵ x');
  });
});

describe('neutraliseFormula', () => {
  it('prefixes a quote to text a spreadsheet would run, and only to that', () => {
    for (const t of ['=1', '+1', '-1', '@A1', '\tx', '\rx', '\t', '\r']) expect(neutraliseFormula(t)).toBe(`'${t}`);
    for (const t of ['', 'a=1', "'=1", '1-2', 'x@y', '#=1', '\u00a0', ' ']) expect(neutraliseFormula(t)).toBe(t);
  });
  it('looks past what an importer may trim: whitespace, line breaks, BOM, invisible and control characters', () => {
    for (const t of [' =1+1', '\n=1+1', '\ufeff=1', '\r\n=1', '  \t @A1', '\u00a0+1', '\u3000-1', '\u200b=1', '\u2028=1', '\u202e=1', '\u0000=1', '\u0085-1', '\u{e0041}=1', ' \u200f\n\ufeff@x']) {
      expect(neutraliseFormula(t), escape(t)).toBe(`'${t}`);
    }
    // The first visible character decides; tab and CR count only at the very start.
    for (const t of [' x=1', ' 1-2', ' \tabc', '\u200b', '\n', "' =1", ' \'=1', '\u00a0#']) expect(neutraliseFormula(t), escape(t)).toBe(t);
  });
});

describe('jsonText', () => {
  it('writes every invisible character as \\u escapes (astral ones as a surrogate pair): the same value, safe to print', () => {
    for (const c of INVISIBLE) {
      const text = jsonText({ v: `a${c}b` })!;
      expect(text, escape(c)).toBe(`{"v":"a${[...c.split('')].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}b"}`);
      expect(JSON.parse(text)).toEqual({ v: `a${c}b` });
    }
    for (const c of VISIBLE) expect(jsonText(`a${c}b`), escape(c)).toBe(`"a${c}b"`);
  });
  it('never prints what a terminal acts on or hides, and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (v, s) => {
        const value = { v, s };
        const text = jsonText(value, 2)!;
        expect(text.replace(/\n/g, '')).not.toMatch(JSON_UNSAFE);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
  it('writes C1 controls, DEL, bidi controls and line separators as \\u escapes: the same value, safe to print', () => {
    const value = { a: 'x\u009b31my\u0085z\u007f', b: 'p\u202eq\u2066r\u2069', c: 'l\u2028m\u2029n' };
    const text = jsonText(value)!;
    expect(text).toBe('{"a":"x\\u009b31my\\u0085z\\u007f","b":"p\\u202eq\\u2066r\\u2069","c":"l\\u2028m\\u2029n"}');
    expect(text).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
  });
  it('pretty-prints with the given indent, and passes undefined through', () => {
    expect(jsonText({ a: [1] }, 2)).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(jsonText(undefined)).toBeUndefined();
    expect(jsonText('plain é 李')).toBe('"plain é 李"');
  });
});

// Exact cases at the edge of each rule of keptFormat (the mutation run checks every condition is needed).
describe('sanitizeTerminal, joiners and selectors at the edges', () => {
  const FLAG = '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}'; // Scotland
  const CASES: Record<string, [string, string]> = {
    // Surrogate pairs read whole, at the edges of the surrogate ranges.
    'VS16 after an emoji whose low surrogate is U+DC00 (🐀 U+1F400)': ['🐀\ufe0f', '🐀\ufe0f'],
    'ZWJ after a skin tone whose low surrogate is U+DFFF (🏿 U+1F3FF)': ['👩🏿\u200d💻', '👩🏿\u200d💻'],
    'a letter whose high surrogate is U+D800 (Linear B U+10000) before a virama': ['\u{10000}\u094d\u200dक', '\u{10000}\u094d\u200dक'],
    'astral joining letters (Adlam) around a ZWNJ': ['\u{1e900}\u200c\u{1e901}', '\u{1e900}\u200c\u{1e901}'],
    'U+FFFF two units back is not half of a pair': ['\uffff❤\ufe0f', '\uffff❤\ufe0f'],
    'a lone high surrogate two units back': ['\ud800❤\ufe0f', '\ud800❤\ufe0f'],
    'a lone low surrogate before VS16 is not the emoji before it': ['❤\udfff\ufe0f', '❤\udfff\ufffd'],
    // Joiners.
    'ZWJ at the end after an emoji': ['👩\u200d', '👩\ufffd'],
    'ZWJ at index 1 before a letter': ['a\u200dب', 'a\ufffdب'],
    'ZWNJ after an Arabic-Indic digit (Arabic script, not a letter)': ['١\u200cب', '١\ufffdب'],
    'ZWNJ (not ZWJ) inside an emoji sequence': ['👩\u200c💻', '👩\ufffd💻'],
    'ZWJ after three VS16 (at most two tails are passed over)': ['❤\ufe0f\ufe0f\ufe0f\u200d🔥', '❤\ufe0f\ufffd\ufffd\ufffd🔥'],
    'ZWJ after VS16 and a skin tone': ['👍🏽\ufe0f\u200d🔥', '👍🏽\ufe0f\u200d🔥'],
    'a virama at the start then ZWNJ': ['\u094d\u200cक', '\u094d\ufffdक'],
    'a virama then ZWJ then a mark': ['क्\u200d\u093f', 'क्\ufffd\u093f'],
    // Variation selectors.
    'VS15 after an ideograph (not an emoji)': ['葛\ufe0e', '葛\ufffd'],
    'VS1 after an ideograph': ['葛\ufe00', '葛\ufe00'],
    'VS14 after an ideograph': ['葛\ufe0d', '葛\ufe0d'],
    'VS1 after a Latin letter': ['a\ufe00', 'a\ufffd'],
    'VS14 after a Latin letter': ['a\ufe0d', 'a\ufffd'],
    'the last ideographic variation selector U+E01EF': ['葛\u{e01ef}', '葛\u{e01ef}'],
    'an ideographic variation selector at the start': ['\u{e0100}葛', '\ufffd葛'],
    'hash with VS16 but no keycap': ['#\ufe0f', '#\ufffd'],
    'star keycap': ['*\ufe0f\u20e3', '*\ufe0f\u20e3'],
    'VS16 at the end after a registered sign (®, U+00AE)': ['®\ufe0f', '®\ufe0f'],
    // Mongolian free variation selectors FVS1-FVS4 (U+180B-U+180D, U+180F); U+180E is the vowel separator.
    'FVS3 after a Mongolian letter': ['\u1820\u180d', '\u1820\u180d'],
    'FVS4 after a Mongolian letter': ['\u1820\u180f', '\u1820\u180f'],
    'the Mongolian vowel separator': ['\u1820\u180e\u1820', '\u1820\ufffd\u1820'],
    'FVS1 after a Latin letter': ['a\u180b', 'a\ufffd'],
    'FVS1 after Mongolian punctuation (Mongolian, not a letter)': ['\u1802\u180b', '\u1802\ufffd'],
    'FVS4 at the start': ['\u180f\u1820', '\ufffd\u1820'],
    // Tag characters inside and outside a subdivision flag.
    'a tag right after a flag': [`${FLAG}\u{e0061}`, `${FLAG}\ufffd`],
    'a tag right before a flag': [`\u{e0061}${FLAG}`, `\ufffd${FLAG}`],
    'two flags back to back, and text around them': [`a${FLAG}${FLAG}b`, `a${FLAG}${FLAG}b`],
    'a flag after an escape sequence': [`\u001b[1m${FLAG}\u200b`, `${FLAG}\ufffd`],
    'the tags of a flag after a white flag': ['🏳\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '🏳\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd'],
  };
  it.each(Object.entries(CASES))('%s', (_, [text, shown]) => {
    expect(escape(sanitizeTerminal(text))).toBe(escape(shown));
  });
});

describe('sanitizeTerminal, unterminated strings', () => {
  it('removes a DCS, SOS, PM or APC string cut short, to the end of the text', () => {
    expect(sanitizeTerminal('a\u001bPq#0;2;0;0;0 sixel')).toBe('a');
    expect(sanitizeTerminal('a\u001bXsos text')).toBe('a');
    expect(sanitizeTerminal('a\u001b^pm text')).toBe('a');
    expect(sanitizeTerminal('a\u001b_apc text')).toBe('a');
  });
});
