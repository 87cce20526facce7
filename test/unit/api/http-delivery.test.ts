// The delivery client (HttpDeliveryClient, ctx.delivery()): POSTs to a URL the
// user chose with no token, no retries, any status as a result, a total
// deadline, the reply capped and discarded, a pool sized by `connections`.
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer as createNetServer } from 'node:net';
import { DeliveryError, deliveryUrl, HttpDeliveryClient, ReplyExcerpt, REPLY_EXCERPT_BYTES } from '../../../src/api/delivery.js';
import { createContext } from '../../../src/context.js';
import { InterruptedError } from '../../../src/errors.js';
import { testIO } from '../../../src/io.js';
import { closedPort, closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server;
let url: string;
let handler: Handler;
let seen: { headers: IncomingMessage['headers']; body: string; socket: Socket }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body, socket: req.socket });
      handler(req, res, body);
    });
  });
  // Its own server (not useLoopbackServer): each request's socket is recorded too.
  url = `${(await listenOnLoopback(server)).url}/hook`;
});
afterAll(() => closeServer(server));
beforeEach(() => {
  seen = [];
  handler = (_q, res) => res.writeHead(204).end();
});

const delivery = (extra: Partial<ConstructorParameters<typeof HttpDeliveryClient>[0]> = {}) => new HttpDeliveryClient({ userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, ...extra });

