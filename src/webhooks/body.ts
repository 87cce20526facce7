// Reading one webhook body under the receiver's bounds: at most maxBytes,
// within a deadline (a sender trickling bytes or stalling is cut off), and
// within the body budget shared by every connection (connection-guard.ts).
// The declared length is reserved up front, so a thousand senders that each
// declare 1 MiB and send it slowly cannot hold a GB: past the budget they are
// turned away before their bytes arrive.
import type { IncomingMessage } from 'node:http';
import type { ConnectionGuard } from './connection-guard.js';

export type BodyRead =
  | { ok: true; body: Buffer; /** Gives the bytes back to the budget (once the body is no longer needed). */ release: () => void }
  | { ok: false; why: 'too-large' | 'timeout' | 'over-budget' | 'gone' };

export interface BodyLimits {
  maxBytes: number;
  /** The whole body must have arrived within this long. */
  deadlineMs: number;
  guard: ConnectionGuard;
  /** A slow body was closed to make room in the budget. */
  onEvict?: () => void;
}

export function readBody(req: IncomingMessage, o: BodyLimits): Promise<BodyRead> {
  const header = req.headers['content-length'];
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined && Number.isFinite(declared) && declared > o.maxBytes) return Promise.resolve({ ok: false, why: 'too-large' });
  const socket = req.socket;
  let reserved = 0;
  if (declared !== undefined && Number.isFinite(declared) && declared > 0) {
    if (!o.guard.reserve(socket, declared, o.onEvict)) return Promise.resolve({ ok: false, why: 'over-budget' });
    reserved = declared;
  }
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => finish({ ok: false, why: 'timeout' }), o.deadlineMs);
    const release = () => o.guard.release(socket);
    function finish(r: BodyRead): void {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('aborted', onGone).off('close', onGone).off('error', onGone);
      if (!r.ok) {
        req.pause();
        chunks.length = 0;
        release();
      }
      resolve(r);
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > o.maxBytes) return finish({ ok: false, why: 'too-large' });
      // A chunked body (no declared length) takes its budget as it comes.
      if (size > reserved) {
        if (!o.guard.reserve(socket, size - reserved, o.onEvict)) return finish({ ok: false, why: 'over-budget' });
        reserved = size;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      finish({ ok: true, body: Buffer.concat(chunks, size), release });
    }
    function onGone(): void {
      if (!req.complete) finish({ ok: false, why: 'gone' });
    }
    req.on('data', onData).on('end', onEnd).on('aborted', onGone).on('close', onGone).on('error', onGone);
  });
}
