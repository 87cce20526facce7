// Messages at the terminal's width: broken only at spaces (never inside a
// word or a URL), spacing between fields kept, colour codes taking no room.
import { describe, expect, it } from 'vitest';
import { wrapMessage } from '../../../src/text/wrap.js';

describe('wrapMessage', () => {
  it('breaks between words, never inside one, within the width', () => {
    const msg = 'Error: --status must be one of ONBOARDING, ACTIVE, OFFBOARDING, ENDED, DELETED, not "BOGUS"';
    const out = wrapMessage(msg, 40);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(out.replace(/\n\s*/g, ' ')).toBe(msg);
    expect(out).toContain('OFFBOARDING,');
  });

  it('keeps a URL whole even when it is wider than the terminal', () => {
    const url = 'http://127.0.0.1:45678/v1/partner/.well-known/jwks.json';
    const out = wrapMessage(`Ready! Listening for webhooks on ${url} (keys from ${url}). Press Ctrl-C to stop.`, 40);
    expect(out.split('\n').filter((l) => l.includes(url)).length).toBe(2);
    for (const line of out.split('\n')) if (!line.includes('http')) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('keeps two spaces between fields, and the end of an event line together', () => {
    const line = '12:00:01  200  EMPLOYEE_CREATED  3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a  ONBOARDING  -> forwarded 200';
    const out = wrapMessage(line, 60);
    expect(out).toContain('12:00:01  200  EMPLOYEE_CREATED');
    expect(out).not.toMatch(/forwar\n/);
    expect(out.split('\n').every((l) => l.length <= 60)).toBe(true);
    expect(out.split('\n')[1]).toMatch(/^ {2}\S/);
  });

  it('colour codes take no room; without a width the text is unchanged', () => {
    const red = '\x1b[31mError:\x1b[39m';
    expect(wrapMessage(`${red} ${'x'.repeat(30)}`, 40)).toBe(`${red} ${'x'.repeat(30)}`);
    const long = 'word '.repeat(50).trim();
    expect(wrapMessage(long, undefined)).toBe(long);
  });

  it('indents continuation lines under an indented line', () => {
    const out = wrapMessage(`  Hint: ${'word '.repeat(20).trim()}`, 30);
    for (const l of out.split('\n').slice(1)) expect(l).toMatch(/^ {4}\S/);
  });
});

describe('wrapMessage with wide and combining text', () => {
  it('counts CJK and emoji as two cells and combining marks as none (independent measure)', async () => {
    const { wcswidth } = await import('../../helpers/wcwidth.js');
    const msg = 'Error: No employee named 山田太郎 or 김민준 in Acme 株式会社; did you mean 山田花子 (ACME-00012) or 👩🏽‍💻 Zoë Ńguyễn?';
    const out = wrapMessage(msg, 30);
    for (const line of out.split('\n')) expect(wcswidth(line), line).toBeLessThanOrEqual(30);
    expect(out.replace(/\n\s*/g, ' ')).toBe(msg);
  });

  it('leaves a line of Thai with its vowel marks alone when it fits by display width', () => {
    const line = 'สมศักดิ์ รักษ์ไทย สมศักดิ์ รักษ์ไทย สมศักดิ์'; // more code points than cells
    expect([...line].length).toBeGreaterThan(40);
    expect(wrapMessage(line, 40)).toBe(line);
  });
});

describe('units never broken', () => {
  it('a backticked command with the punctuation stuck to it moves whole to the next line', () => {
    const out = wrapMessage('Next: follow the onboarding with (`partner employees list --employee-code ACME-00046`).', 80);
    expect(out).toBe('Next: follow the onboarding with\n  (`partner employees list --employee-code ACME-00046`).');
  });

  it('a coloured hint: its command line is still seen as one and left whole, continuation lines keep its indentation', () => {
    const dim = (s: string) => s.split('\n').map((l) => `\x1b[2m${l}\x1b[22m`).join('\n'); // as chalk writes a multi-line string
    const cmd = '  partner employees list --all --fields employeeCode,fullName,workEmail,status';
    const out = wrapMessage(dim(`Nothing was created. Look for the existing employee with:\n${cmd}`), 40);
    expect(out.split('\n').at(-1)).toBe(`\x1b[2m${cmd}\x1b[22m`);
    const indented = wrapMessage(`\x1b[2m  Hint: ${'word '.repeat(20).trim()}\x1b[22m`, 30);
    for (const l of indented.split('\n').slice(1)) expect(l).toMatch(/^ {4}\S/);
  });

  it('a command after VAR=value settings (the sandbox banner) stays whole on its line', () => {
    const line = '  PARTNER_BASE_URL=http://127.0.0.1:38651 PARTNER_TOKEN=sbx_acme_7f3c9a1e2b4d partner employees list';
    expect(wrapMessage(`Try:\n${line}`, 40)).toBe(`Try:\n${line}`);
  });
});

describe('terminalWidth (io.ts): each stream its own width', () => {
  it('undefined off a terminal; the terminal size; COLUMNS or 80 when a terminal reports none', async () => {
    const { terminalWidth } = await import('../../../src/io.js');
    expect(terminalWidth({ isTTY: false, columns: 100 }, {})).toBeUndefined();
    expect(terminalWidth({ isTTY: true, columns: 100 }, { COLUMNS: '60' })).toBe(100);
    expect(terminalWidth({ isTTY: true, columns: 0 }, { COLUMNS: '60' })).toBe(60);
    expect(terminalWidth({ isTTY: true, columns: 0 }, {})).toBe(80);
    expect(terminalWidth({ isTTY: true }, { COLUMNS: 'wide' })).toBe(80);
  });
});
