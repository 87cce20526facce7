// tables and key/value blocks of international text, checked
// against an independent measure of what a terminal draws (test/helpers/wcwidth.ts,
// not cells.ts): every line within the width, every column starting at the same
// cell on every line, key and short cells whole, cuts and breaks between graphemes.
import { describe, expect, it } from 'vitest';
import { cellWidth, truncateCell, wrapCells } from '../../../src/output/cells.js';
import { layoutTable, renderTable, WRAP_MAX_LINES, type Column } from '../../../src/output/table.js';
import { formatPairs } from '../../../src/output/key-value.js';
import { sanitizeCell } from '../../../src/text/sanitize.js';
import { SCHEMA_COLUMNS } from '../../../src/commands/gp/schema.run.js';
import { graphemesOf, sliceCells, wcswidth } from '../../helpers/wcwidth.js';

/** Raw text, as it reaches a table once joiners inside graphemes are kept (ZWJ, VS16). */
const SAMPLES: Record<string, string> = {
  thai: 'สมชาย กี่ครั้ง น้ำ ที่นี่',
  arabic: 'مُحَمَّد عَبْدُ ٱللَّٰه',
  hebrew: 'שָׁלוֹם עֲלֵיכֶם',
  devanagari: 'नमस्ते हिन्दी क्षत्रिय',
  cjk: '山田太郎 東京都渋谷区神南一丁目',
  hangul: '김민준 서울특별시 강남구',
  kana: 'やまだ ヤマダ ｶﾀｶﾅ',
  emoji14: '🫠🫶🪿🫨🩷 melting',
  zwj: '👨‍👩‍👧 🏳️‍🌈 🧑🏽‍💻 family',
  flags: '🇮🇳🇩🇪🇯🇵 flags',
  vs16: '❤️ ✔️ ☺ 1️⃣',
  latin: 'José Müller Łódź Ångström',
};

/** Column starts (cells) from a header of ASCII names. */
const startsOf = (header: string, names: string[]) => names.map((n) => header.indexOf(n));

const isPrefixOfGraphemes = (cut: string, whole: string) => {
  const all = graphemesOf(whole);
  return graphemesOf(cut).every((g, i) => all[i] === g);
};

describe('tables of international text at 80 columns, by an independent measure', () => {
  const columns: Column[] = [
    { key: 'code', header: 'CODE', kind: 'key' },
    { key: 'name', header: 'NAME' },
    { key: 'note', header: 'NOTE', wrap: true },
    { key: 'tag', header: 'TAG', kind: 'short' },
  ];
  const raw = Object.entries(SAMPLES).map(([k, v], i) => [`ACME-${String(i).padStart(5, '0')}-${k}`, `${v} ${v}`, `${k}: ${v} ${v} ${v}`, `T${i}`]);
  // What the table shows of them: sanitised, whatever sanitize.ts keeps of joiners.
  const rows = raw.map((r) => r.map(sanitizeCell));

  for (const width of [80, 60]) {
    it(`at ${width} columns: lines fit, columns line up on every line, key and short cells whole, cut and wrapped text whole graphemes`, () => {
      const lines = renderTable(columns, raw, { columns: width }).trimEnd().split('\n');
      const starts = startsOf(lines[0]!, ['CODE', 'NAME', 'NOTE', 'TAG']);
      expect(starts.every((s) => s >= 0)).toBe(true);
      for (const line of lines) expect(wcswidth(line), line).toBeLessThanOrEqual(width);
      // Group lines by row: a row starts with its code; continuation lines with spaces.
      let r = -1;
      const byRow: string[][][] = [];
      for (const line of lines.slice(1)) {
        const cells = sliceCells(line, starts);
        // Two spaces before each column (or the line ended before it).
        for (const s of starts.slice(1)) expect([...line].length === 0 || wcswidth(line) <= s - 2 || /^ {2}$/.test(sliceCells(line, [0, s - 2, s])[1]!), line).toBe(true);
        if (!cells[0]!.startsWith(' ')) byRow[++r] = [];
        byRow[r]!.push(cells.map((c) => c.trimEnd()));
      }
      expect(byRow).toHaveLength(rows.length);
      byRow.forEach((stack, i) => {
        const [code, name, note, tag] = rows[i]!;
        expect(stack[0]![0]).toBe(code);
        expect(stack[0]![3]).toBe(tag);
        expect(stack.slice(1).every((c) => c[0] === '' && c[1] === '' && c[3] === '')).toBe(true);
        // NAME: whole, or a prefix of whole graphemes and an ellipsis.
        const shown = stack[0]![1]!;
        if (shown !== name) {
          expect(shown.endsWith('…'), shown).toBe(true);
          expect(isPrefixOfGraphemes(shown.slice(0, -1), name!), shown).toBe(true);
        }
        // NOTE: wrapped, nothing lost: the lines joined are the text (spaces at breaks dropped).
        const pieces = stack.map((c) => c[2]!);
        expect(pieces.join('').replace(/ /g, '')).toBe(note!.replace(/ /g, ''));
        for (const p of pieces) expect(isPrefixOfGraphemes(p, note!.slice(note!.indexOf(p))), p).toBe(true);
      });
    });
  }

  it('joiners kept inside graphemes (as sanitize.ts is to keep them) measure as the terminal draws them', () => {
    const kept = ['👨‍👩‍👧', '🏳️‍🌈', '🧑🏽‍💻', '❤️', '1️⃣', 'क्‍ष', 'می‌خواهم', 'ශ්‍රී', '🫱🏻‍🫲🏿'];
    for (const text of kept) expect(cellWidth(text), text).toBe(wcswidth(text));
  });

  it('a ZWJ sequence kept raw is one grapheme two cells wide, never split by a cut or a break', () => {
    const family = '👨‍👩‍👧';
    for (let w = 2; w <= 12; w++) {
      for (const line of wrapCells(`${family}${family}${family}${family}${family}${family}`, w, { breakWords: true })) {
        expect(wcswidth(line)).toBeLessThanOrEqual(w);
        expect(graphemesOf(line).every((g) => g === family)).toBe(true);
      }
      const cut = truncateCell(`ab${family}${family}${family}${family}${family}`, w);
      expect(wcswidth(cut)).toBeLessThanOrEqual(w);
      expect(graphemesOf(cut.replace(/…$/, '')).slice(1).every((g) => g === family || g === 'b')).toBe(true);
    }
  });
});

