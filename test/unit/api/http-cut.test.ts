// An answer whose body is cut off (the connection reset after the headers
// and part of the body): a GET is asked again from the start under the retry
// policy, never resumed with Range (a server that does not do ranges answers
// 200 to it, and a page that changed in between would be spliced from two
// versions); when every attempt is cut, the error says so.
import { describe, expect, it } from 'vitest';
import { scriptedServer, type Handler } from '../../helpers/scripted-server.js';
import { HttpClient, type RetryEvent } from '../../../src/api/http.js';
import { NetworkError } from '../../../src/errors.js';

const api = scriptedServer();
/** Each request as the server saw it: its method, and the Range header it must never carry. */
const seen = () => api.seen.map((r) => ({ method: r.method, range: r.headers.range }));

const BODY = JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: `id-${i}`, fullName: `Person ${i}` })) });

/** The headers and the first 700 bytes of BODY (content-length or chunked), then the connection reset (RST) or closed (FIN). */
const cut =
  (framing: 'content-length' | 'chunked', how: 'reset' | 'close' = 'reset'): Handler =>
  (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(framing === 'content-length' ? { 'content-length': String(Buffer.byteLength(BODY)) } : {}) });
    res.write(BODY.slice(0, 700), () => setTimeout(() => (how === 'reset' ? req.socket.resetAndDestroy() : req.socket.destroy()), 20));
  };
const whole: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) });
  res.end(BODY);
};
const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: api.url, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 5, ...extra });

describe('a body cut off mid-answer', () => {
  for (const framing of ['content-length', 'chunked'] as const) {
    it(`GET (${framing}): asked again from the start, once, without Range; the whole answer returned`, async () => {
      api.queue.push(cut(framing), whole);
      const retries: RetryEvent[] = [];
      const http = client({ onRetry: (e) => retries.push(e) });
      try {
        expect(await http.get('/v1/employees', { page: 3 })).toEqual(JSON.parse(BODY));
      } finally {
        await http.close();
      }
      expect(seen()).toEqual([{ method: 'GET' }, { method: 'GET' }]);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ method: 'GET', path: '/v1/employees?page=3', attempt: 1, errorCode: 'ECONNRESET' });
      expect(retries[0]!.status).toBeUndefined();
    });
  }

  for (const [how, what] of [
    ['reset', 'The connection was reset'],
    ['close', 'The connection was closed'],
  ] as const) {
    it(`GET cut every time (${how}): after the retry limit, a NetworkError saying the answer was cut off, after how many attempts`, async () => {
      for (let i = 0; i < 3; i++) api.queue.push(cut('content-length', how));
      const http = client({ maxRetries: 2 });
      const err = await http.get('/v1/employees').then(
        (v) => {
          throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
        },
        (e: unknown) => e as NetworkError,
      );
      await http.close();
      expect(seen()).toEqual([{ method: 'GET' }, { method: 'GET' }, { method: 'GET' }]);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.code).toBe('RESPONSE_CUT');
      expect(err.message).toBe(`${what} while the answer of GET ${api.url}/v1/employees was being received (3 attempts)`);
      expect(err.hint).toMatch(/^Try again in a while/);
      expect(err.hint).not.toMatch(/base URL/);
    });
  }

  it('POST cut: not sent again; the error says the request was sent', async () => {
    api.queue.push(cut('chunked'));
    const http = client();
    const err = await http.send('POST', '/v1/employees/gp-employments', { body: { a: 1 } }).then(
      (v) => {
        throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
      },
      (e: unknown) => e as NetworkError,
    );
    await http.close();
    expect(seen()).toEqual([{ method: 'POST' }]);
    expect(err.code).toBe('RESPONSE_CUT');
    expect(err.message).toBe(`The connection was reset while the answer of POST ${api.url}/v1/employees/gp-employments was being received`);
    expect(err.hint).toMatch(/was sent: check whether it took effect/);
  });
});
