import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { scriptedServer, type Handler } from '../../helpers/scripted-server.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { HttpClient, ResponseTooLargeError, type RetryEvent } from '../../../src/api/http.js';
import { ApiError, NetworkError, ResponseFormatError, UsageError } from '../../../src/errors.js';

/** For requests that must fail: a success is a test failure of its own. */
const unexpected = (v: unknown): never => {
  throw new Error(`expected the request to fail; it answered ${JSON.stringify(v)}`);
};

// A real loopback server whose next answers each test scripts.
const api = scriptedServer();

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Handler => (_q, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};
const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: api.url, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 5, ...extra });

describe('HttpClient', () => {
  it('sends the bearer token, user agent, JSON accept header and query', async () => {
    api.queue.push(json(200, { ok: true }));
    const http = client();
    expect(await http.get('/v1/employees', { page: 2, status: undefined, employeeCode: 'A B' })).toEqual({ ok: true });
    await http.close();
    expect(api.seen[0].url).toBe('/v1/employees?page=2&employeeCode=A+B');
    expect(api.seen[0].headers.authorization).toBe('Bearer tok-abcdef');
    expect(api.seen[0].headers['user-agent']).toBe('partner-cli/9.9.9');
    expect(api.seen[0].headers.accept).toBe('application/json');
  });

  it('retries GET on 503 honouring Retry-After, then succeeds', async () => {
    api.queue.push(json(503, { message: 'busy' }, { 'retry-after': '0' }), json(503, { message: 'busy' }, { 'retry-after': '0' }), json(200, [1]));
    const retries: number[] = [];
    const http = client({ onRetry: (e) => retries.push(e.status!) });
    expect(await http.get('/x')).toEqual([1]);
    await http.close();
    expect(api.seen).toHaveLength(3);
    expect(retries).toEqual([503, 503]);
  });

  it('gives up after 4 retries and reports the last error body', async () => {
    for (let i = 0; i < 6; i++) api.queue.push(json(503, { code: 'SERVICE_UNAVAILABLE', message: 'upstream dependency error', correlationId: `c${i}` }, { 'retry-after': '0' }));
    const http = client();
    const err = await http.get('/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.correlationId).toBe('c4');
    expect(api.seen).toHaveLength(5);
  });

  it('retries 429 and dropped connections', async () => {
    api.queue.push(json(429, {}, { 'retry-after': '0' }), (req) => req.socket.destroy(), json(200, { ok: 1 }));
    const http = client();
    expect(await http.get('/x')).toEqual({ ok: 1 });
    await http.close();
    expect(api.seen).toHaveLength(3);
  });

  it('never retries POST or PATCH', async () => {
    api.queue.push(json(503, { message: 'busy' }, { 'retry-after': '0' }), json(503, { message: 'busy' }, { 'retry-after': '0' }));
    const http = client();
    await expect(http.send('POST', '/v1/employees/gp-employments', { body: { a: 1 } })).rejects.toBeInstanceOf(ApiError);
    await expect(http.send('PATCH', '/v1/employees/x/dynamic-details', { body: { b: 2 } })).rejects.toBeInstanceOf(ApiError);
    await http.close();
    expect(api.seen.map((s) => s.method)).toEqual(['POST', 'PATCH']);
    expect(api.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(api.seen[0].body)).toEqual({ a: 1 });
  });

  it('does not retry 4xx', async () => {
    api.queue.push(json(404, { code: 'NOT_FOUND', message: 'resource not found' }));
    const http = client();
    const err = await http.get('/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err.status).toBe(404);
    expect(api.seen).toHaveLength(1);
  });

  it('reports invalid JSON on a 2xx as a format error', async () => {
    api.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": ['));
    const http = client();
    await expect(http.get('/x')).rejects.toBeInstanceOf(ResponseFormatError);
    await http.close();
  });

  it('times out with a NetworkError naming --timeout', async () => {
    api.queue.push(() => undefined); // never answers
    const http = client({ timeoutMs: 200, maxRetries: 0 });
    const err = await http.get('/slow').then(unexpected, (e: unknown) => e as NetworkError);
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.hint).toMatch(/--timeout/);
  });

  it('logs requests for --debug without the token', async () => {
    api.queue.push(json(200, {}));
    const lines: string[] = [];
    const http = client({ debug: (l) => lines.push(l) });
    await http.get('/v1/employees');
    await http.close();
    expect(lines.join('\n')).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/employees -> 200 in \d+ ms/);
    expect(lines.join('\n')).not.toContain('tok-abcdef');
  });
});

