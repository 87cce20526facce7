// International text as the wizard, --set and CSV cells read it:
// digits of any script, NFC/NFD alike, names sorted for people, and which
// text may go back onto an editable line exactly as it is.
import { describe, expect, it } from 'vitest';
import { asciiDigits, compareNames, graphemes, restOfCluster, safeToEdit, sameText, sameTextIgnoringCase, sortNames } from '../../../src/forms/typed-text.js';

describe('asciiDigits', () => {
  it('reads decimal digits of every script as ASCII, fullwidth punctuation too', () => {
    expect(asciiDigits('１９９０-０１-０１')).toBe('1990-01-01');
    expect(asciiDigits('１９９０－０１－０１')).toBe('1990-01-01');
    expect(asciiDigits('٦٠٠٠٠')).toBe('60000'); // Arabic-Indic
    expect(asciiDigits('۶۰۰۰۰')).toBe('60000'); // Persian (Extended Arabic-Indic)
    expect(asciiDigits('६०')).toBe('60'); // Devanagari
    expect(asciiDigits('০১২৩৪৫৬৭৮৯')).toBe('0123456789'); // Bengali
    expect(asciiDigits('๑๒๓')).toBe('123'); // Thai
    expect(asciiDigits('٣٫٥')).toBe('3.5'); // Arabic decimal separator
    expect(asciiDigits('１２．５')).toBe('12.5');
  });

  it('reads the mathematical digit sets that sit back to back (five runs of ten)', () => {
    // U+1D7CE bold 0 ... U+1D7FF monospace 9: 50 digits in one run.
    const all = Array.from({ length: 50 }, (_, i) => String.fromCodePoint(0x1d7ce + i)).join('');
    expect(asciiDigits(all)).toBe('0123456789'.repeat(5));
  });

  it('leaves everything else as typed: ASCII, letters, other numerals that are not decimal digits', () => {
    expect(asciiDigits('2,400,000')).toBe('2,400,000');
    expect(asciiDigits('Ⅻ ½ ²')).toBe('Ⅻ ½ ²'); // Nl / No, not Nd
    expect(asciiDigits('علی')).toBe('علی');
  });
});

describe('NFC matching', () => {
  const nfc: string = 'Jos\u00e9';
  const nfd: string = 'Jose\u0301';
  it('NFC and NFD spellings are the same text; case only where asked', () => {
    expect(nfc === nfd).toBe(false);
    expect(sameText(nfc, nfd)).toBe(true);
    expect(sameText(nfd, nfc)).toBe(true);
    expect(sameText('josé', nfc)).toBe(false);
    expect(sameTextIgnoringCase('JOSE\u0301', nfc)).toBe(true);
    expect(sameText('Jose', nfc)).toBe(false);
  });
});

describe('sorting names for people', () => {
  it('sorts by collation, not code point: accented and lower-case names sit with their letter', () => {
    const names = ['Zeta GmbH', 'Äpfel AG', 'acme', 'Émile SA', 'Beta'];
    expect([...names].sort()).toEqual(['Beta', 'Zeta GmbH', 'acme', 'Äpfel AG', 'Émile SA']); // what code points give
    expect(sortNames(names, 'en')).toEqual(['acme', 'Äpfel AG', 'Beta', 'Émile SA', 'Zeta GmbH']);
  });

  it("follows the locale's rules (Swedish puts Ä after Z) and is stable where the collator sees no difference", () => {
    expect(sortNames(['Äpfel', 'Zeta', 'Apfel'], 'sv')).toEqual(['Apfel', 'Zeta', 'Äpfel']);
    // NFC and NFD collate equal: code point order decides, the same on every run.
    const a = 'Jos\u00e9';
    const b = 'Jose\u0301';
    expect(compareNames(a, b, 'en')).toBe(-compareNames(b, a, 'en'));
    expect(compareNames(a, b, 'en')).not.toBe(0);
    expect(sortNames([a, b], 'en')).toEqual(sortNames([b, a], 'en'));
  });

  it('the default locale is used when none is given, and never loses a name', () => {
    const names = ['b', 'A', 'a', 'B', 'ä'];
    const sorted = sortNames(names);
    expect([...sorted].sort()).toEqual([...names].sort());
    expect(sorted.indexOf('a')).toBeLessThan(sorted.indexOf('b'));
  });
});

