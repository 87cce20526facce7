import { startLoopbackServer } from './loopback-server.js';

export interface FakeApi {
  url: string;
  /** The `page` of every request, in arrival order. */
  requests: number[];
  close: () => Promise<void>;
}

/**
 * A loopback server (test/helpers/loopback-server.ts) for GET /v1/employees
 * that answers each request with `answer(page)` as JSON (any value, or a
 * promise of one to answer late: the tests bend pagination and items the way
 * misbehaving servers do), and records which page was asked for.
 */
export async function fakeApi(answer: (page: number) => unknown): Promise<FakeApi> {
  const requests: number[] = [];
  const server = await startLoopbackServer(async (req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
    requests.push(page);
    const body = JSON.stringify(await answer(page));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return { url: server.url, requests, close: server.close };
}
