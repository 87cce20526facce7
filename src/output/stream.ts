import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { OutputClosedError } from '../errors.js';

/**
 * Writes and waits for 'drain' when the stream's buffer is full (backpressure).
 * Throws OutputClosedError once the reader has gone (`| head`), so producers stop.
 */
export async function writeChunk(stream: Writable, chunk: string): Promise<void> {
  if (chunk === '') return;
  if (stream.destroyed) throw new OutputClosedError();
  if (!stream.write(chunk)) {
    await Promise.race([once(stream, 'drain'), once(stream, 'close'), once(stream, 'error').catch(() => undefined)]);
    if (stream.destroyed) throw new OutputClosedError();
  }
}
