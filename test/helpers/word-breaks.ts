// The checker of does text shown on a terminal W columns wide
// break only where the text as written had a space? Written apart from the
// wrapper it checks (src/text/wrap.ts): its own idea of a unit, its own width
// measure (wcwidth.ts), and the terminal's own wrap of a line longer than W
// (a row of W cells, then the next row), so a line partner printed too long
// counts like a line partner broke itself.
//
// The text as written is the same output on a terminal too wide to wrap
// anything. Every row boundary of the shown text must fall where that text had
// whitespace, and never inside a unit: a word, a `backticked` span (with what
// is stuck to it), or a whole line that is a command to copy (`partner …`, maybe
// after VAR=value). A unit may be cut only where it could not fit: it starts
// its row and is wider than what the row's indentation leaves.
import { graphemesOf, wcswidth } from './wcwidth.js';

/** Escape sequences and carriage returns removed (what is printed, as text). */
export function plain(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][0-9A-Za-z]/g, '').replace(/\r/g, '');
}

/** The rows a terminal `columns` wide shows for `text` (plain): each line, cut every `columns` cells. */
export function terminalRows(text: string, columns: number): string[] {
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    let row = '';
    let used = 0;
    for (const g of graphemesOf(line)) {
      const w = wcswidth(g);
      if (used + w > columns) {
        rows.push(row);
        row = '';
        used = 0;
      }
      row += g;
      used += w;
    }
    rows.push(row);
  }
  return rows;
}

const COMMAND_LINE = /^\s*(?:\$ )?(?:[A-Z_][A-Z0-9_]*=\S* +)*partner(?: |$)/;

interface Written {
  /** The non-whitespace characters, in order. */
  chars: string[];
  /** Whether whitespace comes before chars[k]. */
  gap: boolean[];
  /** The unit chars[k] belongs to. */
  unit: number[];
  /** Each unit's first index and display width. */
  units: { start: number; width: number }[];
}

/** The text as written, as units. */
function written(text: string): Written {
  const w: Written = { chars: [], gap: [], unit: [], units: [] };
  for (const line of text.split('\n')) {
    const command = COMMAND_LINE.test(line);
    let open = false; // inside a `backticked` span
    let first = true;
    for (const m of line.matchAll(/(\s*)(\S+)/g)) {
      const word = m[2]!;
      // A command line is one unit; so is a backticked span, spaces and all.
      const joins = command ? !first : open;
      if (joins) w.units[w.units.length - 1]!.width += wcswidth(m[1]!) + wcswidth(word);
      else w.units.push({ start: w.chars.length, width: wcswidth(word) });
      [...word].forEach((ch, i) => {
        // Every word but the text's first has whitespace (a space or a line end) before it.
        w.gap.push(i === 0 && w.chars.length > 0);
        w.chars.push(ch);
        w.unit.push(w.units.length - 1);
      });
      first = false;
      if ((word.match(/`/g)?.length ?? 0) % 2 === 1) open = !open;
    }
  }
  return w;
}

/** UUIDs and long hexadecimal runs as x and digits as 0, length kept: the same output from another run (ports, ids, times) compares equal. */
function steady(chars: string[]): string {
  return chars
    .join('')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (u) => u.replace(/[0-9a-f]/g, 'x'))
    .replace(/[0-9a-f]{6,}/g, (h) => (/\d/.test(h) ? 'x'.repeat(h.length) : h)).replace(/\d/g, '0');
}

/**
 * The broken words of `shown` (plain text as printed at `columns`) against
 * `original` (plain text of the same output, unwrapped): one line of context
 * per bad break, empty when every break fell at a space of a unit that fits.
 * Also fails when the two texts differ other than in whitespace.
 */
export function brokenWords(shown: string, original: string, columns: number): string[] {
  const w = written(original);
  const rows = terminalRows(shown, columns);
  const got: string[] = [];
  const rowStart: { k: number; indent: number; row: number }[] = [];
  rows.forEach((row, r) => {
    const first = row.search(/\S/);
    if (first < 0) return;
    rowStart.push({ k: got.length, indent: wcswidth(row.slice(0, first)), row: r });
    for (const ch of row) if (!/\s/.test(ch)) got.push(ch);
  });
  if (steady(got) !== steady(w.chars)) return [`the text differs from the text as written:\n--- shown\n${shown}\n--- written\n${original}`];
  const problems: string[] = [];
  const startOf = new Map(rowStart.map((s) => [s.k, s]));
  for (const s of rowStart) {
    if (s.k === 0) continue;
    const u = w.unit[s.k]!;
    const unit = w.units[u]!;
    if (unit.start === s.k && w.gap[s.k]) continue;
    // Inside a unit: only one that starts its row and cannot fit on it.
    const home = startOf.get(unit.start);
    if (home && unit.width > columns - home.indent) continue;
    problems.push(`at ${columns} columns, row ${s.row}: "${rows[s.row - 1]!.slice(-30)}|${rows[s.row]!.trimStart().slice(0, 30)}"`);
  }
  return problems;
}
