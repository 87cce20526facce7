// Wraps prose to a width at word boundaries, never inside a word. Each line
// keeps its own indentation, and its continuation lines hang under its text
// (so indented tables and lists in help stay aligned). Shell examples wrap
// with a trailing backslash, so a wrapped line still pastes as one command.

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
  const marker = /^\s*(?:\$ |[-*•] |[A-Za-z0-9_-]+ {2,})/.exec(line);
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