describe('wrapCells', () => {
  it('wraps East Asian text between any two characters, within the width by the independent measure, nothing lost', () => {
    const text = '東京都渋谷区神南一丁目二番三号、ＮＨＫ放送センター（本館）に所属する山田太郎です。서울특별시 강남구 테헤란로 123번길';
    for (let w = 6; w <= 40; w++) {
      const lines = wrapCells(text, w);
      for (const l of lines) expect(wcswidth(l), `${w}: ${l}`).toBeLessThanOrEqual(w);
      expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      // Kinsoku: no line starts with closing punctuation, none ends with an opening bracket.
      for (const l of lines.slice(1)) expect(l, `${w}`).not.toMatch(/^[、。）]/);
      for (const l of lines) expect(l, `${w}`).not.toMatch(/（$/);
    }
  });

  it('breaks Latin text at spaces only; a word or URL wider than the line stands alone, whole', () => {
    const url = 'https://例え.テスト/パス/東京都渋谷区神南一丁目';
    const lines = wrapCells(`See 詳細は ${url} and supercalifragilisticexpialidocious too`, 20);
    expect(lines).toContain(url);
    expect(lines).toContain('supercalifragilisticexpialidocious');
    expect(lines[0]).toBe('See 詳細は');
  });

  it('in a table column (breakWords) a long word is cut between graphemes, after a hyphen or slash when one is near', () => {
    expect(wrapCells('(Baden-Württemberg)', 12, { breakWords: true })).toEqual(['(Baden-', 'Württemberg)']);
    const lines = wrapCells('pattern ^\\+[1-9][0-9]{6,20}$', 10, { breakWords: true });
    for (const l of lines) expect(wcswidth(l)).toBeLessThanOrEqual(10);
    expect(lines.join('')).toBe('pattern^\\+[1-9][0-9]{6,20}$');
  });

  it('colour codes take no room and stay with their word', () => {
    const lines = wrapCells('\u001b[2mfix:\u001b[22m run partner auth login --profile work', 20);
    // "fix: run partner auth" would be 21 cells: the codes count for nothing.
    expect(lines).toEqual(['\u001b[2mfix:\u001b[22m run partner', 'auth login --profile', 'work']);
  });
});

