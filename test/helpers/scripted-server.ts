// A real loopback server (port 0) whose next answers each test scripts: the
// unit tests of the HTTP client send real requests through partner's transport to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedServer {
  /** http://127.0.0.1:PORT, once the file's tests start. */
  readonly url: string;
  /** The answers to the next requests, in order; a request with none queued gets a 500. */
  readonly queue: Handler[];
  /** Every request received, in order, its body read whole. */
  readonly seen: Received[];
}

/**
 * Started before the calling file's tests and closed after them (keep-alive
 * connections too); each test starts with nothing queued and nothing seen.
 */
export function scriptedServer(): ScriptedServer {
  let server: Server;
  const s = { url: '', queue: [] as Handler[], seen: [] as Received[] };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        s.seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const h = s.queue.shift();
        if (h) h(req, res, body);
        else res.writeHead(500).end('no handler');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    s.queue.length = 0;
    s.seen.length = 0;
  });
  return s;
}
