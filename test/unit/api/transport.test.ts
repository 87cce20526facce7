// partner's transport (node:http on a keep-alive agent) tells a handler the
// status, the headers, the body, then one end or one error, and nothing after
// an abort. Real loopback servers: a request per test, every connection counted.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT, CONNECTION_CLOSED, HttpTransport } from '../../../src/api/transport.js';
import type { AnswerHandler, Controller, RequestOptions } from '../../../src/api/transport.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';

const servers: (Server | NetServer)[] = [];
const transports: HttpTransport[] = [];
/** The connections of each raw server, ended with it (a net server's close waits for them). */
const rawSockets = new Map<NetServer, Set<Socket>>();
afterEach(async () => {
  for (const t of transports.splice(0)) await t.destroy();
  for (const s of servers.splice(0)) {
    const closed = closeServer(s);
    rawSockets.get(s)?.forEach((socket) => socket.destroy());
    await closed;
  }
});

/** An HTTP server on a loopback port chosen by the OS; `sockets` counts the connections it accepted. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  const seen = { sockets: 0, open: 0, maxOpen: 0 };
  server.on('connection', (s: Socket) => {
    seen.sockets++;
    seen.maxOpen = Math.max(seen.maxOpen, ++seen.open);
    s.once('close', () => seen.open--);
  });
  const { url } = await listenOnLoopback(server);
  servers.push(server);
  return { origin: url, seen };
}

/** A TCP server that answers each connection with `reply(socket)` (raw bytes, resets, silence); its connections end with the test. */
async function raw(reply: (s: Socket) => void) {
  const open = new Set<Socket>();
  const server = createNetServer((s) => {
    open.add(s);
    reply(s);
  });
  rawSockets.set(server, open);
  const { port } = await listenOnLoopback(server);
  servers.push(server);
  return port;
}


function transport(connections = 4, connectTimeout = 2000) {
  const t = new HttpTransport({ connections, keepAliveTimeout: 10_000, connectTimeout });
  transports.push(t);
  return t;
}

interface Told {
  events: string[];
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: string;
  error?: Error & { code?: string };
}

/** Dispatches one request and records what the handler is told, until its end or error. */
function send(t: HttpTransport, options: Partial<RequestOptions> & { origin: string }, during?: (c: Controller, told: Told) => void): Promise<Told> {
  const told: Told = { events: [], body: '' };
  return new Promise((resolve) => {
    t.dispatch({ method: 'GET', path: '/x', headers: {}, ...options } as RequestOptions, {
      onRequestStart: () => told.events.push('start'),
      onResponseStart: (c, status, headers) => {
        told.events.push('headers');
        told.status = status;
        told.headers = headers;
        during?.(c, told);
      },
      onResponseData: (_c, chunk) => {
        told.events.push('data');
        told.body += chunk.toString();
      },
      onResponseEnd: () => {
        told.events.push('end');
        resolve(told);
      },
      onResponseError: (_c, err) => {
        told.events.push('error');
        told.error = err;
        resolve(told);
      },
    });
  });
}

