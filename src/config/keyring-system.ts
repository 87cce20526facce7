// The operating system's keyring through @napi-rs/keyring. Each call runs in a
// child process (keyring-child.ts) killed after the time limit: a native call
// that blocks (an unlock prompt nobody answers, a D-Bus peer that never
// replies) cannot be cancelled in-thread, and a thread blocked in it keeps
// the process from exiting (measured: a worker blocked in the D-Bus handshake
// makes process.exit hang).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SEA_CHILD_ARG } from './keyring-child-arg.js';
import { isSingleExecutable } from '../runtime/sea-assets.js';
import { KeyringError, type KeyringBackend, type KeyringProblem, type KeyringReply, type KeyringRequest } from './keyring.js';

/** An unlock prompt left unanswered fails after this long. */
export const KEYRING_TIMEOUT_MS = 10_000;

/** A reply is a token at most (8192 characters) in JSON. */
const MAX_REPLY_BYTES = 64 * 1024;

export interface SystemKeyringOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Ctrl-C: the child is killed. */
  signal?: AbortSignal;
  /** The child's entry (tests); default: keyring-child.js next to this module in the build. */
  childPath?: string;
}

/** The built child entry next to this module (dist/keyring-child.js); undefined when running from the sources. */


export function defaultChildPath(): string | undefined {
  const url = new URL('./keyring-child.js', import.meta.url);
  if (url.protocol !== 'file:') return undefined;
  const path = fileURLToPath(url);
  return existsSync(path) ? path : undefined;
}

/** The OS keyring through @napi-rs/keyring, each call in a child process bounded in time. */
export function systemKeyring(o: SystemKeyringOptions): KeyringBackend {
  const call = (req: KeyringRequest) => callChild(req, o);
  return {
    get: async (service, account) => {
      const v = await call({ op: 'get', service, account });
      if (v !== null && typeof v !== 'string') throw new KeyringError('the keyring answered with something other than a token', 'unavailable', 'helper');
      return v;
    },
    set: async (service, account, secret) => {
      await call({ op: 'set', service, account, secret });
    },
    delete: async (service, account) => (await call({ op: 'delete', service, account })) === true,
  };
}

function callChild(req: KeyringRequest, o: SystemKeyringOptions): Promise<string | boolean | null> {
  // The single-file executable is its own keyring helper (src/sea-entry.ts runs `__keyring-child`).
  const sea = o.childPath === undefined && isSingleExecutable();
  const childPath = sea ? SEA_CHILD_ARG : (o.childPath ?? defaultChildPath());
  if (!childPath) return Promise.reject(new KeyringError('the keyring helper is not built (run `npm run build`)', 'unavailable', 'helper'));
  const timeoutMs = o.timeoutMs ?? KEYRING_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childPath], { env: o.env, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    const out: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | undefined, value?: string | boolean | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value ?? null);
    };
    const timer = setTimeout(() => finish(new KeyringError(`the keyring did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (an unlock prompt nobody answered?)`, 'timeout')), timeoutMs);
    const onAbort = () => finish(o.signal!.reason instanceof Error ? o.signal!.reason : new KeyringError('interrupted', 'unavailable', 'helper'));
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => finish(new KeyringError(`the keyring helper could not start: ${err.message}`, 'unavailable', 'helper')));
    child.stdout!.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REPLY_BYTES) finish(new KeyringError('the keyring helper answered too much', 'unavailable', 'helper'));
      else out.push(c);
    });
    child.on('close', (code, signal) => {
      let reply: KeyringReply;
      try {
        reply = JSON.parse(Buffer.concat(out).toString('utf8')) as KeyringReply;
      } catch {
        return finish(new KeyringError(`the keyring helper stopped without an answer (${signal ?? `exit ${code}`})`, 'unavailable', 'helper'));
      }
      if (reply.ok) return finish(undefined, reply.value);
      const message = oneLine(reply.message);
      // Which problem, from what partner can see (the bus, whether the keyring answered a plain read), never the library's text.
      problemOf(reply.serviceAnswers, o.env).then(
        (problem) => finish(new KeyringError(message, 'unavailable', problem)),
        () => finish(new KeyringError(message, 'unavailable', 'refused')),
      );
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(JSON.stringify(req));
  });
}

/** The library's message on one line, without control characters (it may quote D-Bus text). */
function oneLine(text: string): string {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, 300) || 'the keyring refused';
}


/**
 * What kept the keyring from answering, from what partner can see: the
 * helper's own failure (no `serviceAnswers` in its reply), a keyring that
 * answered a plain read (so it refused this call: locked), and on Linux the
 * D-Bus session bus: not set, set and gone, or there with no Secret Service.
 */
export async function problemOf(serviceAnswers: boolean | undefined, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<KeyringProblem> {
  if (serviceAnswers === undefined) return 'helper';
  if (serviceAnswers) return 'locked';
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return 'refused';
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return 'no-bus';
  return (await busAnswers(address)) === false ? 'bus-gone' : 'no-service';
}

/** BUS_CONNECT_MS: a local socket accepts at once or not at all. */
const BUS_CONNECT_MS = 1000;

/** Whether the first `unix:path=` of a D-Bus address accepts a connection; undefined for other transports. */
export function busAnswers(address: string): Promise<boolean | undefined> {
  const m = /^unix:path=([^,;]+)/.exec(address);
  if (!m) return Promise.resolve(undefined);
  const path = m[1]!.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (up: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(up);
    };
    const timer = setTimeout(() => done(true), BUS_CONNECT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
