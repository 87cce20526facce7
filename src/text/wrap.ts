// Wraps prose to a width at word boundaries, never inside a word. Each line
// keeps its own indentation, and its continuation lines hang under its text
// (so indented tables and lists in help stay aligned). Shell examples wrap
// with a trailing backslash, so a wrapped line still pastes as one command.
import { isCommandLine } from './command-line.js';

/** Wraps every line of `text` to `width` columns (a word longer than the width stands alone). */
export function wrapText(text: string, width: number, o: { shell?: boolean } = {}): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, Math.max(width, 20), o.shell === true))
    .join('\n');
}

function wrapLine(line: string, width: number, shell: boolean): string {
  if (line.length <= width) return line;
  const indent = /^\s*/.exec(line)![0];
  // Continuation lines hang under the first word after a list marker or "$ ".
  // A list's term may hold spaces ("HTTPS_PROXY, HTTP_PROXY, NO_PROXY  the proxy…"); one longer than
  // what leaves 20 columns for the text is prose with a double space, not a term.
  const found = /^\s*(?:\$ |[-*\u2022] |\S+(?: \S+)* {2,})/.exec(line);
  const marker = found && found[0].length <= width - 20 ? found : null;
  const hang = shell ? `${indent}    ` : ' '.repeat(marker ? marker[0].length : indent.length);
  const suffix = shell ? ' \\' : '';
  // The marker keeps its own spacing ("table   a key/value…"); the rest is split into words.
  const head = marker && !shell ? marker[0].slice(indent.length) : '';
  const words = line.slice(indent.length + head.length).split(/ +/);
  if (head) words[0] = head + words[0];
  const lines: string[] = [];
  let current = indent;
  let first = true;
  for (const word of words) {
    const lead = first ? indent : hang;
    const candidate = current.length > lead.length ? `${current} ${word}` : `${current}${word}`;
    if (candidate.length + suffix.length <= width || current.length <= lead.length) {
      current = candidate;
    } else {
      lines.push(current + suffix);
      current = hang + word;
      first = false;
    }
  }
  lines.push(current);
  return lines.join('\n');
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
function visible(s: string): number {
  const plain = s.replace(SGR, '');
  if (ASCII_ONLY.test(plain)) return plain.length;
  let n = 0;
  for (const _ of plain) n++;
  return n + (plain.match(WIDE)?.length ?? 0) - (plain.match(ZERO)?.length ?? 0);
}

/**
 * Wraps a message (an error, a warning, a status line) to the terminal's
 * width: breaks only where there is a space, so never inside a word or a URL
 * (one longer than the width stands alone on its line), and keeps the spacing
 * between words as written (event lines separate their fields by two spaces).
 * Continuation lines are indented under the line's own indentation plus
 * `hang`. Without a width (not a terminal) the text is returned as it is.
 */
export function wrapMessage(text: string, width: number | undefined, hang = '  '): string {
  if (width === undefined || width < 20) return text;
  return text
    .split('\n')
    .map((line) => {
      // A command to copy (text/command-line.ts suggestion) stays whole on its line, whatever the width.
      if (visible(line) <= width || isCommandLine(line)) return line;
      const indent = /^\s*/.exec(line)![0];
      const lead = indent + hang;
      const out: string[] = [];
      let current = indent;
      // A `quoted command` in prose is one word: never broken inside.
      for (const [, space, word] of line.slice(indent.length).matchAll(/(\s*)(`[^`\n]*`\S*|\S+)/g)) {
        const empty = current.trim() === '';
        const candidate = empty ? `${current}${word}` : `${current}${space}${word}`;
        if (empty || visible(candidate) <= width) current = candidate;
        else {
          out.push(current);
          current = `${lead}${word}`;
        }
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}
