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

/**
 * Separators an echo may cut the secret into pieces with (`sbx_-SECR-ET_t-…`):
 * anything but a letter or digit. At most MAX_SEPARATOR_RUN of them in a row
 * join two pieces; a longer gap ends the echo.
 */
const SEPARATOR = /[^\p{L}\p{N}]/u;
const MAX_SEPARATOR_RUN = 4;

/** The 8-character windows of each form that are pieces of the secret. */
function gramsOf(forms: string[]): Set<string> {
  const grams = new Set<string>();
  for (const f of forms) for (let end = MIN_SECRET_RUN; end <= f.length; end++) grams.add(f.slice(end - MIN_SECRET_RUN, end));
  return grams;
}

/**
 * The spans [start, end) of `text` made of windows found in `grams`;
 * overlapping or adjacent windows are one span.
 */
function spansOf(text: string, grams: Set<string>): [number, number][] {
  const spans: [number, number][] = [];
  for (let end = MIN_SECRET_RUN; end <= text.length; end++) {
    const start = end - MIN_SECRET_RUN;
    if (!grams.has(text.slice(start, end))) continue;
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = end;
    else spans.push([start, end]);
  }
  return spans;
}

/**
 * The letters and digits of `text` with where each came from, separators
 * dropped; a run of more than MAX_SEPARATOR_RUN separators becomes one
 * break (index -1), so pieces far apart are never joined.
 */
function lettersOf(text: string): { letters: string; at: number[] } {
  let letters = '';
  const at: number[] = [];
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (SEPARATOR.test(ch)) {
      if (++gap === MAX_SEPARATOR_RUN + 1) {
        letters += '\u0000';
        at.push(-1);
      }
      continue;
    }
    gap = 0;
    letters += ch;
    at.push(i);
  }
  return { letters, at };
}

/** Replaces each span of text with one mask. */
function masked(text: string, spans: [number, number][]): string {
  let out = '';
  let kept = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(kept, start)}${MASK}`;
    kept = end;
  }
  return out + text.slice(kept);
}

/** Builds a redactor for one secret (the set of its 8-character pieces is built once). */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  if (!secret || secret.length < MIN_SECRET_RUN) return secret ? (text) => text.split(secret).join(MASK) : (text) => text;
  const forms = secretForms(secret);
  const grams = gramsOf(forms);
  // The same forms with their separators dropped, for an echo cut into pieces.
  const letterGrams = gramsOf(forms.map((f) => lettersOf(f).letters.replace(/\u0000/g, '')));
  return (text) => {
    // Every window of the text that is a piece of a form is masked; overlapping or adjacent
    // windows are one run, one mask.
    const whole = masked(text, spansOf(text, grams));
    // Then the pieces: the letters and digits of what is left, separators skipped; each run
    // found there is masked from its first character to its last in the text.
    const { letters, at } = lettersOf(whole);
    const spans = spansOf(letters, letterGrams).map(([s, e]): [number, number] => [at[s]!, at[e - 1]! + 1]);
    return masked(whole, spans);
  };
}

/** One-off form of secretRedactor. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secretRedactor(secret)(text);
}
