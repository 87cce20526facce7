// A proxy that stalls or hangs up on CONNECT must not hold partner past
// --timeout (a tunnel with a timeout of its own, or one opened again for ever
// when the proxy closes the connection without an answer, would keep the
// process alive). Each case: exit 1, one clear error, well before the test's bound.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

type Mode = 'silent' | 'hangup' | 'drop-after-200';
const dir = tempDir();
const servers: Server[] = [];
const sockets = new Set<Socket>();
const connects: Record<Mode, number> = { silent: 0, hangup: 0, 'drop-after-200': 0 };

async function proxy(mode: Mode): Promise<string> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (c: Buffer) => {
      if (c.toString('latin1').startsWith('CONNECT api.example.test:443')) connects[mode]++;
      if (mode === 'hangup') socket.destroy();
      else if (mode === 'drop-after-200') socket.end('HTTP/1.1 200 Connection Established\r\n\r\n', () => socket.destroy());
      // silent: reads the CONNECT and never answers.
    });
  });
  servers.push(server);
  const serverAt = await listenOnLoopback(server);
  return serverAt.url;
}

const urls = {} as Record<Mode, string>;
beforeAll(async () => {
  for (const mode of Object.keys(connects) as Mode[]) urls[mode] = await proxy(mode);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  dir.cleanup();
});

const run = (mode: Mode) =>
  runCli(['--timeout', '2', 'employees', 'list', '-o', 'json'], {
    env: isolatedEnv(dir.path, { HTTPS_PROXY: urls[mode], PARTNER_BASE_URL: 'https://api.example.test', PARTNER_TOKEN: 'tok_proxy_stall_0123456789' }),
    timeoutMs: 20_000,
  });

describe('a proxy that stalls or hangs up on CONNECT', () => {
  it('never answering CONNECT: TIMEOUT at --timeout, exit 1', async () => {
    const r = await run('silent');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('within 2 s') });
    expect(connects.silent).toBe(1);
  });

  it('closing the connection without an answer: retried, then one NETWORK error naming the proxy', async () => {
    const r = await run('hangup');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    const e = JSON.parse(r.stderr).error;
    expect(e.code).toBe('NETWORK');
    expect(e.message).toContain('the proxy closed the connection without answering CONNECT');
    expect(e.hint).toContain('HTTPS_PROXY');
    // The GET is retried (a bounded number of times), never for ever.
    expect(connects.hangup).toBeGreaterThan(1);
    expect(connects.hangup).toBeLessThan(10);
  });

  it('answering 200 and then dropping the tunnel: exit 1, the token never reaches the proxy in clear', async () => {
    const r = await run('drop-after-200');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.code).toBe('NETWORK');
    expect(r.stderr).not.toContain('tok_proxy_stall');
  });
});
