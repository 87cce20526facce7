// A small terminal model for pty tests that must see what stays on screen
// (not everything ever written): printable text, CR/LF, and the CSI cursor
// moves and erases the prompt library and the CLI use (A B C D G K J; colours
// and modes ignored). Lines longer than the width wrap.

export function screenOf(raw: string, columns = 200): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  const csi = /^\x1b\[([?0-9;]*)([A-Za-z])/;
  for (let i = 0; i < raw.length; ) {
    const ch = raw[i];
    if (ch === '\x1b') {
      const m = csi.exec(raw.slice(i));
      if (!m) {
        i += raw[i + 1] === '(' || raw[i + 1] === ')' ? 3 : 2; // charset selection and other two-byte escapes
        continue;
      }
      i += m[0].length;
      const n = m[1] === '' || m[1].startsWith('?') ? 1 : Number(m[1].split(';')[0]) || 0;
      switch (m[2]) {
        case 'A':
          row = Math.max(0, row - Math.max(1, n));
          break;
        case 'B':
          row += Math.max(1, n);
          break;
        case 'C':
          col += Math.max(1, n);
          break;
        case 'D':
          col = Math.max(0, col - Math.max(1, n));
          break;
        case 'G':
          col = Math.max(0, (m[1] === '' ? 1 : n) - 1);
          break;
        case 'K':
          if (m[1] === '2') lines[row] = [];
          else if (m[1] === '1') line().fill(' ', 0, col);
          else line().length = Math.min(line().length, col);
          break;
        case 'J':
          if (m[1] === '' || m[1] === '0') {
            line().length = Math.min(line().length, col);
            lines.length = row + 1;
          }
          break;
        default:
          break; // colours, cursor visibility
      }
      continue;
    }
    i += 1;
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row += 1;
      col = 0;
    } else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch >= ' ') {
      if (col >= columns) {
        row += 1;
        col = 0;
      }
      const l = line();
      while (l.length < col) l.push(' ');
      l[col] = ch;
      col += 1;
    }
  }
  return Array.from(lines, (l) => (l ?? []).join('').trimEnd());
}
