// Hostile senders for the receiver's bounds tests: connections
// that say nothing, bodies that stall, all on loopback, each one tracked so
// the test closes every socket it opened.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';

export interface RawClient {
  socket: Socket;
  /** Everything the receiver sent back. */
  received: () => string;
  /** Resolves when the receiver (or anything) closed the connection. */
  closed: Promise<void>;
}

/** A TCP connection to the receiver at `url`, optionally sending `first`; resolves once connected (rejects on error). */
export function rawClient(url: string, first?: string | Buffer, all?: RawClient[]): Promise<RawClient> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port) });
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const client: RawClient = { socket, received: () => got, closed };
    all?.push(client);
    socket.once('error', (err) => reject(err));
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined); // a reset by the receiver is what some tests want
      if (first !== undefined) socket.write(first);
      resolve(client);
    });
  });
}

/** Opens `n` connections in batches (a listen backlog is finite), each sending `first` (or nothing). Failed connects are counted, not thrown. */
export async function openMany(url: string, n: number, first: (i: number) => string | Buffer | undefined, all: RawClient[]): Promise<number> {
  let failed = 0;
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) => rawClient(url, first(i + j), all).catch(() => void failed++));
    await Promise.all(batch);
  }
  return failed;
}

/** The request line and headers of a POST to `url` declaring `length` bytes of body. */
export function postHead(url: string, length: number): string {
  const u = new URL(url);
  return `POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/jose\r\nContent-Length: ${length}\r\n\r\n`;
}

/** The HTTP status the receiver answered on a raw connection, or undefined. */
export function statusOf(c: RawClient): number | undefined {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(c.received());
  return m ? Number(m[1]) : undefined;
}

export function destroyAll(all: RawClient[]): void {
  for (const c of all.splice(0)) c.socket.destroy();
}

/** A process's peak resident memory (VmHWM) in bytes, from /proc. */
export function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for pid ${pid}`);
  return Number(m[1]) * 1024;
}
