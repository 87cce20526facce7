import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes and waits for 'drain' when the stream's buffer is full (backpressure). */
export async function writeChunk(stream: Writable, chunk: string): Promise<void> {
  if (chunk === '') return;
  if (!stream.write(chunk)) {
    await Promise.race([once(stream, 'drain'), once(stream, 'close'), once(stream, 'error')]);
  }
}
