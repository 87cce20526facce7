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

/** Reads a stream as UTF-8, refusing more than maxBytes with a usage error. */
export async function readAll(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<string> {
  try {
    return (await readCapped(stream, maxBytes, { signal })).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new UsageError(`Input is too large (over ${maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
    throw err;
  }
}

/**
 * A file named by a flag ("-" is stdin), as UTF-8, capped at maxBytes (the
 * size is checked before reading). Failures are usage errors naming the flag.
 */
export async function readInputFile(path: string, o: { flag: string; maxBytes: number; stdin: Readable; signal?: AbortSignal; code?: string }): Promise<string> {
  if (path === '-') return readAll(o.stdin, o.maxBytes, o.signal);
  const code = o.code ?? 'INVALID_OPTION';
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const c = (err as NodeJS.ErrnoException).code;
    const why = c === 'ENOENT' ? 'no such file' : c === 'EACCES' ? 'permission denied' : c === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new UsageError(`Cannot read ${o.flag} ${path}: ${why}`, undefined, code);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new UsageError(`Cannot read ${o.flag} ${path}: it is a directory`, undefined, code);
    if (st.size > o.maxBytes) throw new UsageError(`${o.flag} ${path} is too large (${st.size} bytes; at most ${o.maxBytes})`, undefined, 'INPUT_TOO_LARGE');
    return (await readCapped(handle.createReadStream({ autoClose: false }), o.maxBytes, { signal: o.signal })).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new UsageError(`${o.flag} ${path} is too large (over ${o.maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
    if (err instanceof UsageError || err instanceof InterruptedError) throw err;
    const c = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${o.flag} ${path}: ${c === 'EISDIR' ? 'it is a directory' : (err as Error).message}`, undefined, code);
  } finally {
    await handle.close();
  }
}
