// How send() classifies a failed attempt, and which failures it retries:
// connection errors (by code) retried for a GET; undici's own timeouts are
// TIMEOUT whether they came before or after the headers; an error after the
// headers (not a timeout) is a cut answer; anything else is "Could not reach".
// Plus what an abort does (InterruptedError, at once, also while waiting
// between attempts) and that no listener is left on a long-lived signal.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dispatcher, MockAgent, errors as undiciErrors } from 'undici';
import { HttpClient, RETRY_ERROR_CODES, type RetryEvent } from '../../../src/api/http.js';
import { HttpDeliveryClient } from '../../../src/api/delivery.js';
import { InterruptedError, NetworkError } from '../../../src/errors.js';

const API = 'https://api.test';
const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: API, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1, ...extra });

/** A MockAgent answering GET /v1/x: first with `error`, then (if `then`) 200 {"ok":true}. */
function mock(error: Error, then = false): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(API);
  pool.intercept({ path: '/v1/x', method: 'GET' }).replyWithError(error);
  if (then) pool.intercept({ path: '/v1/x', method: 'GET' }).reply(200, { ok: true }, { headers: { 'content-type': 'application/json' } });
  return agent;
}

const coded = (code: string, message = `${code} happened`): Error => Object.assign(new Error(message), { code });

async function failed(p: Promise<unknown>): Promise<NetworkError> {
  return p.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e as NetworkError,
  );
}

/**
 * A dispatcher that answers 200 with the first bytes of a JSON body, then
 * fails with `error` (what undici does when the connection breaks or stalls
 * mid-body). Counts the requests it was given.
 */
class MidBody extends Dispatcher {
  calls = 0;
  constructor(private readonly error: Error) {
    super();
  }
  override dispatch(_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.calls++;
    const h = handler as Required<Dispatcher.DispatchHandler>;
    const controller = { abort: () => undefined, pause: () => undefined, resume: () => undefined, aborted: false, paused: false, reason: null } as unknown as Dispatcher.DispatchController;
    setImmediate(() => {
      h.onRequestStart(controller, {});
      h.onResponseStart(controller, 200, { 'content-type': 'application/json' }, 'OK');
      h.onResponseData(controller, Buffer.from('{"data": [1, 2'));
      setImmediate(() => h.onResponseError(controller, this.error));
    });
    return true;
  }
  override async close(): Promise<void> {}
  override async destroy(): Promise<void> {}
}

describe('connection errors before any answer', () => {
  it('a GET is retried on each connection error code of the policy, then answered', async () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(RETRY_ERROR_CODES.has(code)).toBe(true);
      const retries: RetryEvent[] = [];
      const agent = mock(coded(code), true);
      const http = client({ dispatcher: agent, onRetry: (e) => retries.push(e) });
      expect(await http.get('/v1/x'), code).toEqual({ ok: true });
      expect(retries, code).toEqual([{ method: 'GET', path: '/v1/x', attempt: 1, errorCode: code, waitMs: expect.any(Number) }]);
      agent.assertNoPendingInterceptors();
      await http.close();
    }
  });

  it('an error with another code is not retried: NETWORK, "Could not reach", the code, the base-URL hint', async () => {
    const retries: RetryEvent[] = [];
    const agent = mock(coded('EACCES', 'permission denied by the firewall'), true);
    const http = client({ dispatcher: agent, onRetry: (e) => retries.push(e) });
    const err = await failed(http.get('/v1/x'));
    expect(agent.pendingInterceptors()).toHaveLength(1); // the 200 was never asked for
    await http.close();
    expect(retries).toEqual([]);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: EACCES');
    expect(err.hint).toBe('Check the base URL, your network and any proxy settings (HTTPS_PROXY, NO_PROXY).');
    expect(err.exitCode).toBe(1);
  });

  it('an error without a code is named by its message', async () => {
    const http = client({ dispatcher: mock(new Error('boom')) });
    const err = await failed(http.get('/v1/x'));
    await http.close();
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: boom');
  });

  it('a real refused connection, after the retries: NETWORK (not a cut answer), each retry and the failure on --debug', async () => {
    const lines: string[] = [];
    const retries: RetryEvent[] = [];
    const http = new HttpClient({ baseUrl: 'http://127.0.0.1:1', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1, maxRetries: 2, debug: (l) => lines.push(l), onRetry: (e) => retries.push(e) });
    const err = await failed(http.get('/v1/x', { page: 2 }));
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET http://127.0.0.1:1/v1/x: ECONNREFUSED');
    expect(err.hint).toMatch(/^Check the base URL/);
    expect(retries.map((r) => [r.attempt, r.errorCode, r.path])).toEqual([
      [1, 'ECONNREFUSED', '/v1/x?page=2'],
      [2, 'ECONNREFUSED', '/v1/x?page=2'],
    ]);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(`retry 1/2 GET /v1/x?page=2 after ECONNREFUSED, waiting ${retries[0]!.waitMs} ms`);
    expect(lines[3]).toBe(`retry 2/2 GET /v1/x?page=2 after ECONNREFUSED, waiting ${retries[1]!.waitMs} ms`);
    for (const i of [0, 2, 4]) {
      const m = /^GET http:\/\/127\.0\.0\.1:1\/v1\/x\?page=2 failed after (\d+) ms: .*ECONNREFUSED/.exec(lines[i]!);
      expect(m, lines[i]).not.toBeNull();
      // Time since the request began: never negative, never a clock reading.
      expect(Number(m![1])).toBeLessThan(60_000);
    }
  });
});