describe('total deadline and size cap', () => {
  it('a server trickling one byte every 100 ms is cut off at --timeout, not kept busy', async () => {
    api.queue.push((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        res.write(' ');
      }, 100);
      res.on('close', () => clearInterval(t));
    });
    const http = client({ timeoutMs: 700, maxRetries: 0 });
    const t0 = Date.now();
    const err = await http.get('/trickle').then(unexpected, (e: unknown) => e as NetworkError);
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/No complete answer from GET .*\/trickle within 0.7 s/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('the deadline is per attempt: a retry after a 503 gets its own full time', async () => {
    api.queue.push((_q, res) => setTimeout(() => res.writeHead(503).end(), 300));
    api.queue.push((_q, res) => setTimeout(() => json(200, { ok: true })(_q, res, ''), 300));
    const http = client({ timeoutMs: 500, maxRetries: 1 });
    expect(await http.get('/x')).toEqual({ ok: true });
    await http.close();
  });

  it('maxBytes: a body over the cap is refused streaming (declared or not), one at the cap is read', async () => {
    const { ResponseTooLargeError } = await import('../../../src/api/http.js');
    const big = 'x'.repeat(64 * 1024);
    api.queue.push((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // No Content-Length: chunked, endless unless cut off.
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(big)), 1);
      res.on('close', () => clearInterval(t));
    });
    const http = client({ maxRetries: 0 });
    const err = await http.send('GET', '/huge', { maxBytes: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toMatch(/larger than 1048576 bytes/);
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
    expect(err.hint).toMatch(/^No answer of the API is that large: check the base URL/);
    api.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }).end());
    expect(await http.send('GET', '/declared', { maxBytes: 1024 * 1024 }).catch((e) => e)).toBeInstanceOf(ResponseTooLargeError);
    const exact = JSON.stringify({ a: 'y'.repeat(100 - 8) });
    expect(exact.length).toBe(100);
    api.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(exact));
    expect((await http.send('GET', '/exact', { maxBytes: 100 })).body).toEqual(JSON.parse(exact));
    api.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`${exact} `));
    expect(await http.send('GET', '/over', { maxBytes: 100 }).catch((e) => e)).toBeInstanceOf(ResponseTooLargeError);
    await http.close();
  });
});

describe('the request as sent', () => {
  it('leaves out query values that are null or empty, as well as undefined ones', async () => {
    api.queue.push(json(200, {}));
    const http = client();
    await http.get('/v1/employees', { a: null, b: '', c: 0, d: false, e: 'x' });
    await http.close();
    expect(api.seen[0].url).toBe('/v1/employees?c=0&d=false&e=x');
  });

  it('no token: no Authorization header; a GET without a body: no Content-Type', async () => {
    api.queue.push(json(200, {}));
    const http = client({ token: undefined });
    await http.get('/v1/x');
    await http.close();
    expect(api.seen[0].headers.authorization).toBeUndefined();
    expect(api.seen[0].headers['content-type']).toBeUndefined();
    expect(api.seen[0].body).toBe('');
  });

  it('a base URL with a path (and a trailing slash) prefixes every API path once', async () => {
    api.queue.push(json(200, {}));
    const http = client({ baseUrl: `${api.url}/gw/partner/` });
    await http.get('/v1/employees');
    await http.close();
    expect(api.seen[0].url).toBe('/gw/partner/v1/employees');
  });

  it('an API client with an empty base URL is refused', () => {
    const make = () => new HttpClient({ baseUrl: '', userAgent: 'partner-cli/9.9.9', timeoutMs: 1000 });
    expect(make).toThrow(UsageError);
    expect(make).toThrow('Base URL "" is not a valid URL');
  });
});

