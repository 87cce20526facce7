// Token redaction that catches echoes.
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_RUN, redactSecret, secretForms, secretRedactor } from '../../../src/api/redact.js';
import { HttpClient } from '../../../src/api/http.js';
import { ApiError } from '../../../src/errors.js';
import { useLoopbackServer } from '../../helpers/loopback-server.js';

const TOKEN = 'pk_live_7Hq2Zx9WmR4tLc8VbN3sKd6YfJ1gPa5EuQ0oXi';

/** True when some run of MIN_SECRET_RUN characters of any form of the token survives in text. */
function leaks(text: string, token = TOKEN): boolean {
  for (const f of secretForms(token)) for (let i = 0; i + MIN_SECRET_RUN <= f.length; i++) if (text.includes(f.slice(i, i + MIN_SECRET_RUN))) return true;
  return false;
}

describe('redactSecret', () => {
  it('masks the whole token and any run of 8 or more of its characters', () => {
    expect(redactSecret(`Bearer ${TOKEN}`, TOKEN)).toBe('Bearer ***');
    expect(redactSecret(`you sent "${TOKEN.slice(0, 40)}" (last 4: ${TOKEN.slice(-4)})`, TOKEN)).toBe(`you sent "***" (last 4: ${TOKEN.slice(-4)})`);
    expect(redactSecret(`x${TOKEN.slice(10, 18)}y`, TOKEN)).toBe('x***y');
    // 7 characters are too few to say anything (and would mask ordinary words).
    expect(redactSecret(`x${TOKEN.slice(10, 17)}y`, TOKEN)).toBe(`x${TOKEN.slice(10, 17)}y`);
    expect(redactSecret('nothing secret here at all', TOKEN)).toBe('nothing secret here at all');
  });

  it('catches an echo cut into pieces by separators', () => {
    const token = 'sbx_SECRET_token_1234567890abcdef';
    const pieces = (t: string, n: number, sep: string) => t.match(new RegExp(`.{1,${n}}`, 'g'))!.join(sep);
    for (const sep of ['-', ' ', '.', ':', '/', '|', ', ', '-_-']) {
      for (const n of [2, 3, 4, 5, 6]) {
        const echo = pieces(token, n, sep);
        const out = redactSecret(`you sent ${echo} (rejected)`, token);
        expect(out, `${n} by "${sep}"`).toBe('you sent *** (rejected)');
      }
    }
    // The brief's own example form, and upper-cased pieces.
    expect(redactSecret(`x ${pieces(token, 4, '-')} y`, token)).toBe('x *** y');
    expect(redactSecret(`x ${pieces(token.toUpperCase(), 4, '-')} y`, token)).toBe('x *** y');
    // Pieces far apart (more than 4 separators between them) are not joined: each is too short to be the token.
    expect(redactSecret('code sbx_SE-----CRET_t', token)).toBe('code sbx_SE-----CRET_t');
    expect(redactSecret('code sbx_SE----CRET_t', token)).toBe('code ***');
    // Ordinary text with separators stays as it is.
    expect(redactSecret('ACME-00001, ACME-00002: created', token)).toBe('ACME-00001, ACME-00002: created');
    // What is around the echo is kept exactly.
    expect(redactSecret(`[${pieces(token, 4, '-')}]`, token)).toBe('[***]');
  });

  it('catches upper-case and lower-case echoes', () => {
    const out = redactSecret(`AUTH=${TOKEN.toUpperCase().slice(3, 30)};auth=${TOKEN.toLowerCase().slice(5, 25)}`, TOKEN);
    expect(out).toBe('AUTH=***;auth=***');
  });

  it('catches base64 and base64url echoes at every alignment (Basic headers, "Bearer " prefixes)', () => {
    for (const prefix of ['', 'a', 'ab', 'Bearer ', 'user:', 'partner:']) {
      for (const enc of ['base64', 'base64url'] as const) {
        const echo = Buffer.from(`${prefix}${TOKEN}`).toString(enc);
        const out = redactSecret(`echo: ${echo}`, TOKEN);
        expect(leaks(out), `${prefix} ${enc}: ${out}`).toBe(false);
        expect(out).toMatch(/^echo: \S{0,12}\*\*\*\S{0,8}$/);
      }
    }
    // A part of the token, base64-encoded from the middle.
    const mid = Buffer.from(TOKEN.slice(7, 40)).toString('base64');
    expect(leaks(redactSecret(mid, TOKEN))).toBe(false);
  });

  it('short secrets are masked whole; no secret leaves text as is', () => {
    expect(redactSecret('a abc123 b', 'abc123')).toBe('a *** b');
    expect(redactSecret('text', undefined)).toBe('text');
  });
});

