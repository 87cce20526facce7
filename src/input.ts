import type { Readable } from 'node:stream';
import { UsageError } from './errors.js';

/** Reads a stream to its end as UTF-8, refusing more than maxBytes. */
export async function readAll(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) throw new UsageError(`Input is too large (over ${maxBytes} bytes)`, undefined, 'INPUT_TOO_LARGE');
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
