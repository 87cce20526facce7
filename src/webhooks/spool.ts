// The durable spool of `webhook listen --spool DIR`: an append-only NDJSON
// journal (journal.ndjson) in a 0700 directory. Every verified event is
// appended and fsync'd BEFORE the sender gets its 2xx; a worker then forwards
// the events in arrival order, retrying with exponential backoff until the
// target answers 2xx, and appends a "delivered" record. A restart (even
// after kill -9) reads the journal and resumes every undelivered event.
//
// Records, one JSON object per line:
//   {"t":"event","id","digest","receivedAt","eventType","kid","jws","payload"}
//   {"t":"attempt","id","at","status"|"error"}
//   {"t":"delivered","id","at","status"}
// Appends are group-committed: the records queued while one fdatasync runs
// share the next one, so 50 concurrent senders cost a few syncs, not 50.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, fstatSync, ftruncateSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { CliError, ExitCode } from '../errors.js';
import { takePidLock } from '../pid-lock.js';
import { ensurePrivateDir } from '../config/secure-files.js';
import { untrustedReason } from './trust.js';
import { abandonAfterMs, DedupeWindow, delivered, Forwarder, type ForwardResult } from './forward.js';
import type { EventStore } from './listen.js';
import type { DeliveryClient } from '../api/delivery.js';
import type { Verdict } from './verify.js';

export const JOURNAL = 'journal.ndjson';
const LOCK = 'lock';
/** Copies of an event (same payload digest) within this window are acknowledged but kept once. */
export const SPOOL_DEDUPE_MS = 24 * 60 * 60 * 1000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;

export interface SpooledEvent {
  t: 'event';
  id: string;
  digest: string;
  receivedAt: string;
  eventType: string | null;
  kid: string | null;
  jws: string;
  payload: unknown;
  /** --forward-to when it was received (replay's default target). */
  target: string | null;
}

interface AttemptRecord {
  t: 'attempt' | 'delivered';
  id: string;
  at: string;
  status?: number;
  error?: string;
}

export interface SpoolOptions {
  forwardTo?: string;
  forwardTimeoutMs: number;
  /** The delivery client to forward with (the context's); without it the forwarder makes its own. */
  delivery?: DeliveryClient;
  now?: () => number;
  log?: (m: string) => void;
  debug?: (m: string) => void;
  /** Told about each delivery attempt of the worker. */
  onDelivery?: (e: SpooledEvent, r: ForwardResult) => void;
}

export class SpoolError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { code: 'SPOOL', exitCode: ExitCode.FAILURE, hint });
  }
}

/** Checks (and creates) the spool directory: 0700, ours. */
function prepareDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
  } catch (err) {
    throw new SpoolError(`Cannot use --spool ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'Pass a directory you own (it is created with mode 0700).');
  }
  const why = untrustedReason(dir);
  if (why) throw new SpoolError(`Refusing --spool ${dir}: ${why}`, 'Pass a directory you own that only you can write to.');
}

/** One process per spool: a lock file with our pid; a lock left by a dead process (kill -9) is taken over. */
function takeLock(dir: string): () => void {
  const r = takePidLock(join(dir, LOCK));
  if (r.ok) return r.release;
  if (r.holder !== undefined) throw new SpoolError(`--spool ${dir} is in use by another receiver (pid ${r.holder})`, 'Stop it first, or use another directory.');
  throw new SpoolError(`Cannot lock --spool ${dir}${r.error ? `: ${r.error.code}` : ''}`);
}

/**
 * A record torn by a crash (no final newline) was never acknowledged (the
 * fsync had not returned): cut it, so the next append starts on a clean line.
 */
function cutTornTail(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return;
  }
  try {
    const size = fstatSync(fd).size;
    let end = size;
    const buf = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const nl = buf.subarray(0, n).lastIndexOf(0x0a);
      if (nl !== -1) {
        end = start + nl + 1;
        break;
      }
      end = start;
    }
    if (end !== size) ftruncateSync(fd, end);
  } finally {
    closeSync(fd);
  }
}

/** Reads the journal: every event in arrival order, with its delivery state. Unparseable lines are skipped. */
export async function readJournal(dir: string): Promise<{ events: SpooledEvent[]; deliveredIds: Set<string>; attempts: Map<string, number> }> {
  const events: SpooledEvent[] = [];
  const deliveredIds = new Set<string>();
  const attempts = new Map<string, number>();
  let stream;
  try {
    stream = createReadStream(join(dir, JOURNAL));
    await new Promise<void>((resolve, reject) => {
      stream!.once('open', () => resolve());
      stream!.once('error', reject);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { events, deliveredIds, attempts };
    throw new SpoolError(`Cannot read the spool journal in ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line === '') continue;
    let r: SpooledEvent | AttemptRecord;
    try {
      r = JSON.parse(line) as SpooledEvent | AttemptRecord;
    } catch {
      continue;
    }
    if (r.t === 'event' && typeof r.id === 'string' && typeof r.digest === 'string') events.push(r);
    else if (r.t === 'delivered' && typeof r.id === 'string') deliveredIds.add(r.id);
    else if (r.t === 'attempt' && typeof r.id === 'string') attempts.set(r.id, (attempts.get(r.id) ?? 0) + 1);
  }
  return { events, deliveredIds, attempts };
}

export async function openSpool(dir: string, opts: SpoolOptions): Promise<Spool> {
  prepareDir(dir);
  const unlock = takeLock(dir);
  try {
    const path = join(dir, JOURNAL);
    cutTornTail(path);
    const { events, deliveredIds } = await readJournal(dir);
    const fh = await open(path, 'a', 0o600);
    const spool = new Spool(dir, fh, unlock, opts);
    spool.restore(events, deliveredIds);
    return spool;
  } catch (err) {
    unlock();
    throw err;
  }
}

