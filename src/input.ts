import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';

/**
 * The one size-capped reader: reads a stream to its end, or stops (and
 * destroys the stream) as soon as it has sent more than maxBytes, returning
 * undefined, so an oversized body is never held in memory. With a signal
 * (the context's Ctrl-C), an abort ends the wait at once with InterruptedError.
 */
export async function readCapped(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(new InterruptedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) throw new InterruptedError();
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > maxBytes) {
        stream.destroy();
        return undefined;
      }
      chunks.push(buf);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks);
}

/** Reads a stream as UTF-8, refusing more than maxBytes with a usage error. */
export async function readAll(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const buf = await readCapped(stream, maxBytes, signal);
  if (!buf) throw new UsageError(`Input is too large (over ${maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
  return buf.toString('utf8');
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
    const text = await readCapped(handle.createReadStream({ autoClose: false }), o.maxBytes, o.signal);
    if (!text) throw new UsageError(`${o.flag} ${path} is too large (over ${o.maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
    return text.toString('utf8');
  } catch (err) {
    if (err instanceof UsageError || err instanceof InterruptedError) throw err;
    const c = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${o.flag} ${path}: ${c === 'EISDIR' ? 'it is a directory' : (err as Error).message}`, undefined, code);
  } finally {
    await handle.close();
  }
}
