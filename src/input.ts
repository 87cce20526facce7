import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';

/**
 * Reads a stream to its end as UTF-8, refusing more than maxBytes. With a
 * signal (the context's Ctrl-C), an abort ends the wait at once with
 * InterruptedError instead of at the next chunk.
 */
export async function readAll(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(new InterruptedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) throw new InterruptedError();
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > maxBytes) throw new UsageError(`Input is too large (over ${maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
      chunks.push(buf);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks).toString('utf8');
}
