// The one wrapper of prose: help, messages, hints, prompts, banners and the
// listener's lines all break here, and only at a space of the text as written.
// What must be copied whole is never broken inside: a word (an id, a code, a
// flag, a URL), a `quoted command` with whatever punctuation is stuck to it,
// and a line that is a command partner suggests (text/command-line.ts). One
// longer than the line stands alone on a line of its own, whole, and the
// terminal shows it as it can. Widths are display cells (colour codes take
// none, wide characters two). Where a width comes from: io.ts.
import { isCommandLine } from './command-line.js';

/** The narrowest width wrapped to: below it, breaking lines helps no one. */
const MIN_WIDTH = 20;

/** A piece of a line that is never broken inside, and the spacing written before it. */
interface Unit {
  space: string;
  word: string;
}

/** A word, or a run holding `quoted code` (spaces inside it included) with what is stuck to it: "(`partner x --y`)." */
const UNIT = /(\s*)((?:[^\s`]*`[^`\n]*`)+[^\s`]*|[^\s`]*`[^\s]*|\S+)/g;

function unitsOf(text: string): Unit[] {
  return [...text.matchAll(UNIT)].map((m) => ({ space: m[1]!, word: m[2]! }));
}

/**
 * Lays `units` into lines of at most `width` cells: the first starts with
 * `first`, the others with `hang`; `suffix` ends every line but the last (a
 * shell continuation). A unit that does not fit on an empty line stands alone.
 */
function fill(units: Unit[], width: number, first: string, hang: string, suffix = ''): string[] {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  const room = visible(suffix);
  for (const { space, word } of units) {
    const candidate = empty ? `${current}${word}` : `${current}${space}${word}`;
    if (empty || visible(candidate) + room <= width) current = candidate;
    else {
      lines.push(current + suffix);
      current = `${hang}${word}`;
    }
    empty = false;
  }
  lines.push(current);
  return lines;
}

/** Wraps every line of help text `text` to `width` columns (a word longer than the width stands alone). */
export function wrapText(text: string, width: number, o: { shell?: boolean } = {}): string {
  return text
    .split('\n')
    .map((line) => wrapHelpLine(line, Math.max(width, MIN_WIDTH), o.shell === true))
    .join('\n');
}

/**
 * A line of help: it keeps its own indentation, and its continuation lines
 * hang under its text (so indented tables and lists stay aligned). Shell
 * examples wrap with a trailing backslash, so a wrapped line still pastes as
 * one command.
 */
function wrapHelpLine(line: string, width: number, shell: boolean): string {
  if (visible(line) <= width) return line;
  const indent = /^\s*/.exec(line)![0];
  // Continuation lines hang under the first word after a list marker or "$ ".
  // A list's term may hold spaces ("HTTPS_PROXY, HTTP_PROXY, NO_PROXY  the proxy…"); one longer than
  // what leaves 20 columns for the text is prose with a double space, not a term.
  const found = /^\s*(?:\$ |[-*\u2022] |\S+(?: \S+)* {2,})/.exec(line);
  const marker = found && found[0].length <= width - MIN_WIDTH ? found : null;
  const hang = shell ? `${indent}    ` : ' '.repeat(marker ? marker[0].length : indent.length);
  // The marker keeps its own spacing ("table   a key/value…"); the rest is split into units, one space apart.
  const head = marker && !shell ? marker[0].slice(indent.length) : '';
  const units = unitsOf(line.slice(indent.length + head.length)).map((u) => ({ space: ' ', word: u.word }));
  if (head && units[0]) units[0].word = head + units[0].word;
  return fill(units, width, indent, hang, shell ? ' \\' : '').join('\n');
}

/**
 * Wraps a message (an error, a hint, a warning, a prompt, a banner, an event
 * line) to `width`, the width of the stream it goes to (io.ts): breaks only
 * where there is a space, and keeps the spacing between words as written
 * (event lines separate their fields by two spaces). Continuation lines are
 * indented under the line's own indentation plus `hang`. Without a width
 * (not a terminal) the text is returned as it is.
 */
export function wrapMessage(text: string, width: number | undefined, hang = '  '): string {
  if (width === undefined || width < MIN_WIDTH) return text;
  return text
    .split('\n')
    .map((line) => {
      // A command to copy (text/command-line.ts suggestion) stays whole on its line, whatever the width
      // (colour codes aside: chalk opens its style again on each line of a coloured hint).
      if (visible(line) <= width || isCommandLine(line.replace(SGR, ''))) return line;
      // eslint-disable-next-line no-control-regex
      const lead = /^(?:\x1b\[[0-9;]*m|\s)*/.exec(line)![0];
      return fill(unitsOf(line.slice(lead.length)), width, lead, lead.replace(SGR, '') + hang).join('\n');
    })
    .join('\n');
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

// East Asian wide and fullwidth characters (CJK, Hangul, kana, fullwidth forms) and emoji take
// two cells; combining marks and format characters (joiners) none. An estimate for messages that
// needs no width library at start-up (tables measure exactly: output/cells.ts).
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/gu;
const ZERO = /[\p{Mn}\p{Me}\p{Cf}]/gu;
const ASCII_ONLY = /^[\x20-\x7e]*$/;

/** Width of text as shown: colour codes take no room; wide characters two cells, marks none. */
export function visible(s: string): number {
  const plain = s.replace(SGR, '');
  if (ASCII_ONLY.test(plain)) return plain.length;
  let n = 0;
  for (const _ of plain) n++;
  return n + (plain.match(WIDE)?.length ?? 0) - (plain.match(ZERO)?.length ?? 0);
}
