import type { Writable } from 'node:stream';
import { OutputClosedError } from '../errors.js';
import { outputFailure } from '../io.js';

/**
 * Writes and waits for 'drain' when the stream's buffer is full (backpressure).
 * Throws OutputClosedError once the reader has gone (`| head`), so producers stop,
 * and OutputWriteError when a write failed (disk full): the output is cut.
 */
export async function writeChunk(stream: Writable, chunk: string): Promise<void> {
  if (chunk === '') return;
  if (stream.destroyed) throw outputFailure(stream) ?? new OutputClosedError();
  if (!stream.write(chunk)) {
    // One listener each, all removed when the first fires: a long export waits here
    // thousands of times, and listeners left behind would pile up (MaxListenersExceededWarning).
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: unknown) => {
        stream.off('drain', settle).off('close', settle).off('error', settle);
        if (err instanceof Error) reject(outputFailure(stream) ?? err);
        else resolve();
      };
      stream.on('drain', settle).on('close', settle).on('error', settle);
    });
    if (stream.destroyed) throw outputFailure(stream) ?? new OutputClosedError();
  }
}
