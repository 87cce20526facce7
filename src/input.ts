import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';

/** The body passed `maxBytes` (nothing more was read). */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes`);
  }
}

type Body = AsyncIterable<Uint8Array | string> & { destroy?: (err?: Error) => unknown; iterator?: (o: { destroyOnReturn: boolean }) => AsyncIterable<unknown> };

/**
 * The one size-capped reader (stdin, request and response bodies): reads a
 * stream to its end, or throws BodyTooLargeError as soon as more than
 * maxBytes arrived, so an oversized body is never held in memory. A declared
 * length over the cap is refused before reading. The stream is destroyed when
 * cut off, unless `keepOpen` (a server that still answers 413 on it). With a
 * signal (Ctrl-C), an abort ends the wait at once with InterruptedError.
 */
export async function readCapped(body: Body, maxBytes: number, o: { declaredLength?: string | string[]; signal?: AbortSignal; keepOpen?: boolean } = {}): Promise<Buffer> {
  const declared = Number(Array.isArray(o.declaredLength) ? o.declaredLength[0] : o.declaredLength);
  const cut = () => {
    if (!o.keepOpen) body.destroy?.();
    return new BodyTooLargeError(maxBytes);
  };
  if (Number.isFinite(declared) && declared > maxBytes) throw cut();
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => body.destroy?.(new InterruptedError());
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (o.signal?.aborted) throw new InterruptedError();
    const source = (o.keepOpen && body.iterator ? body.iterator({ destroyOnReturn: false }) : body) as AsyncIterable<Uint8Array | string>;
    for await (const chunk of source) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += buf.length;
      if (size > maxBytes) throw cut();
      chunks.push(buf);
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks, size);
}

/** Reads a stream as UTF-8 (invalid bytes refused), refusing more than maxBytes with a usage error. */
export async function readAll(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<string> {
  try {
    return decodeUtf8((await readCapped(stream, maxBytes, { signal })), 'stdin', 'INVALID_ENCODING');
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new UsageError(`Input is too large (over ${maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
    throw err;
  }
}

export interface InputFileOptions {
  /** The flag that named the file, for messages ("--from-csv"). */
  flag: string;
  maxBytes: number;
  /** What "-" reads; without it, "-" is a file name. */
  stdin?: Readable;
  signal?: AbortSignal;
  /** The error code of a file that cannot be read (default INVALID_OPTION). */
  code?: string;
  /** What to do when the file does not exist (e.g. which command writes one). */
  missingHint?: string;
}

/**
 * THE reader of user input named by a flag ("-" is stdin): a regular file,
 * a pipe, a device (/dev/stdin, /dev/zero) or a FIFO, read through
 * readCapped so that nothing over maxBytes is ever held (a regular file's
 * size is checked before reading too). Failures are usage errors naming the
 * flag and the limit.
 */
export async function readInputBytes(path: string, o: InputFileOptions): Promise<Buffer> {
  const tooLarge = (size?: number) =>
    new UsageError(`${o.flag} ${path === '-' ? '(stdin)' : path} is too large (${size !== undefined ? `${size} bytes` : `over ${o.maxBytes} bytes`}; at most ${o.maxBytes})`, 'Split the input into smaller files.', 'INPUT_TOO_LARGE');
  if (path === '-' && o.stdin) {
    try {
      return await readCapped(o.stdin, o.maxBytes, { signal: o.signal });
    } catch (err) {
      if (err instanceof BodyTooLargeError) throw tooLarge();
      throw err;
    }
  }
  const code = o.code ?? 'INVALID_OPTION';
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const c = (err as NodeJS.ErrnoException).code;
    const why = c === 'ENOENT' ? 'no such file' : c === 'EACCES' ? 'permission denied' : c === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new UsageError(`Cannot read ${o.flag} ${path}: ${why}`, c === 'ENOENT' ? o.missingHint : undefined, code);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new UsageError(`Cannot read ${o.flag} ${path}: it is a directory`, undefined, code);
    if (st.size > o.maxBytes) throw tooLarge(st.size);
    return await readCapped(handle.createReadStream({ autoClose: false }), o.maxBytes, { signal: o.signal });
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw tooLarge();
    if (err instanceof UsageError || err instanceof InterruptedError) throw err;
    const c = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${o.flag} ${path}: ${c === 'EISDIR' ? 'it is a directory' : (err as Error).message}`, undefined, code);
  } finally {
    await handle.close();
  }
}

/** readInputBytes as UTF-8 text: a BOM dropped, invalid bytes refused with their line and offset. */
export async function readInputFile(path: string, o: InputFileOptions): Promise<string> {
  return decodeUtf8(await readInputBytes(path, o), `${o.flag} ${path === '-' ? '(stdin)' : path}`, 'INVALID_ENCODING');
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Bytes as UTF-8, strictly: a malformed sequence is refused (never turned
 * into U+FFFD, which would then be sent as if typed), naming its byte offset
 * and line. A leading BOM is dropped.
 */
export function decodeUtf8(buf: Buffer, source: string, code: string): string {
  try {
    return utf8.decode(buf);
  } catch {
    // A UTF-16 file (Windows Notepad's "Unicode", PowerShell 5's Out-File) starts with its byte order mark:
    // say what it is rather than point at byte 0.
    const utf16 = buf[0] === 0xff && buf[1] === 0xfe ? 'UTF-16 LE' : buf[0] === 0xfe && buf[1] === 0xff ? 'UTF-16 BE' : undefined;
    if (utf16) throw new UsageError(`${source} is ${utf16} (it starts with a UTF-16 byte order mark), not UTF-8`, 'Save the file as UTF-8 (with or without a BOM), for example: iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8', code);
    const at = firstInvalidUtf8(buf);
    let line = 1;
    for (let i = 0; i < at; i++) if (buf[i] === 0x0a) line++;
    throw new UsageError(`${source} is not valid UTF-8: line ${line}, byte offset ${at} (0x${buf[at]?.toString(16).padStart(2, '0') ?? '??'})`, 'Save the file as UTF-8.', code);
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (buf.length: none). */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [n, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [n, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong, a surrogate, or past U+10FFFF.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += n + 1;
  }
  return buf.length;
}

/**
 * Up to `length` bytes of an open file from its start, fewer where it ends:
 * the loop every whole read of a descriptor needs (a read may return less
 * than asked). The caller bounds `length`.
 */
export function readFully(fd: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