describe('gp schema columns: width shared by importance', () => {
  const rows = [
    ['contact.emergencyContactRelationship', 'Relationship to the emergency contact', 'select', 'no', 'one of: SPOUSE, PARTNER, PARENT, SIBLING, CHILD, FRIEND, OTHER'],
    ['legal', 'Tax and social security', 'section (dynamic-details)', 'yes', ''],
    ['customFields.languages', 'Working languages', 'multiselect', 'no', 'one of: EN, DE, FR, ES, HI, TA; max items 6'],
    ['employment.endDate', 'Contract end date', 'date', 'yes, when term = "FIXED_TERM"', 'format date; Only for fixed-term contracts.'],
  ];

  it('at 80 columns: KIND and REQUIRED at their cap, DETAILS the rest; TITLE hidden; every word kept', () => {
    const layout = layoutTable(SCHEMA_COLUMNS, rows, { columns: 80 });
    expect(layout.hidden).toEqual(['TITLE']);
    const [field, kind, required, details] = layout.widths;
    expect([field, kind, required]).toEqual([36, 11, 10]);
    expect(field! + kind! + required! + details! + 6).toBe(80);
    const out = renderTable(SCHEMA_COLUMNS, rows, { columns: 80 });
    for (const l of out.trimEnd().split('\n')) expect(wcswidth(l)).toBeLessThanOrEqual(80);
    expect(out).toContain('legal                                 section');
    expect(out).toMatch(/\n {38}\(dynamic-\n {38}details\)\n/);
    for (const word of ['SPOUSE,', 'OTHER', 'fixed-term', 'contracts.', 'FIXED_']) expect(out).toContain(word);
  });

  it('narrower: KIND goes before REQUIRED, DETAILS last; all named', () => {
    expect(layoutTable(SCHEMA_COLUMNS, rows, { columns: 70 }).hidden).toEqual(['TITLE', 'KIND']);
    const at60 = layoutTable(SCHEMA_COLUMNS, rows, { columns: 60 });
    expect(at60.hidden).toEqual(['TITLE', 'KIND', 'REQUIRED']);
    expect(at60.widths).toEqual([36, 22]);
  });

  it('piped: one line per row, values whole', () => {
    const out = renderTable(SCHEMA_COLUMNS, rows, {});
    expect(out.trimEnd().split('\n')).toHaveLength(rows.length + 1);
    for (const r of rows) for (const v of r) expect(out).toContain(v);
  });

  it(`a wrapped cell takes at most ${WRAP_MAX_LINES} lines, the last cut with …`, () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const lines = renderTable(SCHEMA_COLUMNS, [['f', 't', 'text', 'no', long]], { columns: 80 }).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + WRAP_MAX_LINES);
    expect(lines.at(-1)).toMatch(/…$/);
  });

  it('a cell of megabytes is wrapped only as far as it is shown, and marked as shortened even when few graphemes were kept', () => {
    const huge = 'x'.repeat(4_000_000);
    const lines = renderTable(SCHEMA_COLUMNS, [['f', 't', 'text', 'no', huge]], { columns: 80 }).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + WRAP_MAX_LINES);
    expect(lines.at(-1)).toMatch(/x…$/);
    // Graphemes of hundreds of combining marks: the text kept fits in fewer lines, still marked.
    const zalgo = `a${'\u0301'.repeat(500)}`.repeat(50);
    const z = renderTable(SCHEMA_COLUMNS, [['f', 't', 'text', 'no', zalgo]], { columns: 80 }).trimEnd().split('\n');
    expect(z.length).toBeLessThanOrEqual(1 + WRAP_MAX_LINES);
    expect(z.at(-1)).toMatch(/…$/);
    for (const l of z) expect(wcswidth(l)).toBeLessThanOrEqual(80);
  });
});

describe('key/value values wrap by display width', () => {
  it('CJK values wrap between characters under the value, every line within the width', () => {
    const value = '東京都渋谷区神南一丁目二番三号のＮＨＫ放送センター本館十二階、人事部給与計算課の山田太郎宛てにお送りください。';
    const out = formatPairs([['Address', value], ['City', '東京']], { width: 40, indent: 1 });
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(wcswidth(l), l).toBeLessThanOrEqual(40);
    expect(lines[0]!.startsWith('  Address  ')).toBe(true);
    for (const l of lines.slice(1, -1)) expect(l.startsWith(' '.repeat(11))).toBe(true);
    expect(lines.slice(0, -1).map((l) => l.slice(11)).join('')).toBe(value);
  });
});