describe('the retry policy, as the server sees it', () => {
  it('HEAD is retried like GET', async () => {
    api.queue.push(json(503, {}, { 'retry-after': '0' }), (_q, res) => res.writeHead(200).end());
    const http = client();
    const r = await http.send('HEAD', '/v1/x');
    await http.close();
    expect(r.status).toBe(200);
    expect(api.seen.map((s) => s.method)).toEqual(['HEAD', 'HEAD']);
  });

  it('waits as long as Retry-After says (1 s), and tells onRetry and --debug so', async () => {
    const at: number[] = [];
    const stamp = (h: Handler): Handler => (q, res, b) => {
      at.push(Date.now());
      h(q, res, b);
    };
    api.queue.push(stamp(json(429, {}, { 'retry-after': '1' })), stamp(json(200, { ok: true })));
    const retries: RetryEvent[] = [];
    const lines: string[] = [];
    const http = client({ onRetry: (e) => retries.push(e), debug: (l) => lines.push(l), maxRetries: 3 });
    expect(await http.get('/v1/x', { page: 1 })).toEqual({ ok: true });
    await http.close();
    expect(retries).toEqual([{ method: 'GET', path: '/v1/x?page=1', attempt: 1, status: 429, waitMs: 1000 }]);
    // The second request came after the wait (a little slack for timer granularity).
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(lines[0]).toBe('retry 1/3 GET /v1/x?page=1 after 429, waiting 1000 ms');
    const m = /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/x\?page=1 -> 200 in (\d+) ms$/.exec(lines[1]!);
    expect(m, lines[1]).not.toBeNull();
    // The whole request, waits included: at least the second, never a clock reading.
    expect(Number(m![1])).toBeGreaterThanOrEqual(950);
    expect(Number(m![1])).toBeLessThan(60_000);
  });

  it('without Retry-After, waits a full-jitter backoff of the base given: at most base * 2^(attempt-1), at least a tenth', async () => {
    api.queue.push(json(503, {}), json(502, {}), json(200, { ok: true }));
    const retries: RetryEvent[] = [];
    const http = client({ backoffBaseMs: 40, onRetry: (e) => retries.push(e) });
    expect(await http.get('/v1/x')).toEqual({ ok: true });
    await http.close();
    expect(retries.map((r) => r.status)).toEqual([503, 502]);
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(4);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(40);
    expect(retries[1]!.waitMs).toBeGreaterThanOrEqual(8);
    expect(retries[1]!.waitMs).toBeLessThanOrEqual(80);
  });

  it('the default backoff base is 250 ms', async () => {
    api.queue.push(json(503, {}), json(200, { ok: true }));
    const retries: RetryEvent[] = [];
    const http = client({ backoffBaseMs: undefined, onRetry: (e) => retries.push(e) });
    expect(await http.get('/v1/x')).toEqual({ ok: true });
    await http.close();
    expect(retries).toHaveLength(1);
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(25);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(250);
  });
});

