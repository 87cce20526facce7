import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeApi {
  url: string;
  /** The `page` of every request, in arrival order. */
  requests: number[];
  close: () => Promise<void>;
}

/**
 * A loopback server (port 0) for GET /v1/employees that answers each request
 * with `answer(page)` as JSON (any value, or a promise of one to answer late:
 * the tests bend pagination and items the way misbehaving servers do), and
 * records which page was asked for.
 */
export async function fakeApi(answer: (page: number) => unknown): Promise<FakeApi> {
  const requests: number[] = [];
  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const page = Number(u.searchParams.get('page') ?? '1');
    requests.push(page);
    const body = JSON.stringify(await answer(page));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