describe('graphemes', () => {
  it('an emoji sequence, a flag and a letter with its mark are one cluster each', () => {
    expect(graphemes('👩🏽\u200d💻🇩🇪e\u0301x')).toEqual(['👩🏽\u200d💻', '🇩🇪', 'e\u0301', 'x']);
  });
});

describe('safeToEdit', () => {
  it('printable text with joiners, variation selectors and marks inside a grapheme is editable as it is', () => {
    expect(safeToEdit('علی\u200cرضا 👩🏽\u200d💻')).toBe(true);
    expect(safeToEdit('❤\ufe0f')).toBe(true);
    expect(safeToEdit('ภาษาไทย')).toBe(true);
    expect(safeToEdit('שָׁלוֹם')).toBe(true);
    expect(safeToEdit('e\u0301')).toBe(true);
    expect(safeToEdit('देवनागरी 東京 서울')).toBe(true);
    expect(safeToEdit('\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}')).toBe(true); // England flag
  });

  it('escapes, controls, bidi overrides, zero-width spaces, a joiner starting a cluster and stray tags are not', () => {
    for (const text of ['a\u001b[2Jb', 'a\u009b2Jb', 'one\ntwo', 'a\tb', 'a\u0007', 'abc\u202etxt.exe', 'ad\u200bmin', '\u200cabc', '\u200d', 'a\u{e0061}b', 'a\u2028b', 'a\u00adb'])
      expect(safeToEdit(text), JSON.stringify(text)).toBe(false);
  });
});

describe('restOfCluster (Backspace by grapheme)', () => {
  /** What readline's Backspace leaves: one code point fewer before `cursor` (a UTF-16 index). */
  const readlineBackspace = (text: string, cursor = text.length) => {
    const cps = [...text.slice(0, cursor)];
    return cps.slice(0, -1).join('') + text.slice(cursor);
  };
  it('counts the code points left of the cluster the deleted one belonged to', () => {
    const cases: [string, number][] = [
      ['x👩🏽\u200d💻', 3], // woman, skin tone, ZWJ left after the laptop went
      ['Land 🇩🇪', 1], // the flag's first regional indicator
      ['Cafe\u0301', 1], // the e under the acute
      ['abc', 0],
      ['東京', 0],
      ['👍🏽', 1],
      ['नमस्ते', -1], // a conjunct: one cluster or several, as the ICU at hand groups it (checked below)
    ];
    for (const [text, more] of cases) {
      const after = readlineBackspace(text);
      const n = restOfCluster(text, after);
      if (more >= 0) expect(n, text).toBe(more);
      // Deleting that many more code points leaves the text without its last cluster.
      let left = after;
      for (let i = 0; i < n; i++) left = readlineBackspace(left);
      const clusters = graphemes(text);
      expect(left, text).toBe(clusters.slice(0, -1).join(''));
    }
  });

  it('works with the cursor inside the text', () => {
    const text = 'a🇩🇪b';
    const cursor = 'a🇩🇪'.length;
    expect(restOfCluster(text, readlineBackspace(text, cursor))).toBe(1);
  });

  it('is 0 when the text did not lose exactly one code point', () => {
    expect(restOfCluster('abc', 'abc')).toBe(0);
    expect(restOfCluster('abc', 'a')).toBe(0);
    expect(restOfCluster('abc', 'abx')).toBe(0);
    expect(restOfCluster('👩🏽\u200d💻', '👩🏽\u200d💻x')).toBe(0);
  });
});

