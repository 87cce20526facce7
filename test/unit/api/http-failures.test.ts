// How send() classifies a failed attempt, and which failures it retries:
// connection errors (by code) retried for a GET; the transport's connect limit
// is TIMEOUT; an error after the headers (not a timeout) is a cut answer;
// anything else is "Could not reach". Stubbed by nock under the transport
// (every stub used, nothing unmatched); real loopback servers where a test
// needs one.
// Plus what an abort does (InterruptedError, at once, also while waiting
// between attempts) and that no listener is left on a long-lived signal.
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import nock from 'nock';
import { HttpClient, RETRY_ERROR_CODES, type RetryEvent } from '../../../src/api/http.js';
import { CONNECT_TIMEOUT } from '../../../src/api/transport.js';
import { HttpDeliveryClient } from '../../../src/api/delivery.js';
import { InterruptedError, NetworkError } from '../../../src/errors.js';
import { closedPort, closeServer, listenOnLoopback, useLoopbackServer } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';

const API = 'https://api.test';
const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: API, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1, ...extra });

const unmatched: string[] = [];
// (A request to a test's own loopback server passes through, and is told as "no match" too.)
const noMatch = (req: { method?: string; hostname?: string; path?: string }) => void (req.hostname !== '127.0.0.1' && unmatched.push(`${req.method} ${req.hostname}${req.path}`));
beforeEach(() => {
  // Loopback only for the tests' own servers.
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  nock.emitter.on('no match', noMatch);
});
afterEach(() => {
  nock.emitter.off('no match', noMatch);
  nock.cleanAll();
  nock.enableNetConnect();
  expect(unmatched.splice(0)).toEqual([]);
});

/** nock answering GET /v1/x: first with `error`, then (if `then`) 200 {"ok":true}. */
function mock(error: Error, then = false): nock.Scope {
  const scope = nock(API).get('/v1/x').replyWithError(error);
  if (then) scope.get('/v1/x').reply(200, { ok: true }, { 'content-type': 'application/json' });
  return scope;
}

/** An error as Node's system calls make them (a code and the syscall that failed). */
const coded = (code: string, message = `${code} happened`): Error => Object.assign(new Error(message), { code, syscall: 'read' });

async function failed(p: Promise<unknown>): Promise<NetworkError> {
  return p.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e as NetworkError,
  );
}

describe('connection errors before any answer', () => {
  it('a GET is retried on each connection error code of the policy, then answered', async () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENETUNREACH', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'CONNECTION_CLOSED', 'PROXY_CLOSED']) {
      expect(RETRY_ERROR_CODES.has(code)).toBe(true);
      const retries: RetryEvent[] = [];
      const scope = mock(coded(code), true);
      const http = client({ onRetry: (e) => retries.push(e) });
      expect(await http.get('/v1/x'), code).toEqual({ ok: true });
      expect(retries, code).toEqual([{ method: 'GET', path: '/v1/x', attempt: 1, errorCode: code, waitMs: expect.any(Number) }]);
      scope.done();
      await http.close();
    }
  });

  it('an error with another code is not retried: NETWORK, "Could not reach", the code, the base-URL hint', async () => {
    const retries: RetryEvent[] = [];
    const scope = mock(coded('EACCES', 'permission denied by the firewall'), true);
    const http = client({ onRetry: (e) => retries.push(e) });
    const err = await failed(http.get('/v1/x'));
    expect(scope.pendingMocks()).toHaveLength(1); // the 200 was never asked for
    await http.close();
    expect(retries).toEqual([]);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: EACCES');
    expect(err.hint).toBe('Check the base URL, your network and any proxy settings (HTTPS_PROXY, NO_PROXY).');
    expect(err.exitCode).toBe(1);
  });

  it('an error without a code is named by its message', async () => {
    const scope = mock(new Error('boom'));
    const http = client();
    const err = await failed(http.get('/v1/x'));
    scope.done();
    await http.close();
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: boom');
  });

  it('a real refused connection, after the retries: NETWORK (not a cut answer), each retry and the failure on --debug', async () => {
    const lines: string[] = [];
    const retries: RetryEvent[] = [];
    const refused = await closedPort();
    const http = new HttpClient({ baseUrl: `http://127.0.0.1:${refused}`, userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1, maxRetries: 2, debug: (l) => lines.push(l), onRetry: (e) => retries.push(e) });
    const err = await failed(http.get('/v1/x', { page: 2 }));
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe(`Could not reach GET http://127.0.0.1:${refused}/v1/x: ECONNREFUSED`);
    expect(err.hint).toMatch(/^Check the base URL/);
    expect(retries.map((r) => [r.attempt, r.errorCode, r.path])).toEqual([
      [1, 'ECONNREFUSED', '/v1/x?page=2'],
      [2, 'ECONNREFUSED', '/v1/x?page=2'],
    ]);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(`retry 1/2 GET /v1/x?page=2 after ECONNREFUSED, waiting ${retries[0]!.waitMs} ms`);
    expect(lines[3]).toBe(`retry 2/2 GET /v1/x?page=2 after ECONNREFUSED, waiting ${retries[1]!.waitMs} ms`);
    for (const i of [0, 2, 4]) {
      const m = new RegExp(`^GET http://127\\.0\\.0\\.1:${refused}/v1/x\\?page=2 failed after (\\d+) ms: .*ECONNREFUSED`).exec(lines[i]!);
      expect(m, lines[i]).not.toBeNull();
      // Time since the request began: never negative, never a clock reading.
      expect(Number(m![1])).toBeLessThan(60_000);
    }
  });
});

