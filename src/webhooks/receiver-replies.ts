// How the receiver answers a request: JSON replies, a reply that also cuts
// the sender off, and the raw refusal of a connection no slot is left for.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RETRY_AFTER_S } from './receiver-types.js';

export function reply(res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

/** 503 with Retry-After: the sender keeps the event and tries again. */
export function replyRetryLater(res: ServerResponse, body: Record<string, unknown>, afterS = RETRY_AFTER_S): void {
  reply(res, 503, body, { 'retry-after': String(afterS) });
}

/** Answers, then closes the connection (a sender cut off: its bytes are not read on). */
export function replyAndClose(res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  stopReading(res.socket);
  res.once('finish', () => res.socket?.destroy());
  reply(res, status, body, { connection: 'close', ...extra });
  // An answer the sender does not read (a stalled socket) must not hold the connection either.
  if (!res.writableFinished) setTimeout(() => res.socket?.destroy(), 1000).unref();
}

/** The path of a request target, without query or fragment; never throws (`//`, `//x` are paths here, not hosts). */
export function requestPath(target: string | undefined): string {
  const t = target ?? '/';
  const end = t.search(/[?#]/);
  return end === -1 ? t : t.slice(0, end);
}

const BUSY_BODY = '{"error":"BUSY","message":"every connection is in use; retry later"}';
/** The raw answer to a connection refused before any request was read (every slot busy). */
const REFUSED = `HTTP/1.1 503 Service Unavailable\r\nretry-after: ${RETRY_AFTER_S}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${BUSY_BODY.length}\r\n\r\n${BUSY_BODY}`;

/** Turns a connection away before reading anything from it. */
export function refuseConnection(s: Socket): void {
  s.on('error', () => undefined);
  s.end(REFUSED);
  setTimeout(() => s.destroy(), 1000).unref();
}

/**
 * Stops reading a sender's bytes at once. A refused sender (over the body
 * budget, too slow) has more of its body on the wire; Node's HTTP server reads
 * on (socket.pause() does not stop a socket its parser consumes) until the
 * connection is closed, and each read becomes garbage. Measured on Node 24 with
 * 500 senders of 1 MiB (test/e2e/webhook-bounds.test.ts): 192 KiB read per
 * refused sender and a peak of 194 MiB, against 64 KiB and 157-171 MiB with
 * reading stopped. The handle is Node's own (no public call does this); where a
 * Node has none, nothing happens and the connection is closed as before.
 */
function stopReading(socket: Socket | null): void {
  (socket as unknown as { _handle?: { readStop?: () => unknown } } | null)?._handle?.readStop?.();
}