// Exact cases at the edges of each rule (the mutation run checks every condition above is needed).
describe('typed text at the edges', () => {
  it('asciiDigits: every fullwidth sign, digits at both ends of an Nd run, astral digits, and ASCII as it is', () => {
    expect(asciiDigits('\uff0b\uff0c\uff0d\uff0e\u066b')).toBe('+,-..');
    expect(asciiDigits('٠٩')).toBe('09'); // U+0660 starts the Arabic-Indic run (U+065F is a mark), U+0669 ends it
    expect(asciiDigits('\u06f0\u06f9')).toBe('09'); // Persian: U+06EF before it is a letter
    expect(asciiDigits('\u{104a0}\u{104a9}')).toBe('09'); // Osmanya digits, astral
    expect(asciiDigits('٢a3')).toBe('2a3'); // ASCII letters and digits between others stay
    expect(asciiDigits('é\u00a0x')).toBe('é\u00a0x'); // non-ASCII that is neither a digit nor a sign
    expect(asciiDigits('١٢')).toBe('12'); // no ASCII at all
  });

  it('sameText compares the NFC forms, also of two identical texts', () => {
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('', '')).toBe(true);
    expect(sameText('a', 'b')).toBe(false);
  });

  it('compareNames: 0 only for the same text, code point order where the collator sees none', () => {
    expect(compareNames('Zoë', 'Zoë', 'en')).toBe(0);
    expect(compareNames('Zoë', 'Zoë')).toBe(0);
    expect(compareNames('Jose\u0301', 'Jos\u00e9')).toBe(-1); // 'e' (U+0065) before 'é' (U+00E9)
    expect(compareNames('Jos\u00e9', 'Jose\u0301')).toBe(1);
    expect(compareNames('a', 'B', 'en')).toBeLessThan(0); // collation, not code points ('B' < 'a' there)
    expect(sortNames(['Zeta', 'Äpfel', 'Apfel'])).toEqual(['Apfel', 'Äpfel', 'Zeta'].sort((x, y) => new Intl.Collator().compare(x, y)));
  });

  it('safeToEdit: each joiner and selector inside a cluster, never one starting it', () => {
    for (const text of ['\u05e9\u05b8\u034f\u05c1', '\u1820\u180b', '\u1820\u180f', '葛\u{e0100}', '葛\ufe00', 'a\u0301\u200d', 'Zoë', 'plain ASCII ~'])
      expect(safeToEdit(text), JSON.stringify(text)).toBe(true);
    for (const text of ['\u034fa', '\u180ba', '\u{e0100}', '\ufe0fa', 'a\u{e0067}\u{e007f}', '\u{1f3f3}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '\u{e0067}', 'a\u200b', '\u00ad', 'a\u2029', '\ufff9x', 'x\u001f', 'x\u0080'])
      expect(safeToEdit(text), JSON.stringify(text)).toBe(false);
    expect(safeToEdit('')).toBe(true);
  });

  it('restOfCluster: a deleted astral character followed by one of the same high surrogate', () => {
    // 🏽 (U+1F3FD) and 🌈 (U+1F308) share the high surrogate U+D83C: the texts first differ at a low surrogate.
    expect(restOfCluster('👍🏽🌈', '👍🌈')).toBe(1);
    expect(restOfCluster('👍🏽🌈x', '👍🌈x')).toBe(1);
  });

  it('restOfCluster: with the cursor before the end, after a mark, and at a cluster start', () => {
    expect(restOfCluster('e\u0301x', 'ex')).toBe(1); // the acute went: the e is left of its cluster
    expect(restOfCluster('ab\u0301', 'a\u0301')).toBe(0); // the b went: the mark now joins a, but the b started its cluster
    expect(restOfCluster('\uffff\u0301', '\uffff')).toBe(1); // U+FFFF (a BMP noncharacter) takes a mark like any other character
    expect(restOfCluster('x\uffff\u0301', 'x\uffff')).toBe(1);
    expect(restOfCluster('e\u0301😀', 'e😀')).toBe(1); // an astral character right after the gap is not a pair to step into
  });

  it('restOfCluster: 0 unless exactly one code point went and the rest is unchanged', () => {
    expect(restOfCluster('e\u0301\u0301', 'e\u0302')).toBe(0); // one unit fewer, but another mark in its place
    expect(restOfCluster('e\u0301\u0301', 'e')).toBe(0); // two marks gone
    expect(restOfCluster('e\u0301\u0301', 'e\u0301')).toBe(2);
    expect(restOfCluster('e\u0301\u0301\u0301', 'e\u0301')).toBe(0); // three units
    expect(restOfCluster('👍🏽', '👍')).toBe(1); // two units, one code point
    expect(restOfCluster('e\u0301', 'e\u0301\u0301')).toBe(0); // grew
    expect(restOfCluster('', '')).toBe(0);
  });
});