describe("the transport's connect limit", () => {
  it('CONNECT_TIMEOUT before the headers: TIMEOUT "No answer ... within", the --timeout hint, not retried', async () => {
    const scope = mock(coded(CONNECT_TIMEOUT), true);
    const http = client();
    const err = await failed(http.get('/v1/x'));
    expect(scope.pendingMocks()).toHaveLength(1);
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe('No answer from GET https://api.test/v1/x within 2 s');
    expect(err.hint).toBe('Raise the limit with --timeout SECONDS, or check the server and your network.');
  });
});

describe('a connection dropped before any answer, from a real server', () => {
  let raw: NetServer;
  let port: number;
  let requests = 0;
  let how: 'close' | 'reset' = 'close';
  const open = new Set<Socket>();
  beforeAll(async () => {
    raw = createNetServer((s: Socket) => {
      open.add(s);
      s.once('close', () => open.delete(s));
      s.once('data', () => {
        requests++;
        if (how === 'close') s.end();
        else s.resetAndDestroy();
      });
    });
    ({ port } = await listenOnLoopback(raw));
  });
  afterAll(() => {
    open.forEach((s) => s.destroy());
    return closeServer(raw);
  });
  const http = () => new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, maxRetries: 1, backoffBaseMs: 1 });

  it('closed: a GET asked twice, then "closed the connection without answering", not "could not reach" or a code name', async () => {
    how = 'close';
    requests = 0;
    const c = http();
    const err = await failed(c.get('/v1/x'));
    await c.close();
    expect(requests).toBe(2);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe(`The server closed the connection without answering GET http://127.0.0.1:${port}/v1/x (2 attempts)`);
    expect(err.hint).toMatch(/^Try again in a while; if it keeps happening, check that the base URL is the API/);
  });

  it('headers past 16 KiB: said as such, not "not HTTP/1.1", and not retried', async () => {
    const big = createNetServer((s: Socket) => s.once('data', () => s.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(40_000)}\r\ncontent-length: 2\r\n\r\n{}`)));
    const { port: at } = await listenOnLoopback(big);
    const c = new HttpClient({ baseUrl: `http://127.0.0.1:${at}`, userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1 });
    try {
      const err = await failed(c.get('/v1/x'));
      expect(err.message).toBe(`The answer of GET http://127.0.0.1:${at}/v1/x has headers larger than 16 KiB; it was not read`);
      expect(err.hint).toMatch(/^No answer of the API has headers that large/);
    } finally {
      await c.close();
      await closeServer(big);
    }
  });

  it('reset: a POST asked once, said as a reset, and the hint says it may have taken effect', async () => {
    how = 'reset';
    requests = 0;
    const c = http();
    const err = await failed(c.send('POST', '/v1/x', { body: { a: 1 } }));
    await c.close();
    expect(requests).toBe(1);
    expect(err.message).toBe(`The connection was reset before POST http://127.0.0.1:${port}/v1/x was answered`);
    expect(err.hint).toMatch(/^The request was sent: check whether it took effect/);
  });
});

