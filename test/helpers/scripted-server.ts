// A real loopback server whose next answers each test scripts: the unit tests
// of the HTTP client send real requests to it (test/helpers/loopback-server.ts).
import { beforeEach } from 'vitest';
import { useLoopbackServer, type Handler, type Received } from './loopback-server.js';

export type { Handler, Received };

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
  const queue: Handler[] = [];
  const server = useLoopbackServer((req, res, body) => {
    const h = queue.shift();
    if (h) return h(req, res, body);
    res.writeHead(500).end('no handler');
  });
  beforeEach(() => {
    queue.length = 0;
  });
  return {
    get url() {
      return server.url;
    },
    queue,
    seen: server.requests,
  };
}
