// Direct forwarding: a copy never starts a second POST while one is in
// flight, a slow target is answered "not yet" at the deadline but waited for,
// and only a 2xx counts as delivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { abandonAfterMs, delivered, DirectDelivery, Forwarder, payloadDigest, postEvent } from '../../../src/webhooks/forward.js';
import { DeliveryError, type DeliveryClient, type DeliveryInit } from '../../../src/api/delivery.js';
import { InterruptedError } from '../../../src/errors.js';
import { closedPort, closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';

let server: Server;
let url: string;
const hits: { id: string; status: number }[] = [];
let delayMs = 0;
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push({ id: String(req.headers['x-partner-event-id']), status });
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  const serverAt = await listenOnLoopback(server);
  url = `${serverAt.url}/`;
});
afterAll(async () => {
  await closeServer(server);
});

const ev = (n: number) => ({ digest: payloadDigest({ n }), eventType: 'X', kid: 'k', body: JSON.stringify({ n }) });

describe('DirectDelivery', () => {
  it('only 2xx is delivered; a failed event is sent again on retry; a delivered one is not', async () => {
    const d = new DirectDelivery(new Forwarder(url, 5000), 2000, 60_000);
    status = 500;
    expect(await d.deliver(ev(1))).toMatchObject({ status: 500 });
    expect(delivered({ url, status: 500 })).toBe(false);
    status = 204;
    expect(await d.deliver(ev(1))).toMatchObject({ status: 204 });
    expect(await d.deliver(ev(1))).toEqual({ url, duplicate: true });
    expect(hits.filter((h) => h.id === ev(1).digest)).toHaveLength(2);
    status = 200;
  });

  it('a slow target: the sender hears "no answer" at the deadline, copies join the forward in flight, one POST in all', async () => {
    const d = new DirectDelivery(new Forwarder(url, 5000), 200, 60_000);
    delayMs = 600;
    const first = await d.deliver(ev(2));
    expect(first.error).toMatch(/no answer within 0.2 s \(still waiting/);
    expect(delivered(first)).toBe(false);
    const copy = d.deliver(ev(2));
    await new Promise((r) => setTimeout(r, 700));
    delayMs = 0;
    expect((await copy).error).toMatch(/no answer within 0.2 s/);
    expect(await d.deliver(ev(2))).toEqual({ url, duplicate: true });
    expect(hits.filter((h) => h.id === ev(2).digest)).toHaveLength(1);
  });

  it('a copy that joins a forward which then succeeds is told it is a duplicate', async () => {
    const d = new DirectDelivery(new Forwarder(url, 5000), 2000, 60_000);
    delayMs = 100;
    const [a, b] = await Promise.all([d.deliver(ev(3)), d.deliver(ev(3))]);
    delayMs = 0;
    expect(a).toMatchObject({ status: 200 });
    expect(b).toMatchObject({ status: 200, duplicate: true });
    expect(hits.filter((h) => h.id === ev(3).digest)).toHaveLength(1);
  });

  it('abandonAfterMs: at least 60 s, else 6x the forward timeout', () => {
    expect(abandonAfterMs(5000)).toBe(60_000);
    expect(abandonAfterMs(20_000)).toBe(120_000);
  });

  it('a target that is down is an error, not a delivery', async () => {
    const f = new Forwarder(`http://127.0.0.1:${await closedPort()}/`, 1000);
    const r = await f.post(ev(4));
    expect(r.error).toBe('ECONNREFUSED');
    await f.close();
  });
});

/** A delivery client that records calls and answers as told (the forwarder only depends on this interface). */
function fakeClient(answer: (url: string, init: DeliveryInit) => Promise<{ status: number; excerpt: string }>): DeliveryClient & { calls: { url: string; init: DeliveryInit }[]; closed: boolean } {
  const calls: { url: string; init: DeliveryInit }[] = [];
  return {
    calls,
    closed: false,
    timeoutMs: 1000,
    deliver(u, init) {
      calls.push({ url: u, init });
      return answer(u, init);
    },
    async close() {
      this.closed = true;
    },
  };
}

describe('postEvent and Forwarder over a delivery client', () => {
  it('sends the payload with the event headers (visible ASCII only) and maps failures to a reason', async () => {
    const c = fakeClient(async () => ({ status: 202, excerpt: '' }));
    const e = { digest: 'd'.repeat(64), eventType: 'EMPLOYEE_CREATED\u200b', kid: 'k1', body: '{"a":1}' };
    expect(await postEvent(c, 'http://app/x', e)).toEqual({ url: 'http://app/x', status: 202 });
    expect(c.calls[0]!.init.body).toBe('{"a":1}');
    expect(c.calls[0]!.init.headers).toMatchObject({ 'content-type': 'application/json', 'x-partner-event-id': e.digest, 'x-partner-event-type': 'EMPLOYEE_CREATED\\u200b', 'x-partner-webhook-kid': 'k1' });
    const down = fakeClient(async (u) => Promise.reject(new DeliveryError(u, 'ECONNREFUSED', 'NETWORK')));
    expect(await postEvent(down, 'http://app/x', e)).toEqual({ url: 'http://app/x', error: 'ECONNREFUSED' });
    const slow = fakeClient(async (u) => Promise.reject(new DeliveryError(u, 'no answer within 5 s', 'TIMEOUT')));
    expect(await postEvent(slow, 'http://app/x', e)).toEqual({ url: 'http://app/x', error: 'no answer within 5 s' });
    const stopped = fakeClient(async () => Promise.reject(new InterruptedError()));
    expect(await postEvent(stopped, 'http://app/x', e)).toEqual({ url: 'http://app/x', error: 'stopped' });
  });

  it('close() aborts the posts in flight and leaves a borrowed client open (the context closes it)', async () => {
    const c = fakeClient((_u, init) => new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new InterruptedError()), { once: true })));
    const f = new Forwarder('http://app/x', c);
    const p = f.post(ev(5));
    await f.close();
    expect(await p).toEqual({ url: 'http://app/x', error: 'stopped' });
    expect(c.closed).toBe(false);
  });

  it('a caller\'s stop signal (the spool closing) stops a post in flight; any other error is kept as its message', async () => {
    const c = fakeClient((_u, init) => new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new InterruptedError()), { once: true })));
    const f = new Forwarder('http://app/x', c);
    const stop = new AbortController();
    const p = f.post(ev(6), undefined, stop.signal);
    const q = f.post(ev(7), 'http://other/y', stop.signal);
    stop.abort();
    expect(await p).toEqual({ url: 'http://app/x', error: 'stopped' });
    expect(await q).toEqual({ url: 'http://other/y', error: 'stopped' });
    expect(c.calls.map((x) => x.url)).toEqual(['http://app/x', 'http://other/y']);
    const odd = fakeClient(async () => Promise.reject(new Error('something else')));
    expect(await postEvent(odd, 'http://app/x', ev(8))).toEqual({ url: 'http://app/x', error: 'something else' });
  });

  it('header values are cut to 200 characters; missing type and kid are sent empty', async () => {
    const c = fakeClient(async () => ({ status: 200, excerpt: '' }));
    await postEvent(c, 'http://app/x', { digest: 'd', eventType: 'E'.repeat(300), kid: null, body: '{}' });
    await postEvent(c, 'http://app/x', { digest: 'd', eventType: null, kid: 'k'.repeat(250), body: '{}' });
    expect(c.calls[0]!.init.headers).toMatchObject({ 'x-partner-event-type': 'E'.repeat(200), 'x-partner-webhook-kid': '', 'user-agent': 'partner-cli-webhook-listen' });
    expect(c.calls[1]!.init.headers).toMatchObject({ 'x-partner-event-type': '', 'x-partner-webhook-kid': 'k'.repeat(200) });
  });

  it('delivered: a 2xx status or a duplicate, nothing else', () => {
    const cases: [Parameters<typeof delivered>[0], boolean][] = [
      [{ url, status: 199 }, false],
      [{ url, status: 200 }, true],
      [{ url, status: 299 }, true],
      [{ url, status: 300 }, false],
      [{ url, status: 503 }, false],
      [{ url, error: 'ECONNREFUSED' }, false],
      [{ url, duplicate: true }, true],
      [{ url, duplicate: false, status: 500 }, false],
    ];
    for (const [r, want] of cases) expect(delivered(r), JSON.stringify(r)).toBe(want);
  });
});

