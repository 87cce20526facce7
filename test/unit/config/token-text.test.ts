import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, tokenDefect } from '../../../src/config/token-text.js';

describe('tokenDefect', () => {
  it.each([
    ['sbx_live_abc123-._~+/=', undefined],
    ['', 'is empty'],
    ['abc\ndef', 'holds a line break (LF) at character 4'],
    ['abc\r\n', 'holds a line break (CR) at character 4'],
    ['a\tb', 'holds a tab at character 2'],
    ['Bearer abc', 'holds a space at character 7'],
    ['ab\u00a0c', 'holds a space at character 3'],
    ['x\u0000', 'holds a control character (U+0000) at character 2'],
    ['x\u001b[31m', 'holds a control character (U+001B) at character 2'],
    ['x\u007f', 'holds a control character (U+007F) at character 2'],
    ['x\u0085', 'holds a line break (NEL) at character 2'],
    ['x\u009b', 'holds a control character (U+009B) at character 2'],
    ['x\u2028', 'holds a line break (U+2028) at character 2'],
    ['x\u2029', 'holds a line break (U+2029) at character 2'],
  ])('%j: %s', (token, defect) => {
    expect(tokenDefect(token)).toBe(defect);
  });

  it('a token longer than the bound is refused by its length', () => {
    expect(tokenDefect('a'.repeat(MAX_TOKEN_LENGTH))).toBeUndefined();
    expect(tokenDefect('a'.repeat(MAX_TOKEN_LENGTH + 1))).toBe(`is too long (${MAX_TOKEN_LENGTH + 1} characters, at most ${MAX_TOKEN_LENGTH})`);
  });
});
