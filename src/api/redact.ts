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
  const bytes = Buffer.from(secret);
  const escaped = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  forms.add(escaped.toUpperCase());
  forms.add(escaped);
  // A substring starting at byte p is encoded, from its first whole 3-byte group, inside the
  // encoding of bytes from p mod 3 on: three alignments cover every echo. (A secret shorter than
  // an alignment leaves nothing to encode there; the empty form is dropped below.)
  for (const offset of [0, 1, 2]) {
    const part = bytes.subarray(offset);
    // The last group may mix with what follows the secret in the echo: leave it out.
    const whole = part.subarray(0, part.length - (part.length % 3));
    forms.add(whole.toString('base64'));
    forms.add(whole.toString('base64url'));
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_RUN);
}

/** Builds a redactor for one secret (the set of its 8-character pieces is built once). */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  if (!secret || secret.length < MIN_SECRET_RUN) return secret ? (text) => text.split(secret).join(MASK) : (text) => text;
  const grams = new Set<string>();
  for (const f of secretForms(secret)) for (let end = MIN_SECRET_RUN; end <= f.length; end++) grams.add(f.slice(end - MIN_SECRET_RUN, end));
  return (text) => {
    // Every window of the text that is a piece of a form is masked; overlapping or adjacent
    // windows are one run, one mask. `kept` is where the text after the last run starts.
    let out = '';
    let kept = 0;
    for (let end = MIN_SECRET_RUN; end <= text.length; end++) {
      const start = end - MIN_SECRET_RUN;
      if (!grams.has(text.slice(start, end))) continue;
      // A new run, unless this window touches the last one.
      if (start > kept || out === '') out += `${text.slice(kept, start)}${MASK}`;
      kept = end;
    }
    return out + text.slice(kept);
  };
}

/** One-off form of secretRedactor. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secretRedactor(secret)(text);
}
