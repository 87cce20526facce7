// Token redaction that catches echoes: a server (or proxy) that echoes part
// of the Authorization header — the first 40 characters, upper-cased,
// base64-encoded in a Basic header, percent-encoded in a URL — must not put
// the token on the screen. Any run of MIN_SECRET_RUN or more characters of
// the token, in any of those forms, is replaced. It runs on text as it is
// shown (a JSON body decoded, each field of the error on its own: api/errors.ts),
// so an echo spelt with JSON escapes is caught once decoded.

export const MIN_SECRET_RUN = 8;
const MASK = '***';

/**
 * The forms an echo of the secret can take: as is, upper/lower case, base64
 * and base64url at each byte alignment, and percent-encoded (as
 * encodeURIComponent writes it, and every byte escaped, in upper- and
 * lower-case hex).
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, secret.toUpperCase(), secret.toLowerCase(), encodeURIComponent(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  const escaped = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  forms.add(escaped.toUpperCase());
  forms.add(escaped);
  // A substring starting at byte p is encoded, from its first whole 3-byte group, inside the
  // encoding of bytes from p mod 3 on: three alignments cover every echo.
  for (let offset = 0; offset < 3 && offset < bytes.length; offset++) {
    const part = bytes.subarray(offset);
    // The last group may mix with what follows the secret in the echo: leave it out.
    const whole = part.subarray(0, part.length - (part.length % 3));
    forms.add(whole.toString('base64'));
    forms.add(whole.toString('base64url'));
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_RUN);
}

/** Builds a redactor for one secret (the n-gram sets are built once). */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  if (!secret || secret.length < MIN_SECRET_RUN) return secret ? (text) => text.split(secret).join(MASK) : (text) => text;
  const grams = new Set<string>();
  for (const f of secretForms(secret)) for (let i = 0; i + MIN_SECRET_RUN <= f.length; i++) grams.add(f.slice(i, i + MIN_SECRET_RUN));
  return (text) => {
    if (text.length < MIN_SECRET_RUN) return text;
    // Every window of the text that is an 8-character piece of a form is covered; runs of covered characters are masked.
    const covered = new Uint8Array(text.length);
    let any = false;
    for (let i = 0; i + MIN_SECRET_RUN <= text.length; i++) {
      if (grams.has(text.slice(i, i + MIN_SECRET_RUN))) {
        covered.fill(1, i, i + MIN_SECRET_RUN);
        any = true;
      }
    }
    if (!any) return text;
    let out = '';
    for (let i = 0; i < text.length; ) {
      if (!covered[i]) {
        out += text[i++];
        continue;
      }
      while (i < text.length && covered[i]) i++;
      out += MASK;
    }
    return out;
  };
}

/** One-off form of secretRedactor. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secretRedactor(secret)(text);
}