describe('answers that are not a JSON 2xx', () => {
  it('a redirect is not followed: an ApiError saying where it points, the token masked', async () => {
    api.queue.push((_q, res) => res.writeHead(302, { location: `${api.url}/moved/v1/employees?access_token=tok-abcdef` }).end());
    const http = client();
    const err = await http.get('/v1/employees').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(api.seen).toHaveLength(1);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(302);
    expect(err.message).toMatch(/^The server answered HTTP 302, a redirect to http:\/\/127\.0\.0\.1:\d+\/moved\/v1\/employees\?access_token=\S+; partner does not follow redirects$/);
    expect(err.message).not.toContain('tok-abcdef');
    expect(err.hint).toContain(`--base-url ${api.url}/moved `);
  });

  it('300 is a redirect too; one without a Location says so', async () => {
    api.queue.push((_q, res) => res.writeHead(300, { location: '/elsewhere' }).end(), (_q, res) => res.writeHead(301).end());
    const http = client();
    const a = await http.get('/v1/x').then(unexpected, (e: unknown) => e as ApiError);
    const b = await http.get('/v1/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(a.message).toBe(`The server answered HTTP 300, a redirect to ${api.url}/elsewhere; partner does not follow redirects`);
    expect(b.message).toBe('The server answered HTTP 301, a redirect without a Location; partner does not follow redirects');
    expect(b.hint).toMatch(/^The base URL is probably wrong/);
  });

  it('a 400 is an API error from its body, not a redirect', async () => {
    api.queue.push(json(400, { code: 'VALIDATION', message: 'page must be positive' }, { location: '/nowhere' }));
    const http = client();
    const err = await http.get('/v1/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err.status).toBe(400);
    expect(err.apiCode).toBe('VALIDATION');
    expect(err.message).not.toMatch(/redirect/);
    expect(err.message).toContain('page must be positive');
  });

  it('a 2xx with an empty or blank body: no body, the status and headers kept', async () => {
    api.queue.push((_q, res) => res.writeHead(204, { 'x-request-id': 'r1' }).end(), (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(' \n '));
    const http = client();
    const a = await http.send('DELETE', '/v1/x/1');
    const b = await http.send('GET', '/v1/x');
    await http.close();
    expect(a).toMatchObject({ status: 204, body: undefined });
    expect(a.headers['x-request-id']).toBe('r1');
    expect(b).toMatchObject({ status: 200, body: undefined });
  });

  it('a body over maxBytes: RESPONSE_TOO_LARGE naming the request', async () => {
    api.queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2,3,4,5,6,7,8,9]'));
    const http = client();
    const err = await http.send('GET', '/v1/keys', { maxBytes: 8, query: { page: 1 } }).then(unexpected, (e: unknown) => e as ResponseTooLargeError);
    await http.close();
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(`The response of GET ${api.url}/v1/keys is larger than 8 bytes; it was not read further`);
    expect(api.seen).toHaveLength(1);
  });
});

describe('close()', () => {
  it('ends the keep-alive connections (nothing keeps the process alive)', async () => {
    const sockets: import('node:net').Socket[] = [];
    const own = createServer((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    own.keepAliveTimeout = 60_000; // the server would keep the connection: only the client can end it
    own.on('connection', (s) => sockets.push(s));
    // Its own server (not useLoopbackServer): this one keeps idle connections and counts them.
    const { url } = await listenOnLoopback(own);
    try {
      const http = client({ baseUrl: url });
      await http.get('/v1/x');
      expect(sockets).toHaveLength(1);
      expect(sockets[0]!.destroyed).toBe(false);
      await http.close();
      // At most 5 s, then the assertion below says it was not.
      await waitFor(() => sockets[0]!.destroyed, { what: 'the connection ended', timeoutMs: 5000, intervalMs: 10 }).catch(() => undefined);
      expect(sockets[0]!.destroyed).toBe(true);
    } finally {
      await closeServer(own);
    }
  });
});

describe('--timeout bounds the waiting between attempts', () => {
  it.each([
    ['delta-seconds', '1000000000', /come back in 1000000000 s \(at 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/],
    ['an HTTP date in 2999', 'Fri, 01 Jan 2999 00:00:00 GMT', /come back in \d+ s \(at 2999-01-01T00:00:00Z\)/],
    ['a number past any date', '1' + '0'.repeat(30), /come back in \d+ s,/],
  ])('a 429 whose Retry-After (%s) is past --timeout fails at once, saying when the server asked to come back', async (_name, retryAfter, when) => {
    api.queue.push(json(429, { code: 'RATE_LIMITED', message: 'Too many requests', correlationId: 'c-429' }, { 'retry-after': retryAfter }));
    const retries: RetryEvent[] = [];
    const http = client({ timeoutMs: 5000, onRetry: (e) => retries.push(e) });
    const err = await http.get('/v1/employees').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(429);
    expect(err.apiCode).toBe('RATE_LIMITED');
    expect(err.correlationId).toBe('c-429');
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/^Too many requests; the server asked to come back in /);
    expect(err.message).toMatch(when);
    expect(err.message).toMatch(/later than --timeout 5 s allows$/);
    expect(err.hint).toMatch(/--timeout/);
    // Not waited for, not asked again.
    expect(retries).toEqual([]);
    expect(api.seen).toHaveLength(1);
  });

  it('a Retry-After within what is left of --timeout is waited for, and the request asked again', async () => {
    api.queue.push(json(503, { message: 'busy' }, { 'retry-after': '0.2' }), json(200, { ok: 1 }));
    const retries: RetryEvent[] = [];
    const http = client({ timeoutMs: 5000, onRetry: (e) => retries.push(e) });
    expect(await http.get('/v1/x')).toEqual({ ok: 1 });
    await http.close();
    expect(retries.map((r) => r.waitMs)).toEqual([200]);
  });

  it('a backoff is never longer than what is left of --timeout; with nothing left, the last answer stands', async () => {
    // A server answering 503 at once, with a base backoff (10 s) far past --timeout (1 s): each wait is
    // cut to what is left, and once nothing is left the 503 is the answer.
    for (let i = 0; i < 5; i++) api.queue.push(json(503, { message: 'busy' }));
    const retries: RetryEvent[] = [];
    const http = client({ timeoutMs: 1000, backoffBaseMs: 10_000, onRetry: (e) => retries.push(e) });
    const err = await http.get('/v1/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.message).toBe('busy');
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.reduce((sum, r) => sum + r.waitMs, 0)).toBeLessThanOrEqual(1000);
    expect(api.seen.length).toBe(retries.length + 1);
  });
});
