// A token holding a line break or another control character is
// refused as such, naming where it came from, at login and from PARTNER_TOKEN,
// with nothing sent. Before: the HTTP client refused the header and the CLI said
// "Could not reach … check your network/proxy".
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  s = await sandboxEnv();
});
afterAll(async () => {
  await s.close();
});

describe('a token with a line break or a control character', () => {
  it.each([
    ['a line break in the middle', (t: string) => `${t.slice(0, 5)}\n${t.slice(5)}`, /PARTNER_TOKEN holds a line break \(LF\) at character 6/],
    ['a trailing CR LF (a token pasted from a Windows file)', (t: string) => `${t}\r\n`, /PARTNER_TOKEN holds a line break \(CR\) at character \d+/],
    ['an escape character', (t: string) => `${t}\u001b`, /PARTNER_TOKEN holds a control character \(U\+001B\) at character \d+/],
  ])('PARTNER_TOKEN with %s: exit 2, said as such, nothing sent', async (_what, broken, message) => {
    const before = s.sandbox.requests.length;
    const r = await runMain(['employees', 'list', '-o', 'table'], { env: { ...s.env, PARTNER_TOKEN: broken(s.sandbox.tokens.companyA) } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Set it to the token alone/);
    expect(r.stderr).not.toMatch(/Could not reach|network/);
    expect(r.stderr).not.toContain(s.sandbox.tokens.companyA.slice(-8));
    expect(s.sandbox.requests.length).toBe(before);
  });

  it('auth status and doctor show the defect instead of a network failure', async () => {
    const env = { ...s.env, PARTNER_TOKEN: 'abc\ndef-123456' };
    const status = await runMain(['auth', 'status', '-o', 'json'], { env });
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toMatchObject({ tokenStorage: 'environment', check: expect.stringMatching(/^PARTNER_TOKEN holds a line break \(LF\) at character 4/) });
    const doctor = await runMain(['doctor', '-o', 'json'], { env });
    expect(JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'token')).toMatchObject({ status: 'fail', message: 'PARTNER_TOKEN holds a line break (LF) at character 4' });
  });

  it.each([
    ['a line break inside', 'abc\ndef-123456\n', 'The token holds a line break (LF) at character 4; nothing was saved'],
    ['a NUL', 'abc\u0000def-123456\n', 'The token holds a control character (U+0000) at character 4; nothing was saved'],
    ['a DEL', 'abc\u007fdef-123456\n', 'The token holds a control character (U+007F) at character 4; nothing was saved'],
  ])('auth login --with-token with %s: exit 2, said as such, nothing saved', async (_what, input, message) => {
    const env = { ...s.env, PARTNER_TOKEN: undefined, PARTNER_CONFIG_DIR: join(s.dir, `login-${input.charCodeAt(3)}`) };
    const r = await runMain(['auth', 'login', '--with-token', '--insecure-storage'], { env, input });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(env.PARTNER_CONFIG_DIR)).toBe(false);
  });
});