describe('HttpTransport', () => {
  it('sends the method, path, headers and body; tells the status, the headers and the body, then the end', async () => {
    const got: { method?: string; url?: string; headers?: IncomingMessage['headers']; body: string } = { body: '' };
    const s = await serve((req, res) => {
      Object.assign(got, { method: req.method, url: req.url, headers: req.headers });
      req.on('data', (c) => (got.body += c));
      req.on('end', () => {
        res.setHeader('set-cookie', ['a=1', 'b=2', 'c=3']);
        res.setHeader('x-one', 'v');
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const told = await send(transport(), { origin: s.origin, method: 'POST', path: '/v1/e?q=1', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"a":"é"}' });
    expect(got).toMatchObject({ method: 'POST', url: '/v1/e?q=1', body: '{"a":"é"}' });
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t', 'content-length': '10' });
    expect(told.events).toEqual(['start', 'headers', 'data', 'end']);
    expect(told.status).toBe(201);
    expect(told.body).toBe('{"ok":true}');
    // Lower-case names, a repeated header as an array, one value as a string.
    expect(told.headers).toMatchObject({ 'set-cookie': ['a=1', 'b=2', 'c=3'], 'x-one': 'v', 'content-type': 'application/json' });
  });

  it('builds the headers on no prototype: a header named __proto__ is a key like any other', async () => {
    const port = await raw((sock) => sock.once('data', () => sock.end('HTTP/1.1 200 OK\r\n__proto__: x\r\nconstructor: y\r\ncontent-length: 0\r\n\r\n')));
    const told = await send(transport(), { origin: `http://127.0.0.1:${port}` });
    expect(Object.getPrototypeOf(told.headers)).toBeNull();
    expect(Object.keys(told.headers!)).toEqual(['__proto__', 'constructor', 'content-length']);
  });

  it('keeps the connection: requests one after the other go on one', async () => {
    const s = await serve((_req, res) => res.end('x'));
    const t = transport();
    for (let i = 0; i < 3; i++) expect((await send(t, { origin: s.origin })).events).toEqual(['start', 'headers', 'data', 'end']);
    expect(s.seen.sockets).toBe(1);
  });

  it('leaves no listener behind on a kept connection: 30 requests on one raise no MaxListeners warning', async () => {
    const s = await serve((_req, res) => res.end('x'));
    const t = transport(1);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 30; i++) await send(t, { origin: s.origin });
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(s.seen.sockets).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('opens at most `connections` to an origin, however many requests are in flight', async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end('x'), 30));
    const t = transport(2);
    const all = await Promise.all(Array.from({ length: 6 }, () => send(t, { origin: s.origin })));
    expect(all.every((r) => r.events.at(-1) === 'end')).toBe(true);
    expect(s.seen.maxOpen).toBe(2);
    expect(s.seen.sockets).toBe(2);
  });

  describe('a connection that ends early', () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"a":';
    it('closed (FIN) mid-body: CONNECTION_CLOSED, after the headers and what came', async () => {
      const port = await raw((sock) => sock.once('data', () => sock.end(head)));
      const told = await send(transport(), { origin: `http://127.0.0.1:${port}` });
      expect(told.events).toEqual(['start', 'headers', 'data', 'error']);
      expect(told.error?.code).toBe(CONNECTION_CLOSED);
      expect(told.error?.message).toBe('the other side closed the connection');
      // Node's own error stays underneath, for --debug.
      expect((told.error?.cause as { code?: string }).code).toBe('ECONNRESET');
    });

    it('reset (RST) mid-body: ECONNRESET', async () => {
      const port = await raw((sock) => sock.once('data', () => sock.write(head, () => setTimeout(() => sock.resetAndDestroy(), 20))));
      const told = await send(transport(), { origin: `http://127.0.0.1:${port}` });
      expect(told.events).toEqual(['start', 'headers', 'data', 'error']);
      expect(told.error?.code).toBe('ECONNRESET');
    });

    it('closed before any answer: CONNECTION_CLOSED, no headers', async () => {
      const port = await raw((sock) => sock.once('data', () => sock.end()));
      const told = await send(transport(), { origin: `http://127.0.0.1:${port}` });
      expect(told.events).toEqual(['start', 'error']);
      expect(told.error?.code).toBe(CONNECTION_CLOSED);
    });

    it('an answer that is not HTTP: the parser’s error, as Node names it', async () => {
      const port = await raw((sock) => sock.once('data', () => sock.end('SSH-2.0-OpenSSH\r\n')));
      const told = await send(transport(), { origin: `http://127.0.0.1:${port}` });
      expect(told.events).toEqual(['start', 'error']);
      expect(told.error?.code).toMatch(/^HPE_/);
    });
  });

  it('a TLS handshake that never completes: CONNECT_TIMEOUT after connectTimeout', async () => {
    // The TCP connection is accepted and nothing is ever said: only the handshake hangs.
    const port = await raw(() => undefined);
    const started = Date.now();
    const told = await send(transport(4, 150), { origin: `https://127.0.0.1:${port}` });
    expect(told.events).toEqual(['start', 'error']);
    expect(told.error?.code).toBe(CONNECT_TIMEOUT);
    expect(told.error?.message).toBe('no connection within 150 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('a connection made in time is not cut by the connect limit, however long the answer takes', async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end('slow'), 250));
    const told = await send(transport(4, 100), { origin: s.origin });
    expect(told.events.at(-1)).toBe('end');
    expect(told.body).toBe('slow');
  });

  it('reaches an IPv6 address written in brackets ([::1])', async (t) => {
    const server = createServer((_req, res) => res.end('six'));
    const listening = await new Promise<boolean>((r) => server.once('error', () => r(false)).listen(0, '::1', () => r(true)));
    if (!listening) return t.skip();
    servers.push(server);
    const told = await send(transport(), { origin: `http://[::1]:${(server.address() as AddressInfo).port}` });
    expect(told.body).toBe('six');
  });

  it('pause() holds the body back until resume(), and says so', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200);
      res.write('first');
      setTimeout(() => res.end('second'), 20);
    });
    const t = transport();
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      t.dispatch({ method: 'GET', origin: s.origin, path: '/x', headers: {} }, {
        onResponseData: (c, chunk) => {
          seen.push(`${chunk}@${c.paused}`);
          if (seen.length === 1) {
            c.pause();
            seen.push(`paused:${c.paused}`);
            setTimeout(() => {
              seen.push('resume');
              c.resume();
            }, 80);
          }
        },
        onResponseEnd: () => resolve(),
        onResponseError: () => resolve(),
      });
    });
    expect(seen).toEqual(['first@false', 'paused:true', 'resume', 'second@false']);
  });

  it('aborted by the handler on the answer’s last chunk (a body cap): no error escapes, nothing more is told, the next request is answered', async () => {
    // The whole answer in one read: it is complete before its data is handed on, and Node has taken its
    // error listener off the socket. A socket destroyed with the abort's error there killed the process.
    // Whether the connection is then kept is Node's: nothing is left unread on it (Node 20 and 22 drop
    // it, 24.22 keeps it for the next request); at most one is open, and the next request is answered.
    const s = await serve((_req, res) => res.end('y'.repeat(101)));
    const t = transport(1);
    const told: string[] = [];
    await new Promise<void>((resolve) => {
      t.dispatch({ method: 'GET', origin: s.origin, path: '/x', headers: {} }, {
        onResponseData: (c) => {
          told.push('data');
          c.abort(new Error('over the cap'));
          setTimeout(resolve, 50);
        },
        onResponseEnd: () => void told.push('end'),
        onResponseError: () => void told.push('error'),
      });
    });
    expect(told).toEqual(['data']);
    const next = await send(t, { origin: s.origin });
    expect(next.events).toEqual(['start', 'headers', 'data', 'end']);
    expect(next.body).toBe('y'.repeat(101));
    expect(s.seen.maxOpen).toBe(1);
  });

  it('aborted by the handler: nothing more is told, and the connection is dropped', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(10));
    });
    const t = transport();
    const told: string[] = [];
    await new Promise<void>((resolve) => {
      t.dispatch({ method: 'GET', origin: s.origin, path: '/x', headers: {} }, {
        onResponseStart: (c) => {
          told.push(`headers aborted:${c.aborted}`);
          c.abort(new Error('enough'));
          told.push(`aborted:${c.aborted} ${c.reason?.message}`);
          setTimeout(resolve, 50);
        },
        onResponseData: () => void told.push('data'),
        onResponseEnd: () => void told.push('end'),
        onResponseError: () => void told.push('error'),
      });
    });
    expect(told).toEqual(['headers aborted:false', 'aborted:true enough']);
    await waitFor(() => s.seen.open === 0, { what: 'every connection closed' });
  });

  it('close() lets the request in flight finish, then refuses new ones; destroy() ends one in flight', async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end('late'), 50));
    const t = transport();
    const inFlight = send(t, { origin: s.origin });
    await new Promise((r) => setTimeout(r, 10));
    const closed = t.close();
    expect((await send(t, { origin: s.origin })).error).toMatchObject({ code: 'CLIENT_CLOSED', message: 'the client is closed' });
    expect((await inFlight).body).toBe('late');
    await closed;
    await waitFor(() => s.seen.open === 0, { what: 'every connection closed' });

    const u = transport();
    const pending = send(u, { origin: s.origin });
    await new Promise((r) => setTimeout(r, 10));
    await u.destroy();
    expect((await pending).error).toMatchObject({ code: 'CLIENT_DESTROYED', message: 'the client was destroyed' });
  });
});