describe('HttpClient error bodies echoing part of the token', () => {
  const server = useLoopbackServer((req, res) => {
    const auth = String(req.headers.authorization ?? '').slice('Bearer '.length);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'UNAUTHORIZED', message: `token ${auth.slice(0, 40)}… is not valid (${Buffer.from(auth).toString('base64')})` }));
  });

  it('the ApiError message carries no run of the token', async () => {
    const http = new HttpClient({ baseUrl: server.url, token: TOKEN, userAgent: 't', timeoutMs: 5000, maxRetries: 0 });
    const err = await http.send('GET', '/v1/employees').catch((e: unknown) => e);
    await http.close();
    expect(err).toBeInstanceOf(ApiError);
    const text = `${(err as ApiError).message} ${JSON.stringify(err)}`;
    expect(text).toMatch(/\*\*\*/);
    expect(leaks(text)).toBe(false);
  });
});

describe('secretForms: exactly the forms an echo can take', () => {
  it('as is, upper and lower case, percent-encoded (upper and lower hex), base64 and base64url of the whole 3-byte groups from each alignment', () => {
    // 0x6a-0x6f and 0x7a/0x5f: hex letters, so the two hex cases differ.
    expect(secretForms('jklmnoz_').sort()).toEqual(
      ['jklmnoz_', 'JKLMNOZ_', '%6A%6B%6C%6D%6E%6F%7A%5F', '%6a%6b%6c%6d%6e%6f%7a%5f', 'amtsbW5v', 'a2xtbm96', 'bG1ub3pf'].sort(),
    );
  });

  it('base64url differs from base64 where the token has bytes that encode to + and /', () => {
    const forms = secretForms('??>>??>>??');
    expect(forms).toContain(Buffer.from('??>>??>>?').toString('base64'));
    expect(forms).toContain(Buffer.from('??>>??>>?').toString('base64url'));
    expect(Buffer.from('??>>??>>?').toString('base64')).not.toBe(Buffer.from('??>>??>>?').toString('base64url'));
  });

  it('every byte escaped with two hex digits, a leading zero included (a tab is %09, not %9)', () => {
    expect(secretForms('\tbcdefgh')).toContain('%09%62%63%64%65%66%67%68');
    expect(redactSecret('x=%09%62%63%64%65%66%67%68', '\tbcdefgh')).toBe('x=***');
  });

  it('encodeURIComponent form for a token with URL-special characters', () => {
    expect(secretForms('ab/c+d=e?f')).toContain('ab%2Fc%2Bd%3De%3Ff');
  });

  it('forms shorter than the minimum run are left out; a form of exactly the minimum is kept', () => {
    // 'abcdef': the text and its cases are 6 characters (left out); base64 of its 6 bytes is 8 (kept).
    const forms = secretForms('abcdef');
    expect(forms).toContain('YWJjZGVm');
    expect(forms).not.toContain('abcdef');
    expect(forms.every((f) => f.length >= MIN_SECRET_RUN)).toBe(true);
    // Two bytes: no whole 3-byte group to encode, and every form but the escaped ones is too short.
    expect(secretForms('ab')).toEqual([]);
    expect(secretForms('abc').sort()).toEqual(['%61%62%63']);
  });
});

describe('secretRedactor: masking', () => {
  const SECRET = 'jklmnoz_';

  it('a secret of exactly the minimum run: its forms are masked too, not only the secret as is', () => {
    expect(redactSecret('x JKLMNOZ_ y', SECRET)).toBe('x *** y');
    expect(redactSecret('%6a%6b%6c%6d%6e%6f%7a%5f', SECRET)).toBe('***');
    expect(redactSecret('t=%6A%6B%6C%6D%6E%6F%7A%5F&u=1', SECRET)).toBe('t=***&u=1');
  });

  it('a text exactly as long as the minimum run is checked', () => {
    expect(redactSecret(SECRET, SECRET)).toBe('***');
    expect(redactSecret('jklmnoz', SECRET)).toBe('jklmnoz');
  });

  it('overlapping pieces are one mask; separate echoes are masked each, the text between kept', () => {
    expect(redactSecret(`<${SECRET}${SECRET}>`, SECRET)).toBe('<***>');
    expect(redactSecret(`${SECRET}-${SECRET.toUpperCase()}-end`, SECRET)).toBe('***-***-end');
    expect(redactSecret(`a${SECRET}b`, SECRET)).toBe('a***b');
  });

  it('a piece of 8 anywhere in a long token, percent-encoded from the middle', () => {
    const piece = [...Buffer.from(TOKEN.slice(9, 21))].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const out = redactSecret(`path=/v1/x?t=${piece}`, TOKEN);
    expect(out).toBe('path=/v1/x?t=***');
  });

  it('a short secret (under the minimum run) is masked whole, every time it appears; nothing else is touched', () => {
    expect(redactSecret('abc123abc123 x abc12', 'abc123')).toBe('****** x abc12');
  });

  it('without a secret (or an empty one) the text is returned as it is', () => {
    expect(secretRedactor(undefined)('Bearer abc')).toBe('Bearer abc');
    expect(secretRedactor('')('Bearer abc')).toBe('Bearer abc');
  });
});
