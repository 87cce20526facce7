// The one reader of user input: strict UTF-8 (never a U+FFFD the user did
// not type), and the cap for files, pipes and devices alike.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8, readInputBytes, readInputFile } from '../../src/input.js';
import { UsageError } from '../../src/errors.js';

const bytes = (...b: number[]) => Buffer.from(b);

describe('firstInvalidUtf8', () => {
  it('finds the first byte outside a well-formed sequence', () => {
    expect(firstInvalidUtf8(Buffer.from('José Müller 日本 😀', 'utf8'))).toBe(Buffer.byteLength('José Müller 日本 😀'));
    expect(firstInvalidUtf8(Buffer.from('Jos\xe9', 'latin1'))).toBe(3);
    expect(firstInvalidUtf8(bytes(0x41, 0xc3))).toBe(1); // cut short
    expect(firstInvalidUtf8(bytes(0xc3, 0x41))).toBe(0); // not a continuation
    expect(firstInvalidUtf8(bytes(0xc0, 0x80))).toBe(0); // overlong
    expect(firstInvalidUtf8(bytes(0xe0, 0x80, 0x80))).toBe(0); // overlong
    expect(firstInvalidUtf8(bytes(0xed, 0xa0, 0x80))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytes(0xf5, 0x80, 0x80, 0x80))).toBe(0);
    expect(firstInvalidUtf8(bytes(0x80))).toBe(0);
    expect(firstInvalidUtf8(bytes(0xef, 0xbf, 0xbd))).toBe(3); // a typed U+FFFD is fine
    expect(firstInvalidUtf8(bytes(0xf0, 0x9f, 0x98, 0x80, 0xff))).toBe(4);
  });
});

describe('decodeUtf8', () => {
  it('drops a BOM, keeps a typed U+FFFD, refuses bad bytes naming the line and offset', () => {
    expect(decodeUtf8(Buffer.from('\ufeffa\ufffd', 'utf8'), 'f', 'X')).toBe('a\ufffd');
    let err: UsageError | undefined;
    try {
      decodeUtf8(Buffer.concat([Buffer.from('a\nbb\nc'), bytes(0xe9)]), 'values.json', 'INVALID_ENCODING');
    } catch (e) {
      err = e as UsageError;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toBe('values.json is not valid UTF-8: line 3, byte offset 6 (0xe9)');
    expect(err!.code).toBe('INVALID_ENCODING');
  });
});

describe('readInputBytes', () => {
  it('caps stdin ("-") and a device alike, naming the flag and the limit', async () => {
    const stdin = new PassThrough();
    stdin.end(Buffer.alloc(2000, 'a'));
    await expect(readInputBytes('-', { flag: '--from-csv', maxBytes: 1000, stdin })).rejects.toThrow('--from-csv (stdin) is too large (over 1000 bytes; at most 1000)');
    await expect(readInputBytes('/dev/zero', { flag: '--from-file', maxBytes: 4096 })).rejects.toThrow('--from-file /dev/zero is too large (over 4096 bytes; at most 4096)');
    const ok = new PassThrough();
    ok.end('{"a":1}');
    expect(await readInputFile('-', { flag: '--from-file', maxBytes: 100, stdin: ok })).toBe('{"a":1}');
    await expect(readInputBytes('/nonexistent/x', { flag: '--from-file', maxBytes: 10 })).rejects.toThrow('Cannot read --from-file /nonexistent/x: no such file');
  });
});

describe('decodeUtf8, UTF-16', () => {
  it('names a UTF-16 file (LE or BE, by its BOM) and says to save it as UTF-8', () => {
    for (const [bom, name] of [[bytes(0xff, 0xfe), 'UTF-16 LE'], [bytes(0xfe, 0xff), 'UTF-16 BE']] as const) {
      const text = Buffer.from('{"a":1}', 'utf16le');
      const body = name === 'UTF-16 BE' ? Buffer.from(text.map((_, i) => text[i ^ 1]!)) : text;
      let err: UsageError | undefined;
      try {
        decodeUtf8(Buffer.concat([bom, body]), '--body-file b.json', 'INVALID_VALUES_FILE');
      } catch (e) {
        err = e as UsageError;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect(err!.message).toBe(`--body-file b.json is ${name} (it starts with a UTF-16 byte order mark), not UTF-8`);
      expect(err!.hint).toMatch(/Save the file as UTF-8/);
      expect(err!.code).toBe('INVALID_VALUES_FILE');
    }
  });
});
