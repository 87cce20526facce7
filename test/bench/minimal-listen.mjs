// A floor for the listen benchmark: the least a receiver can do for each
// event, in one process, with node:http, WebCrypto (as jose verifies, on
// libuv's thread pool) and undici's lowest-level dispatch. Without a spool
// it verifies and answers 200; with one it also does what the spool's
// contract needs and nothing more: the event appended to a journal and
// fdatasync'd (group commit) before its 200, a "start" line written before
// each forward and a "delivered" line after it, 16 forwards in flight to the
// target. No bounds, no metrics, no output, no per-subject order, no
// duplicate check: every one of those costs more, never less. Run by
// test/bench/run.js listen (BENCH_LISTEN_FLOOR=1), side by side with the
// same senders and target as the CLI's receiver, to show how far apart the
// two receivers must be on this machine whatever the CLI does.
// Usage: node minimal-listen.mjs JWKS_FILE [TARGET_URL SPOOL_FILE]
// Prints "Listening for webhooks on URL" to stderr, like the CLI.
import { webcrypto } from 'node:crypto';
import { closeSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';

const [jwksFile, targetUrl, spoolFile] = process.argv.slice(2);
const { Agent } = await import(new URL('../../node_modules/undici/index.js', import.meta.url).href);
const keys = new Map();
for (const jwk of JSON.parse(readFileSync(jwksFile, 'utf8')).keys) {
  keys.set(jwk.kid, await webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-521' }, false, ['verify']));
}

/** The payload text of a valid ES512 JWS, else undefined. */
async function verified(jws) {
  const [h, p, s] = jws.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  const key = header.alg === 'ES512' ? keys.get(header.kid) : undefined;
  if (!key) return undefined;
  const ok = await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-512' }, key, Buffer.from(s, 'base64url'), Buffer.from(`${h}.${p}`));
  if (!ok) return undefined;
  const text = Buffer.from(p, 'base64url').toString('utf8');
  return typeof JSON.parse(text).eventType === 'string' ? text : undefined;
}

// The spool: lines written at once (writeSync), one fdatasync at a time for everything written before it.
const fd = spoolFile ? openSync(spoolFile, 'a') : undefined;
let written = 0;
let synced = 0;
let syncing = false;
const waiters = [];
function append(line) {
  writeSync(fd, line);
  return ++written;
}
function durable(seq) {
  return new Promise((resolve) => {
    waiters.push({ seq, resolve });
    if (!syncing) sync();
  });
}
function sync() {
  syncing = true;
  const covers = written;
  fdatasync(fd, () => {
    synced = covers;
    while (waiters.length > 0 && waiters[0].seq <= synced) waiters.shift().resolve();
    if (waiters.length > 0) sync();
    else syncing = false;
  });
}

// Forwarding: 16 workers, each event POSTed as its payload text.
const target = targetUrl ? new URL(targetUrl) : undefined;
const agent = new Agent({ connections: 64 });
const queue = [];
const idle = [];
let nextId = 0;
function post(e) {
  return new Promise((resolve) => {
    let status = 0;
    agent.dispatch(
      { origin: target.origin, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'x-partner-event-id': e.id }, body: e.text },
      {
        onConnect() {},
        onError: () => resolve(0),
        onHeaders: (s) => ((status = s), true),
        onData: () => true,
        onComplete: () => resolve(status),
      },
    );
  });
}
async function worker() {
  for (;;) {
    const e = queue.shift();
    if (!e) {
      await new Promise((r) => idle.push(r));
      continue;
    }
    append(`{"t":"start","id":"${e.id}"}\n`);
    const status = await post(e);
    if (status >= 200 && status < 300) append(`{"t":"delivered","id":"${e.id}"}\n`);
    else queue.push(e);
  }
}
if (target) for (let i = 0; i < 16; i++) void worker();

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', async () => {
    const jws = Buffer.concat(parts).toString('utf8');
    const text = await verified(jws).catch(() => undefined);
    if (text === undefined) return res.writeHead(401).end();
    if (fd !== undefined) {
      const e = { id: String(nextId++), text };
      await durable(append(`${JSON.stringify({ t: 'event', id: e.id, jws, payload: JSON.parse(text) })}\n`));
      queue.push(e);
      idle.shift()?.();
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`Listening for webhooks on http://127.0.0.1:${server.address().port}/webhooks\n`));
process.on('SIGINT', () => {
  server.close();
  server.closeAllConnections();
  void agent.close();
  if (fd !== undefined) closeSync(fd);
  process.exit(0);
});
