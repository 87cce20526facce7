// Reading a response body with a size cap, streaming: a body that passes the
// cap is cut off there (its stream destroyed), never buffered whole. A
// 500 MB key set costs at most the cap in memory.

/** The body passed `maxBytes`. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes`);
  }
}

/**
 * Reads `body` to its end, or throws BodyTooLargeError as soon as more than
 * `maxBytes` arrived (a declared Content-Length over the cap is refused
 * before reading). The stream is destroyed when cut off.
 */
export async function readCapped(body: AsyncIterable<Uint8Array | string> & { destroy?: (err?: Error) => unknown }, maxBytes: number, declaredLength?: string | string[]): Promise<Buffer> {
  const declared = Number(Array.isArray(declaredLength) ? declaredLength[0] : declaredLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy?.();
    throw new BodyTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += buf.length;
    if (size > maxBytes) {
      body.destroy?.();
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}
