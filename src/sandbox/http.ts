// Small HTTP helpers shared by the sandbox modules: the response value the
// handlers return, JSON and error responses, body reading.
import type { IncomingMessage } from 'node:http';
import { errorBody, type ErrorOptions } from './errors.js';

/** What a handler answers; the server writes it after the configured latency. */
export interface SbxResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** destroy the socket without answering */
  reset?: boolean;
  /** runs after the response has been written (e.g. webhook delivery) */
  after?: () => void;
}

/** Per-request facts handlers need. */
export interface RequestInfo {
  method: string;
  path: string;
  query: URLSearchParams;
  correlationId: string;
}

export const JSON_TYPE = 'application/json';

export function json(status: number, value: unknown): SbxResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}

export function error(status: number, req: Pick<RequestInfo, 'path' | 'correlationId'>, opts?: ErrorOptions): SbxResponse {
  return json(status, errorBody(status, req.path, req.correlationId, opts));
}

export class BodyTooLargeError extends Error {}

/** Reads the whole request body as UTF-8 (rejects above `limit` bytes). */
export function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError(`body larger than ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}
