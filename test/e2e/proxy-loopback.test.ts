// loopback never goes through a proxy. With HTTP_PROXY and
// HTTPS_PROXY set (and NO_PROXY saying nothing of loopback), a base URL on
// 127.0.0.1 and the embedded --sandbox are reached directly: the "proxy", a
// loopback server that records every connection, receives nothing (no
// request, no CONNECT, no bearer token).
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let proxy: Server;
let proxyUrl: string;
const received: Buffer[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
  proxy = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('close', () => sockets.delete(socket));
    // A proxy that cannot reach our loopback: it answers 502, as a real one would.
    socket.on('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
    socket.on('error', () => undefined);
  });
  const proxyAt = await listenOnLoopback(proxy);
  proxyUrl = proxyAt.url;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await closeServer(proxy);
  await close?.();
});

const proxied = (extra: Record<string, string> = {}) => ({ ...env, HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, ...extra });

describe('loopback is reached directly, whatever the proxy settings', () => {
  it.each([
    ['a 127.0.0.1 base URL', [] as string[], {}],
    ['a 127.0.0.1 base URL, NO_PROXY naming another host', [] as string[], { NO_PROXY: 'example.com', no_proxy: 'example.com' }],
    ['the embedded --sandbox', ['--sandbox'], {}],
  ])('%s: the command works and the proxy receives nothing', async (_name, pre, extra) => {
    received.length = 0;
    const r = await runMain([...pre, 'employees', 'list', '-o', 'json', '--page-size', '2'], { env: proxied(extra) });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(2);
    expect(Buffer.concat(received).toString('latin1')).toBe('');
  });

  it('a profile check on loopback (auth status) does not send the token to the proxy either', async () => {
    received.length = 0;
    const r = await runMain(['auth', 'status', '-o', 'json'], { env: proxied() });
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.concat(received).toString('latin1')).not.toContain(env.PARTNER_TOKEN!);
    expect(received).toHaveLength(0);
  });
});