describe('an answer cut off by something other than a reset or a close', () => {
  describe('a malformed chunked body from a real server', () => {
    let raw: NetServer;
    let port: number;
    let requests = 0;
    beforeAll(async () => {
      raw = createNetServer((s: Socket) => {
        s.once('data', () => {
          requests++;
          s.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz\r\n');
        });
      });
      ({ port } = await listenOnLoopback(raw));
    });
    afterAll(() => closeServer(raw));

    it("RESPONSE_CUT naming the parser's error, asked once (not a connection error of the policy)", async () => {
      const http = new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1 });
      const err = await failed(http.get('/v1/x'));
      await http.close();
      expect(requests).toBe(1);
      expect(err.code).toBe('RESPONSE_CUT');
      expect(err.message).toBe(`The server broke the HTTP/1.1 protocol (Invalid character in chunk size) while the answer of GET http://127.0.0.1:${port}/v1/x was being received`);
    });
  });
});

describe('stopping (Ctrl-C, or the caller gave up)', () => {
  let received = 0;
  const server = useLoopbackServer(() => {
    received++;
    // Never answers; closeAllConnections() ends it.
  });

  const whenReceived = (n: number) => waitFor(() => received >= n, { what: `request ${n} received`, timeoutMs: 5000 });

  for (const whose of ['the request', 'the client'] as const) {
    it(`an abort of ${whose}'s signal while waiting for the answer: InterruptedError, not a timeout`, async () => {
      const ctrl = new AbortController();
      const before = received;
      // A deadline well past the abort: only the abort can end this as Interrupted.
      const http = new HttpClient({ baseUrl: server.url, userAgent: 'partner-cli/9.9.9', timeoutMs: 4000, ...(whose === 'the client' ? { signal: ctrl.signal } : {}) });
      const p = http.send('GET', '/v1/x', whose === 'the request' ? { signal: ctrl.signal } : {});
      await whenReceived(before + 1);
      ctrl.abort();
      const err = await failed(p);
      server.server.closeAllConnections();
      await http.close();
      expect(err).toBeInstanceOf(InterruptedError);
      expect(err.code).toBe('INTERRUPTED');
      expect(received).toBe(before + 1);
    });
  }

  it('an abort while waiting out a long Retry-After ends the wait at once: InterruptedError, nothing asked again', async () => {
    nock(API).get('/v1/x').reply(503, 'busy', { 'retry-after': '60' });
    const ctrl = new AbortController();
    const lines: string[] = [];
    // A --timeout long enough for the 60 s asked: the wait is taken, then cut short by the abort.
    const http = client({ signal: ctrl.signal, timeoutMs: 120_000, debug: (l) => lines.push(l), onRetry: () => setTimeout(() => ctrl.abort(), 20) });
    const t0 = Date.now();
    const err = await failed(http.get('/v1/x'));
    const waited = Date.now() - t0;
    await http.close();
    expect(err).toBeInstanceOf(InterruptedError);
    // Not the 60 s the server asked for (a generous bound for a busy machine).
    expect(waited).toBeLessThan(20_000);
    // Nothing else happened: no second attempt, no failed request on --debug.
    expect(lines).toEqual(['retry 1/4 GET /v1/x after 503, waiting 60000 ms']);
  });
});

