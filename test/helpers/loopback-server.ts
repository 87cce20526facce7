// The one loopback server of the tests: a real server on 127.0.0.1 at a port
// the OS picks (never a fixed one), which records every request it gets and is
// closed, open connections and all, when the test is done.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** Answers one request; `body` is the request's body, read whole. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface Received {
  method: string;
  /** As sent: path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body's exact bytes (for tests of what is sent byte for byte). */
  bytes: Buffer;
}

export interface Listening {
  /** http://127.0.0.1:PORT (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends every open connection (keep-alive ones too). */
  close(): Promise<void>;
}

export interface Loopback extends Listening {
  readonly server: Server;
  /** Every request received, in arrival order (its body read whole before the handler runs). */
  readonly requests: Received[];
}

/** Puts any server (http, https, net) on 127.0.0.1 at an OS-chosen port; `scheme` names the URL's. */
export async function listenOnLoopback(server: NetServer, scheme = 'http'): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        (server as Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP server answering with `handler` (a 500 when it throws), recording
 * every request (into `requests` when given). The caller closes it (or use
 * `useLoopbackServer`).
 */
export async function startLoopbackServer(handler: Handler, requests: Received[] = []): Promise<Loopback> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body, bytes });
      Promise.resolve()
        .then(() => handler(req, res, body))
        .catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`test server: ${String(err)}`);
        });
    });
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, server, requests };
}

/**
 * A loopback server for the calling file (or describe block): started before
 * its tests, closed after them; `requests` is emptied before each test. Its
 * fields are read inside tests (url is empty before they start).
 */
export function useLoopbackServer(handler: Handler): Loopback {
  let running: Loopback | undefined;
  const requests: Received[] = [];
  const view = {
    get url() {
      return running?.url ?? '';
    },
    get port() {
      return running?.port ?? 0;
    },
    get server() {
      return running!.server;
    },
    requests,
    close: () => running?.close() ?? Promise.resolve(),
  };
  beforeAll(async () => {
    running = await startLoopbackServer(handler, requests);
  });
  afterAll(() => running?.close());
  beforeEach(() => {
    requests.length = 0;
  });
  return view;
}

/** A loopback port that was free a moment ago: a connection to it is refused (nothing listens). */
export async function closedPort(): Promise<number> {
  const probe = await listenOnLoopback(createNetServer());
  await probe.close();
  return probe.port;
}

/** Closes a server a test made itself, ending its open connections (keep-alive ones too) first. */
export function closeServer(server: NetServer): Promise<void> {
  (server as Server).closeAllConnections?.();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}
