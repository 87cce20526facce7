// What a token may hold. A token goes into one HTTP header line: a line break
// or another control character in it makes node:http refuse the request, which
// used to surface as "Could not reach … check your network/proxy". Whatever the
// token came from (a paste, PARTNER_TOKEN, the config file, the keyring), a
// defect is named as such, with where the token came from, and the token
// itself is never shown.

/** Far above any real token; bounds what is read from stdin or a keyring. */
export const MAX_TOKEN_LENGTH = 8192;

const NAMES: Record<string, string> = {
  '\n': 'a line break (LF)',
  '\r': 'a line break (CR)',
  '\t': 'a tab',
  ' ': 'a space',
  '\u0085': 'a line break (NEL)',
  '\u2028': 'a line break (U+2028)',
  '\u2029': 'a line break (U+2029)',
};

/** C0 and C1 controls, DEL, Unicode line and paragraph separators, and any space. */
const BAD = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]/u;

/** What is wrong with a token ("holds a line break (LF) at character 13"), or undefined when it can be sent. */
export function tokenDefect(token: string): string | undefined {
  if (token === '') return 'is empty';
  if (token.length > MAX_TOKEN_LENGTH) return `is too long (${token.length} characters, at most ${MAX_TOKEN_LENGTH})`;
  const m = BAD.exec(token);
  if (!m) return undefined;
  const ch = m[0];
  const code = ch.codePointAt(0)!;
  const name = NAMES[ch] ?? (code <= 0x9f ? `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})` : 'a space');
  return `holds ${name} at character ${m.index + 1}`;
}