describe('no listener left on a long-lived signal', () => {
  it('send() and deliver() remove theirs, whether the request succeeded or failed', async () => {
    const ctrlC = new AbortController();
    const caller = new AbortController();
    const scope = nock(API)
      .get('/v1/x')
      .reply(200, { ok: true }, { 'content-type': 'application/json' })
      .get('/v1/x')
      .reply(404, { message: 'nope' }, { 'content-type': 'application/json' })
      .post('/hook')
      .reply(204, '')
      .post('/hook')
      .replyWithError(coded('ECONNRESET'));
    const http = client({ signal: ctrlC.signal, maxRetries: 0 });
    const hooks = new HttpDeliveryClient({ userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, signal: ctrlC.signal });
    expect(await http.send('GET', '/v1/x', { signal: caller.signal })).toMatchObject({ status: 200 });
    await expect(http.send('GET', '/v1/x', { signal: caller.signal })).rejects.toMatchObject({ status: 404 });
    expect((await hooks.deliver(`${API}/hook`, { body: 'x', signal: caller.signal })).status).toBe(204);
    await expect(hooks.deliver(`${API}/hook`, { body: 'x', signal: caller.signal })).rejects.toMatchObject({ code: 'NETWORK' });
    expect(getEventListeners(ctrlC.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await http.close();
    await hooks.close();
    scope.done();
  });
});

describe('an attempt that is never answered', () => {
  // A request that gets no answer (a proxy that swallows CONNECT, a server that never answers): the
  // deadline ends the wait on its own.
  const stuck = () => nock(API).get('/v1/x').delay(60_000).reply(200, { late: true });

  it('is a TIMEOUT at --timeout', async () => {
    stuck();
    const started = Date.now();
    const http = client({ timeoutMs: 150 });
    const err = await http.get('/v1/x').catch((e: unknown) => e);
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('is an InterruptedError at once when Ctrl-C came before the request (nothing is sent)', async () => {
    const scope = stuck();
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await client({ timeoutMs: 60_000 }).send('GET', '/v1/x', { signal: ctrl.signal }).catch((e: unknown) => e)).toBeInstanceOf(InterruptedError);
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('is an InterruptedError at once on Ctrl-C', async () => {
    stuck();
    const ctrl = new AbortController();
    const http = client({ timeoutMs: 60_000 });
    const pending = http.send('GET', '/v1/x', { signal: ctrl.signal }).catch((e: unknown) => e);
    setTimeout(() => ctrl.abort(), 20);
    expect(await pending).toBeInstanceOf(InterruptedError);
    await http.close();
  });
});

describe('a proxy that hangs up on CONNECT (PROXY_CLOSED)', () => {
  it('is retried like a reset connection, then NETWORK with what happened in words, not the code', async () => {
    const closed = coded('PROXY_CLOSED', 'the proxy closed the connection without answering CONNECT');
    const scope = nock(API).get('/v1/x').times(3).replyWithError(closed);
    const err = await failed(client({ maxRetries: 2 }).get('/v1/x'));
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: the proxy closed the connection without answering CONNECT');
    expect(err.hint).toContain('HTTPS_PROXY');
    scope.done();
  });
});

describe('extra request headers (partner api -H)', () => {
  /** nock answering GET /v1/x once, keeping the headers it was sent. */
  function recording() {
    const seen: Record<string, string>[] = [];
    const scope = nock(API)
      .get('/v1/x')
      .reply(200, function () {
        seen.push(this.req.headers as Record<string, string>);
        return { ok: true };
      }, { 'content-type': 'application/json' });
    return { scope, seen };
  }

  it('are sent lower-cased; an Authorization among them never replaces the token', async () => {
    const { scope, seen } = recording();
    await client().send('GET', '/v1/x', { headers: { 'X-Trace': 'abc', AUTHORIZATION: 'Bearer other', authorization: 'Bearer other2' } });
    scope.done();
    expect(seen[0]!['x-trace']).toBe('abc');
    expect(seen[0]!.authorization).toBe('Bearer tok-abcdef');
    expect(Object.keys(seen[0]!).filter((k) => k.toLowerCase() === 'authorization')).toEqual(['authorization']);
  });

  it('a client without a token sends no Authorization at all, even one given as a header', async () => {
    const { scope, seen } = recording();
    await client({ token: undefined }).send('GET', '/v1/x', { headers: { Authorization: 'Bearer smuggled' } });
    scope.done();
    expect(Object.keys(seen[0]!).map((k) => k.toLowerCase())).not.toContain('authorization');
  });
});
