import { describe, expect, it } from 'vitest';
import { sanitizeCell, sanitizeTerminal } from '../../../src/output/sanitize.js';

describe('sanitizeTerminal', () => {
  it('removes CSI, OSC and other escape sequences', () => {
    expect(sanitizeTerminal('\u001b[31mred\u001b[0m')).toBe('red');
    expect(sanitizeTerminal('a\u001b]0;evil title\u0007b')).toBe('ab');
    expect(sanitizeTerminal('a\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\b')).toBe('alinkb');
    expect(sanitizeTerminal('x\u009b2Jy')).toBe('xy');
  });
  it('replaces other control characters and bidi overrides, keeps newlines and text', () => {
    expect(sanitizeTerminal('a\u0007b\u0000c')).toBe('a\ufffdb\ufffdc');
    expect(sanitizeTerminal('abc\u202edef')).toBe('abc\ufffddef');
    expect(sanitizeTerminal('José, Zoë\nŁukasz 李')).toBe('José, Zoë\nŁukasz 李');
  });
  it('puts a cell on one line', () => {
    expect(sanitizeCell('one\ntwo\r\nthree')).toBe('one ↵ two ↵ three');
  });
});
