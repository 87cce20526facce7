import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/api/http.js';
import { ApiError, NetworkError, ResponseFormatError } from '../../../src/errors.js';

/** For requests that must fail: a success is a test failure of its own. */
const unexpected = (v: unknown): never => {
  throw new Error(`expected the request to fail; it answered ${JSON.stringify(v)}`);
};

// A real loopback server whose next answers each test scripts.
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server;
let url: string;
let queue: Handler[] = [];
let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const h = queue.shift();
      if (!h) {
        res.writeHead(500).end('no handler');
        return;
      }
      h(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  queue = [];
  seen = [];
});

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Handler => (_q, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};
const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: url, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 5, ...extra });

describe('HttpClient', () => {
  it('sends the bearer token, user agent, JSON accept header and query', async () => {
    queue.push(json(200, { ok: true }));
    const http = client();
    expect(await http.get('/v1/employees', { page: 2, status: undefined, employeeCode: 'A B' })).toEqual({ ok: true });
    await http.close();
    expect(seen[0].url).toBe('/v1/employees?page=2&employeeCode=A+B');
    expect(seen[0].headers.authorization).toBe('Bearer tok-abcdef');
    expect(seen[0].headers['user-agent']).toBe('partner-cli/9.9.9');
    expect(seen[0].headers.accept).toBe('application/json');
  });

  it('retries GET on 503 honouring Retry-After, then succeeds', async () => {
    queue.push(json(503, { message: 'busy' }, { 'retry-after': '0' }), json(503, { message: 'busy' }, { 'retry-after': '0' }), json(200, [1]));
    const retries: number[] = [];
    const http = client({ onRetry: (e) => retries.push(e.status!) });
    expect(await http.get('/x')).toEqual([1]);
    await http.close();
    expect(seen).toHaveLength(3);
    expect(retries).toEqual([503, 503]);
  });

  it('gives up after 4 retries and reports the last error body', async () => {
    for (let i = 0; i < 6; i++) queue.push(json(503, { code: 'SERVICE_UNAVAILABLE', message: 'upstream dependency error', correlationId: `c${i}` }, { 'retry-after': '0' }));
    const http = client();
    const err = await http.get('/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.correlationId).toBe('c4');
    expect(seen).toHaveLength(5);
  });

  it('retries 429 and dropped connections', async () => {
    queue.push(json(429, {}, { 'retry-after': '0' }), (req) => req.socket.destroy(), json(200, { ok: 1 }));
    const http = client();
    expect(await http.get('/x')).toEqual({ ok: 1 });
    await http.close();
    expect(seen).toHaveLength(3);
  });

  it('never retries POST or PATCH', async () => {
    queue.push(json(503, { message: 'busy' }, { 'retry-after': '0' }), json(503, { message: 'busy' }, { 'retry-after': '0' }));
    const http = client();
    await expect(http.send('POST', '/v1/employees/gp-employments', { body: { a: 1 } })).rejects.toBeInstanceOf(ApiError);
    await expect(http.send('PATCH', '/v1/employees/x/dynamic-details', { body: { b: 2 } })).rejects.toBeInstanceOf(ApiError);
    await http.close();
    expect(seen.map((s) => s.method)).toEqual(['POST', 'PATCH']);
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0].body)).toEqual({ a: 1 });
  });

  it('does not retry 4xx', async () => {
    queue.push(json(404, { code: 'NOT_FOUND', message: 'resource not found' }));
    const http = client();
    const err = await http.get('/x').then(unexpected, (e: unknown) => e as ApiError);
    await http.close();
    expect(err.status).toBe(404);
    expect(seen).toHaveLength(1);
  });

  it('reports invalid JSON on a 2xx as a format error', async () => {
    queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": ['));
    const http = client();
    await expect(http.get('/x')).rejects.toBeInstanceOf(ResponseFormatError);
    await http.close();
  });

  it('times out with a NetworkError naming --timeout', async () => {
    queue.push(() => undefined); // never answers
    const http = client({ timeoutMs: 200, maxRetries: 0 });
    const err = await http.get('/slow').then(unexpected, (e: unknown) => e as NetworkError);
    await http.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('TIMEOUT');
    expect(err.hint).toMatch(/--timeout/);
  });

  it('logs requests for --debug without the token', async () => {
    queue.push(json(200, {}));
    const lines: string[] = [];
    const http = client({ debug: (l) => lines.push(l) });
    await http.get('/v1/employees');
    await http.close();
    expect(lines.join('\n')).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/employees -> 200 in \d+ ms/);
    expect(lines.join('\n')).not.toContain('tok-abcdef');
  });
});

describe('total deadline and size cap (issue 13, item 4)', () => {
  it('a server trickling one byte every 100 ms is cut off at --timeout, not kept busy', async () => {
    queue.push((_q, res) => {
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
    queue.push((_q, res) => setTimeout(() => res.writeHead(503).end(), 300));
    queue.push((_q, res) => setTimeout(() => json(200, { ok: true })(_q, res, ''), 300));
    const http = client({ timeoutMs: 500, maxRetries: 1 });
    expect(await http.get('/x')).toEqual({ ok: true });
    await http.close();
  });

  it('maxBytes: a body over the cap is refused streaming (declared or not), one at the cap is read', async () => {
    const { ResponseTooLargeError } = await import('../../../src/api/http.js');
    const big = 'x'.repeat(64 * 1024);
    queue.push((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // No Content-Length: chunked, endless unless cut off.
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(big)), 1);
      res.on('close', () => clearInterval(t));
    });
    const http = client({ maxRetries: 0 });
    const err = await http.send('GET', '/huge', { maxBytes: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toMatch(/larger than 1048576 bytes/);
    queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }).end());
    expect(await http.send('GET', '/declared', { maxBytes: 1024 * 1024 }).catch((e) => e)).toBeInstanceOf(ResponseTooLargeError);
    const exact = JSON.stringify({ a: 'y'.repeat(100 - 8) });
    expect(exact.length).toBe(100);
    queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(exact));
    expect((await http.send('GET', '/exact', { maxBytes: 100 })).body).toEqual(JSON.parse(exact));
    queue.push((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`${exact} `));
    expect(await http.send('GET', '/over', { maxBytes: 100 }).catch((e) => e)).toBeInstanceOf(ResponseTooLargeError);
    await http.close();
  });
});