describe('HttpDeliveryClient', () => {
  it('POSTs the body and headers as given, no authorization (the client has no token to send); the caller may set the user agent', async () => {
    const c = delivery();
    const r = await c.deliver(url, { body: '"a.b.c"', headers: { 'content-type': 'application/json', 'x-partner-event-id': 'd1' } });
    expect(r).toEqual({ status: 204, excerpt: '', headers: expect.any(Object) });
    expect(seen[0]!.body).toBe('"a.b.c"');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers['x-partner-event-id']).toBe('d1');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['user-agent']).toBe('partner-cli/9.9.9');
    await c.deliver(url, { body: 'x', headers: { 'user-agent': 'partner-cli-webhook-listen' } });
    expect(seen[1]!.headers['user-agent']).toBe('partner-cli-webhook-listen');
    await c.close();
  });

  it('any status is a result, not an error, and nothing is retried (one request for a 503)', async () => {
    handler = (_q, res) => res.writeHead(503, { 'retry-after': '0' }).end('busy');
    const c = delivery();
    expect(await c.deliver(url, { body: 'x' })).toEqual({ status: 503, excerpt: 'busy', headers: expect.any(Object) });
    expect(seen).toHaveLength(1);
    await c.close();
  });

  it('keeps only the first bytes of the reply; a modest reply keeps the connection, a huge one drops it', async () => {
    handler = (_q, res) => res.writeHead(200).end('y'.repeat(10_000));
    const c = delivery({ connections: 1 });
    const r = await c.deliver(url, { body: 'x' });
    expect(r.excerpt).toBe('y'.repeat(REPLY_EXCERPT_BYTES));
    await c.deliver(url, { body: 'x' });
    expect(seen[1]!.socket).toBe(seen[0]!.socket);
    handler = (_q, res) => res.writeHead(200).end('z'.repeat(2 * 1024 * 1024));
    expect((await c.deliver(url, { body: 'x' })).status).toBe(200);
    handler = (_q, res) => res.writeHead(200).end();
    await c.deliver(url, { body: 'x' });
    expect(seen[3]!.socket).not.toBe(seen[2]!.socket);
    await c.close();
  });

  it('the deadline is total: a target trickling its reply is cut off (TIMEOUT, "no answer within")', async () => {
    handler = (_q, res) => {
      res.writeHead(200);
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('.')), 50);
      res.on('close', () => clearInterval(t));
    };
    const c = delivery({ timeoutMs: 300 });
    const started = Date.now();
    // With a caller's signal too: the deadline still applies.
    const err = (await c.deliver(url, { body: 'x', signal: new AbortController().signal }).catch((e: unknown) => e)) as DeliveryError;
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.reason).toBe('no answer within 0.3 s');
    // Cut off by the deadline (the trickle alone would never end); the bound leaves room for a busy machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(c.timeoutMs).toBe(300);
    await c.close();
  });

  it('no listener: NETWORK with the system code as the reason', async () => {
    const c = delivery();
    const port = await closedPort();
    const err = (await c.deliver(`http://127.0.0.1:${port}/`, { body: 'x' }).catch((e: unknown) => e)) as DeliveryError;
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err.code).toBe('NETWORK');
    expect(err.reason).toBe('ECONNREFUSED');
    expect(err.message).toBe(`Could not deliver to http://127.0.0.1:${port}/: ECONNREFUSED`);
    expect(err.hint).toMatch(/Is the receiver running/);
    await c.close();
  });

  it('an aborted signal (the caller stopping, or Ctrl-C) is InterruptedError, not a delivery failure', async () => {
    handler = () => undefined; // never answers
    const stop = new AbortController();
    // A deadline far away: the abort, not the deadline, must end the wait.
    const c = delivery({ timeoutMs: 60_000 });
    const p = c.deliver(url, { body: 'x', signal: stop.signal });
    await waitFor(() => seen.length === 1, { what: 'the request' });
    let t = Date.now();
    stop.abort();
    await expect(p).rejects.toBeInstanceOf(InterruptedError);
    expect(Date.now() - t).toBeLessThan(5000);
    const ctrlC = new AbortController();
    const c2 = delivery({ signal: ctrlC.signal, timeoutMs: 60_000 });
    const q = c2.deliver(url, { body: 'x' });
    await waitFor(() => seen.length === 2, { what: 'the second request' });
    t = Date.now();
    ctrlC.abort();
    await expect(q).rejects.toBeInstanceOf(InterruptedError);
    expect(Date.now() - t).toBeLessThan(5000);
    server.closeAllConnections();
    await Promise.all([c.close(), c2.close()]);
  });

  it('many deliveries in flight on one stop signal share one listener on it, and leave none behind', async () => {
    const held: ServerResponse[] = [];
    handler = (_q, res) => held.push(res);
    const stop = new AbortController();
    const c = delivery({ connections: 32, signal: stop.signal });
    const all = Promise.all(Array.from({ length: 20 }, () => c.deliver(url, { body: 'x', signal: stop.signal })));
    await waitFor(() => held.length === 20, { what: 'twenty deliveries in flight' });
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    for (const res of held.splice(0)) res.writeHead(200).end('ok');
    expect((await all).map((r) => [r.status, r.excerpt])).toEqual(Array(20).fill([200, 'ok']));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    await c.close();
  });

  it('a delivery waiting for a connection (the pool full) ends at its deadline or on a stop, not when a connection frees', async () => {
    // Before, its promise waited for a connection: undici hears an abort only once a request has one.
    const held: ServerResponse[] = [];
    handler = (_q, res) => held.push(res);
    const stop = new AbortController();
    const c = delivery({ connections: 1, timeoutMs: 60_000 });
    const first = c.deliver(url, { body: 'x' });
    await waitFor(() => held.length === 1, { what: 'the first delivery, holding the one connection' });
    const short = delivery({ connections: 1, timeoutMs: 300 });
    // The same pool is what matters: a second client of one connection holds its own; fill it too.
    const shortFirst = short.deliver(url, { body: 'x' }).catch((e: unknown) => e);
    await waitFor(() => held.length === 2, { what: "the short client's connection taken" });
    const t = Date.now();
    await expect(short.deliver(url, { body: 'queued-deadline' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const queued = c.deliver(url, { body: 'queued-stop', signal: stop.signal });
    stop.abort();
    await expect(queued).rejects.toBeInstanceOf(InterruptedError);
    expect(Date.now() - t).toBeLessThan(5000);
    for (const res of held.splice(0)) res.writeHead(200).end();
    expect((await first).status).toBe(200);
    await shortFirst;
    await Promise.all([c.close(), short.close()]);
  });

  it('the pool: `connections` deliveries run at once, and no more', async () => {
    const held: ServerResponse[] = [];
    let inFlight = 0;
    let most = 0;
    handler = (_q, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      held.push(res);
      res.on('finish', () => inFlight--);
    };
    const c = delivery({ connections: 4 });
    const all = Promise.all(Array.from({ length: 8 }, () => c.deliver(url, { body: 'x' })));
    // Four arrive together (the pool is not one connection); answering them lets the other four in.
    await waitFor(() => held.length === 4, { what: 'four deliveries at once' });
    for (const res of held.splice(0)) res.writeHead(200).end();
    await waitFor(() => held.length === 4, { what: 'the next four' });
    for (const res of held.splice(0)) res.writeHead(200).end();
    expect((await all).map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(most).toBe(4);
    await c.close();
  });

  it('--debug: one line per delivery, outcome and time, never the query string', async () => {
    const lines: string[] = [];
    const c = delivery({ debug: (l) => lines.push(l) });
    await c.deliver(`${url}?secret=1`, { body: 'x' });
    const port = await closedPort();
    await c.deliver(`http://127.0.0.1:${port}/x`, { body: 'x' }).catch(() => undefined);
    expect(lines[0]).toMatch(new RegExp(`^POST ${url.replace(/[.]/g, '\\.')} -> 204 in \\d+ ms$`));
    expect(lines[1]).toMatch(new RegExp(`^POST http://127\\.0\\.0\\.1:${port}/x failed after \\d+ ms: `));
    expect(lines.join('\n')).not.toContain('secret');
    // The time of the delivery: never negative, never a clock reading.
    for (const l of lines) expect(Number(/ (?:in|after) (\d+) ms/.exec(l)![1]), l).toBeLessThan(60_000);
    await c.close();
  });

  it("the transport's connect limit (a TLS handshake that never completes) is TIMEOUT too, not NETWORK", async () => {
    // (A real server: nock, loaded in a test file, wraps every request's agent, the pool among them.)
    const open = new Set<Socket>();
    const silent = createNetServer((sock) => open.add(sock));
    const { url: silentUrl } = await listenOnLoopback(silent, 'https');
    try {
      const c = delivery({ timeoutMs: 300 });
      const err = (await c.deliver(`${silentUrl}/hook`, { body: 'x' }).catch((x: unknown) => x)) as DeliveryError;
      expect(err).toBeInstanceOf(DeliveryError);
      expect(err.code).toBe('TIMEOUT');
      expect(err.reason).toBe('no answer within 0.3 s');
      await c.close();
    } finally {
      open.forEach((s) => s.destroy());
      await closeServer(silent);
    }
  });
});

describe('deliveryUrl and ReplyExcerpt', () => {
  it('takes any http(s) URL (plain http to a remote app is the user\'s choice), nothing else', () => {
    expect(deliveryUrl('http://app.internal:3000/hooks').host).toBe('app.internal:3000');
    expect(deliveryUrl('https://example.com/x').protocol).toBe('https:');
    expect(() => deliveryUrl('ftp://example.com/')).toThrow(/not an http\(s\) URL/);
  });

  /** Feeds chunks until take() says stop, as the delivery handler does: the text, and how many were read. */
  const read = (reply: ReplyExcerpt, chunks: string[]) => {
    let pulled = 0;
    let stopped = false;
    for (const c of chunks) {
      pulled++;
      if (!reply.take(Buffer.from(c))) {
        stopped = true;
        break;
      }
    }
    return { text: reply.text(), pulled, stopped };
  };

  it('keeps at most the excerpt, across chunks, and stops reading past the discard cap', () => {
    expect(read(new ReplyExcerpt(15, 35), Array(100).fill('abcdefghij'))).toEqual({ text: 'abcdefghijabcde', pulled: 4, stopped: true });
  });

  it('a reply of exactly the discard cap is read to its end, not cut', () => {
    expect(read(new ReplyExcerpt(200, 20), ['0123456789', 'abcdefghij'])).toEqual({ text: '0123456789abcdefghij', pulled: 2, stopped: false });
  });
});

describe('ctx.delivery()', () => {
  it('needs no profile, base URL or token, and takes the deadline and pool size given', async () => {
    const ctx = createContext({ io: testIO(), env: {}, globals: { sandbox: false, debug: false, timeout: 30, color: false, input: false }, signal: new AbortController().signal });
    const c = await ctx.delivery({ timeoutMs: 1234, connections: 2 });
    expect(c.timeoutMs).toBe(1234);
    expect(c).toBeInstanceOf(HttpDeliveryClient);
    expect((await c.deliver(url, { body: 'x' })).status).toBe(204);
    expect(seen[0]!.headers['user-agent']).toMatch(/^partner-cli\//);
    await ctx.cleanup();
  });
});