describe("undici's timeouts", () => {
  for (const make of [() => new undiciErrors.ConnectTimeoutError(), () => new undiciErrors.HeadersTimeoutError(), () => new undiciErrors.BodyTimeoutError()]) {
    const name = make().name;
    it(`${name} before the headers: TIMEOUT "No answer ... within", the --timeout hint, not retried`, async () => {
      const agent = mock(make(), true);
      const http = client({ dispatcher: agent });
      const err = await failed(http.get('/v1/x'));
      expect(agent.pendingInterceptors()).toHaveLength(1);
      await http.close();
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toBe('No answer from GET https://api.test/v1/x within 2 s');
      expect(err.hint).toBe('Raise the limit with --timeout SECONDS, or check the server and your network.');
    });
  }

  it('a body timeout after the headers is TIMEOUT too, not a cut answer', async () => {
    const d = new MidBody(new undiciErrors.BodyTimeoutError());
    const http = client({ dispatcher: d, timeoutMs: 1500 });
    const err = await failed(http.get('/v1/x'));
    await http.close();
    expect(d.calls).toBe(1);
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe('No answer from GET https://api.test/v1/x within 1.5 s');
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
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    port = (raw.address() as AddressInfo).port;
  });
  afterAll(() => {
    open.forEach((s) => s.destroy());
    return new Promise<void>((r) => raw.close(() => r()));
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
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    const at = (big.address() as AddressInfo).port;
    const c = new HttpClient({ baseUrl: `http://127.0.0.1:${at}`, userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1 });
    try {
      const err = await failed(c.get('/v1/x'));
      expect(err.message).toBe(`The answer of GET http://127.0.0.1:${at}/v1/x has headers larger than 16 KiB; it was not read`);
      expect(err.hint).toMatch(/^No answer of the API has headers that large/);
    } finally {
      await c.close();
      await new Promise<void>((r) => big.close(() => r()));
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
  it('an error with another code mid-body: RESPONSE_CUT naming the code, not retried', async () => {
    const d = new MidBody(coded('ERR_STREAM_PREMATURE_CLOSE', 'Premature close'));
    const http = client({ dispatcher: d });
    const err = await failed(http.get('/v1/x'));
    await http.close();
    expect(d.calls).toBe(1);
    expect(err.code).toBe('RESPONSE_CUT');
    expect(err.message).toBe('The connection failed (ERR_STREAM_PREMATURE_CLOSE) while the answer of GET https://api.test/v1/x was being received');
  });

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
      await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
      port = (raw.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => raw.close(() => r())));

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
  let server: Server;
  let url: string;
  let received = 0;
  beforeAll(async () => {
    server = createServer((req) => {
      req.resume();
      received++;
      // Never answers; closeAllConnections() ends it.
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  async function whenReceived(n: number): Promise<void> {
    const end = Date.now() + 5000;
    while (received < n) {
      if (Date.now() > end) throw new Error(`the server did not receive request ${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  for (const whose of ['the request', 'the client'] as const) {
    it(`an abort of ${whose}'s signal while waiting for the answer: InterruptedError, not a timeout`, async () => {
      const ctrl = new AbortController();
      const before = received;
      // A deadline well past the abort: only the abort can end this as Interrupted.
      const http = new HttpClient({ baseUrl: url, userAgent: 'partner-cli/9.9.9', timeoutMs: 4000, ...(whose === 'the client' ? { signal: ctrl.signal } : {}) });
      const p = http.send('GET', '/v1/x', whose === 'the request' ? { signal: ctrl.signal } : {});
      await whenReceived(before + 1);
      ctrl.abort();
      const err = await failed(p);
      server.closeAllConnections();
      await http.close();
      expect(err).toBeInstanceOf(InterruptedError);
      expect(err.code).toBe('INTERRUPTED');
      expect(received).toBe(before + 1);
    });
  }

  it('an abort while waiting out a long Retry-After ends the wait at once: InterruptedError, nothing asked again', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(API).intercept({ path: '/v1/x', method: 'GET' }).reply(503, 'busy', { headers: { 'retry-after': '60' } });
    const ctrl = new AbortController();
    const lines: string[] = [];
    // A --timeout long enough for the 60 s asked: the wait is taken, then cut short by the abort.
    const http = client({ dispatcher: agent, signal: ctrl.signal, timeoutMs: 120_000, debug: (l) => lines.push(l), onRetry: () => setTimeout(() => ctrl.abort(), 20) });
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
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(API);
    pool.intercept({ path: '/v1/x', method: 'GET' }).reply(200, { ok: true }, { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: '/v1/x', method: 'GET' }).reply(404, { message: 'nope' }, { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: '/hook', method: 'POST' }).reply(204, '');
    pool.intercept({ path: '/hook', method: 'POST' }).replyWithError(coded('ECONNRESET'));
    const http = client({ dispatcher: agent, signal: ctrlC.signal, maxRetries: 0 });
    const hooks = new HttpDeliveryClient({ userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, dispatcher: agent, signal: ctrlC.signal });
    expect(await http.send('GET', '/v1/x', { signal: caller.signal })).toMatchObject({ status: 200 });
    await expect(http.send('GET', '/v1/x', { signal: caller.signal })).rejects.toMatchObject({ status: 404 });
    expect((await hooks.deliver(`${API}/hook`, { body: 'x', signal: caller.signal })).status).toBe(204);
    await expect(hooks.deliver(`${API}/hook`, { body: 'x', signal: caller.signal })).rejects.toMatchObject({ code: 'NETWORK' });
    expect(getEventListeners(ctrlC.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await http.close();
  });
});

describe('an attempt that undici never settles', () => {
  // A request waiting for a connection that never comes (a proxy that swallows CONNECT): undici hears
  // the abort only once a request has a connection, so the deadline must end the wait on its own.
  const stuck = () => {
    const late: Dispatcher.DispatchHandler[] = [];
    const dispatcher = {
      dispatch: (_opts: unknown, handler: Dispatcher.DispatchHandler) => late.push(handler),
      close: async () => undefined,
    } as unknown as Dispatcher;
    return { dispatcher, late };
  };

  it('is a TIMEOUT at --timeout, and an answer that comes after all is thrown away', async () => {
    const s = stuck();
    const started = Date.now();
    const err = await client({ dispatcher: s.dispatcher, timeoutMs: 150 }).get('/v1/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
    // The request that gets a connection after all is aborted at once, not left open.
    let aborted = false;
    s.late[0]!.onRequestStart!({ abort: () => (aborted = true) } as unknown as Dispatcher.DispatchController, {});
    expect(aborted).toBe(true);
  });

  it('is an InterruptedError at once when Ctrl-C came before the request', async () => {
    const s = stuck();
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await client({ dispatcher: s.dispatcher, timeoutMs: 60_000 }).send('GET', '/v1/x', { signal: ctrl.signal }).catch((e: unknown) => e)).toBeInstanceOf(InterruptedError);
  });

  it('is an InterruptedError at once on Ctrl-C', async () => {
    const s = stuck();
    const ctrl = new AbortController();
    const pending = client({ dispatcher: s.dispatcher, timeoutMs: 60_000 }).send('GET', '/v1/x', { signal: ctrl.signal }).catch((e: unknown) => e);
    ctrl.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
  });
});

describe('a proxy that hangs up on CONNECT (PROXY_CLOSED)', () => {
  it('is retried like a reset connection, then NETWORK with what happened in words, not the code', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(API);
    const closed = coded('PROXY_CLOSED', 'the proxy closed the connection without answering CONNECT');
    for (let i = 0; i < 3; i++) pool.intercept({ path: '/v1/x', method: 'GET' }).replyWithError(closed);
    const err = await failed(client({ dispatcher: agent, maxRetries: 2 }).get('/v1/x'));
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe('Could not reach GET https://api.test/v1/x: the proxy closed the connection without answering CONNECT');
    expect(err.hint).toContain('HTTPS_PROXY');
    agent.assertNoPendingInterceptors();
  });
});

describe('extra request headers (partner api -H)', () => {
  /** A MockAgent answering GET /v1/x once, keeping the headers it was sent. */
  function recording() {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: Record<string, string>[] = [];
    agent
      .get(API)
      .intercept({ path: '/v1/x', method: 'GET' })
      .reply(200, (o) => {
        seen.push(o.headers as Record<string, string>);
        return { ok: true };
      }, { headers: { 'content-type': 'application/json' } });
    return { agent, seen };
  }

  it('are sent lower-cased; an Authorization among them never replaces the token', async () => {
    const { agent, seen } = recording();
    await client({ dispatcher: agent }).send('GET', '/v1/x', { headers: { 'X-Trace': 'abc', AUTHORIZATION: 'Bearer other', authorization: 'Bearer other2' } });
    expect(seen[0]!['x-trace']).toBe('abc');
    expect(seen[0]!.authorization).toBe('Bearer tok-abcdef');
    expect(Object.keys(seen[0]!).filter((k) => k.toLowerCase() === 'authorization')).toEqual(['authorization']);
  });

  it('a client without a token sends no Authorization at all, even one given as a header', async () => {
    const { agent, seen } = recording();
    await client({ dispatcher: agent, token: undefined }).send('GET', '/v1/x', { headers: { Authorization: 'Bearer smuggled' } });
    expect(Object.keys(seen[0]!).map((k) => k.toLowerCase())).not.toContain('authorization');
  });
});
