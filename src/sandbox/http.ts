// Small HTTP helpers shared by the sandbox modules: the response value the
// handlers return, JSON and error responses, body reading, the bearer token.
import type { IncomingMessage } from 'node:http';
import { readCapped } from '../input.js';
import { errorBody, type ErrorOptions } from './errors.js';

export { BodyTooLargeError } from '../input.js';

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

/** Reads the whole request body as UTF-8 through the one capped reader (BodyTooLargeError above `limit`; the socket stays open for the 413). */
export async function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  return (await readCapped(req, limit, { declaredLength: req.headers['content-length'], keepOpen: true })).toString('utf8');
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}