interface PendingWrite {
  text: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Spool implements EventStore {
  private readonly now: () => number;
  private readonly seen: DedupeWindow;
  /** Digest → the append that stores it: a concurrent copy waits for the same fsync. */
  private readonly storing = new Map<string, Promise<void>>();
  private readonly queue: SpooledEvent[] = [];
  private writes: PendingWrite[] = [];
  private flushing = false;
  private closed = false;
  private readonly forwarder?: Forwarder;
  private wake?: () => void;
  private readonly stop = new AbortController();
  private worker?: Promise<void>;
  private failure?: Error;

  constructor(
    readonly dir: string,
    private readonly fh: FileHandle,
    private readonly unlock: () => void,
    private readonly opts: SpoolOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.seen = new DedupeWindow(SPOOL_DEDUPE_MS, 1_000_000, this.now);
    // The sender already has its 2xx: a slow target is waited for (giving up early would deliver twice).
    if (opts.forwardTo) this.forwarder = new Forwarder(opts.forwardTo, opts.delivery ?? abandonAfterMs(opts.forwardTimeoutMs));
  }

  /** Undelivered events waiting for the worker, oldest first. */
  get backlog(): number {
    return this.queue.length;
  }

  restore(events: SpooledEvent[], deliveredIds: Set<string>): void {
    for (const e of events) {
      const at = Date.parse(e.receivedAt);
      this.seen.add(e.digest, Number.isNaN(at) ? this.now() : at);
      if (!deliveredIds.has(e.id) && this.forwarder) this.queue.push(e);
    }
    if (this.queue.length > 0) this.opts.log?.(`spool ${this.dir}: resuming ${this.queue.length} undelivered event${this.queue.length === 1 ? '' : 's'}`);
    if (this.forwarder) this.worker = this.run();
  }

  async accept(e: { digest: string; jws: string; verdict: Verdict; receivedAt: string }): Promise<'stored' | 'duplicate'> {
    if (this.closed) throw new Error('the spool is closed');
    const pending = this.storing.get(e.digest);
    if (pending) {
      await pending; // throws if that append failed: this copy is not kept either
      return 'duplicate';
    }
    if (this.seen.has(e.digest)) return 'duplicate';
    const record: SpooledEvent = {
      t: 'event',
      id: `${this.now().toString(36)}-${randomBytes(6).toString('hex')}`,
      digest: e.digest,
      receivedAt: e.receivedAt,
      eventType: e.verdict.eventType,
      kid: e.verdict.kid,
      jws: e.jws.trim(),
      payload: e.verdict.payload,
      target: this.opts.forwardTo ?? null,
    };
    const write = this.append(record);
    this.storing.set(e.digest, write);
    try {
      await write;
    } finally {
      this.storing.delete(e.digest);
    }
    this.seen.add(e.digest);
    // Without --forward-to nothing delivers: the journal keeps them for `webhook replay`.
    if (this.forwarder) {
      this.queue.push(record);
      this.wake?.();
    }
    return 'stored';
  }

  /** Appends one record; resolves after the fdatasync that covers it. */
  private append(record: SpooledEvent | AttemptRecord): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.writes.push({ text: `${JSON.stringify(record)}\n`, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.writes.length > 0) {
      const batch = this.writes;
      this.writes = [];
      try {
        await this.fh.write(batch.map((w) => w.text).join(''));
        await this.fh.datasync();
        for (const w of batch) w.resolve();
      } catch (err) {
        // A partial write leaves a torn line: later appends would join it. Stop accepting until a restart cuts it.
        this.failure = new Error(`the spool journal cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        this.opts.log?.(`spool ${this.dir}: ${this.failure.message}; new events are answered 503`);
        for (const w of [...batch, ...this.writes]) w.reject(this.failure);
        this.writes = [];
      }
    }
    this.flushing = false;
  }

  /** The delivery worker: the oldest undelivered event first, retried with backoff until a 2xx. */
  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const next = this.queue[0];
      if (!next) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const r = await this.forwarder!.post({ digest: next.digest, eventType: next.eventType, kid: next.kid, body: JSON.stringify(next.payload) }, undefined, this.stop.signal);
      // Stopped mid-delivery: unless the target took it, it stays undelivered in the journal, resumed at the next start.
      if (this.closed && !delivered(r)) break;
      const at = new Date(this.now()).toISOString();
      this.opts.onDelivery?.(next, r);
      if (delivered(r)) {
        failures = 0;
        this.queue.shift();
        // Not awaited: the next delivery need not wait for this fsync (it joins the next group commit).
        // Should the process die before it is on disk, the event is delivered again after a restart,
        // with the same x-partner-event-id.
        this.append({ t: 'delivered', id: next.id, at, status: r.status }).catch(() => undefined);
        continue;
      }
      failures++;
      this.append({ t: 'attempt', id: next.id, at, ...(r.status !== undefined ? { status: r.status } : { error: r.error }) }).catch(() => undefined);
      const wait = Math.min(BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 16), BACKOFF_MAX_MS);
      this.opts.debug?.(`spool: delivery of ${next.id} failed (${r.status !== undefined ? `HTTP ${r.status}` : r.error}); retrying in ${wait} ms`);
      await delay(wait, undefined, { signal: this.stop.signal }).catch(() => undefined);
    }
  }

  private closing?: Promise<void>;

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.stop.abort();
      this.wake?.();
      await this.worker;
      while (this.flushing || this.writes.length > 0) await delay(5);
      await this.fh.close().catch(() => undefined);
      await this.forwarder?.close();
      this.unlock();
    })();
    return this.closing;
  }
}
