// The durable spool of `webhook listen --spool DIR`: an append-only NDJSON
// journal (journal.ndjson, see journal.ts) in a 0700 directory. Every verified
// event is appended and fsync'd BEFORE the sender gets its 2xx; workers then
// forward the events, several at once (--forward-concurrency), retrying with
// exponential backoff until the target answers 2xx. A restart (even after
// kill -9) reads the journal and resumes every undelivered event.
//
// Order: events about one subject (an employee, a contract, an approval
// request) are forwarded one at a time in arrival order, a failed one retried
// before the next of its subject (delivery-queue.ts); events about different
// subjects are forwarded side by side, in no promised order.
//
// At-least-once, as close to exactly-once as it gets: before each forward a
// "start" record is written, and the moment the target's 2xx arrives a
// "delivered" record is, before that worker does anything else. Written means
// in the kernel, which a killed process cannot lose; the fsync of these
// records joins the next group commit. So after kill -9 only the forwards in
// flight (at most --forward-concurrency) can be sent again — with the same
// x-partner-event-id, and x-partner-redelivery: 1 because a "start" is their
// last record. (A power loss can also undo the records of the last few
// milliseconds: those events go out again, same id.)
//
// Dead letters are for refusals, not outages: with --max-attempts N, an
// event the target refused N times (4xx but 408/429, or a 5xx named in
// --park-on), or at once when its reply carries `webhook-delivery: abort`,
// is parked: a "parked" record is written, it stays in the journal, and the
// next event of its subject may go. `webhook replay --failed` sends parked
// events again. A refusal backs off that event alone; a target that cannot
// be reached (no answer, 408, 429, 502-504, other 5xx) pauses every worker
// (it is down for everyone) and is retried for as long as the spool holds,
// never parked (target-health.ts).
//
// The journal is compacted (journal-compact.ts) at start-up and, while
// running, when nothing is in flight or waiting and enough was appended since
// the last time; appends wait for it.
import { fstatSync, openSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { takePidLock } from '../pid-lock.js';
import { ensurePrivateDir } from '../config/secure-files.js';
import { untrustedReason } from './trust.js';
import { abandonAfterMs, DedupeWindow, delivered, Forwarder, forwardBody, type ForwardResult } from './forward.js';
import { compactJournal, discardCompaction, shouldCompact, type CompactionPolicy } from './journal-compact.js';
import { cutTornTail, eventLine, JOURNAL, readJournal, SpoolError, type DeliveryRecord, type SpooledEvent } from './journal.js';
import { EventIds } from './event-ids.js';
import { JournalWriter, type JournalIo } from './journal-writer.js';
import { MIN_FREE_BYTES } from './spool-health.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DEFAULT_FORWARD_CONCURRENCY, MAX_FORWARD_CONCURRENCY } from './forward-limits.js';
import { asideNotice, readAside } from './journal-aside.js';
import { failureKind, outageReason, type TargetHealth } from './target-health.js';
import type { StoredCheck } from './stored-verify.js';
import { deliveredSince } from './journal-tail.js';
import type { EventStore, StoredEvent } from './receiver-types.js';
import type { DeliveryClient } from '../api/delivery.js';
import { countOf } from '../text/count.js';
import { stringifyExact } from '../json/stringify-exact.js';

export { JOURNAL, readJournal, SpoolError, type SpooledEvent } from './journal.js';

const LOCK = 'lock';
/** Copies of an event (same payload digest) within this window are acknowledged but kept once. */
export const SPOOL_DEDUPE_MS = 24 * 60 * 60 * 1000;
/** Delivered events stay in the journal (for `webhook replay`) at least this long. */
export const SPOOL_RETAIN_MS = 7 * 24 * 60 * 60 * 1000;
/** A sender's answer waits for deliveries at most this long (well within the 10 s after which senders give up). */
const KEEP_UP_WAIT_MS = 2000;
/** Undelivered events in memory before senders are slowed to the delivery rate (at least 8 per forward in flight). */
const KEEP_UP_MIN_BACKLOG = 128;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** A target that cannot be reached is tried again at least this often (so a restarted app gets its events within seconds). */
const OUTAGE_BACKOFF_MAX_MS = 10_000;
/** An event read back from the journal that cannot be verified now (the key set unreachable) is tried again after this long. */
const VERIFY_RETRY_MS = 5000;
/** How often a journal that failed is tried again. */
const HEAL_EVERY_MS = 1000;
/** How often a receiver with parked events looks for those `webhook replay --failed` delivered. */
const UNPARK_SCAN_MS = 2000;

/** What became of one forward of the delivery workers. */
export interface DeliveryAttempt {
  event: SpooledEvent;
  result: ForwardResult;
  /** Whether it went out as a redelivery (sent before: a failed forward, or one a crash interrupted). */
  redelivery: boolean;
  /** Not delivered: the workers pause this long before the next forward (its subject's events wait for it). */
  retryInMs?: number;
  /** Not delivered and parked (a dead letter): why. */
  parked?: ParkReason;
  /** Not delivered because the target cannot be reached: it waits (never parked); TargetHealth tells this once, not per attempt. */
  waiting?: boolean;
}

export type ParkReason = 'max-attempts' | 'target-abort' | 'unverified';

export interface SpoolOptions {
  forwardTo?: string;
  forwardTimeoutMs: number;
  /** The delivery client to forward with (the context's); without it the forwarder makes its own. */
  delivery?: DeliveryClient;
  now?: () => number;
  log?: (m: string) => void;
  debug?: (m: string) => void;
  /** Told about each delivery attempt of the workers. */
  onDelivery?: (a: DeliveryAttempt) => void;
  /** Forwards in flight at most (default DEFAULT_FORWARD_CONCURRENCY). */
  forwardConcurrency?: number;
  /** How long delivered events are kept (default SPOOL_RETAIN_MS, never under the dedupe window). */
  retainMs?: number;
  /** Compact while running once this many bytes were appended since the last compaction (default 64 MiB). */
  compactAfterBytes?: number;
  /** Park an event after the target refused it this many times (default: retry for ever); an unreachable target never counts. */
  maxAttempts?: number;
  /** 5xx statuses that refuse an event (count towards maxAttempts); other 5xx mean the target is down (--park-on). */
  parkOn?: ReadonlySet<number>;
  /** Told whether each forward found the target reachable (/healthz, /metrics, the listener's line). */
  target?: TargetHealth;
  /** The journal's writes and syncs (default node:fs; tests fail them like a full disk). */
  journalIo?: JournalIo;
  /** Verifies an event read back from the journal before it is forwarded (stored-verify.ts); events received in this run were verified on arrival. */
  verify?: (e: SpooledEvent) => Promise<StoredCheck>;
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
  if (r.holder !== undefined) throw new SpoolError(`--spool ${dir} is in use by another receiver (pid ${r.holder})`, `Stop that receiver first (Ctrl-C in its terminal, or \`kill ${r.holder}\`), then start this one again on the same --spool: it resumes every undelivered event kept there.`);
  throw new SpoolError(`Cannot lock --spool ${dir}${r.error ? `: ${r.error.code}` : ''}`);
}

export async function openSpool(dir: string, opts: SpoolOptions): Promise<Spool> {
  prepareDir(dir);
  const unlock = takeLock(dir);
  try {
    const path = join(dir, JOURNAL);
    cutTornTail(path);
    const policy = compactionPolicy(opts);
    // At start-up the journal is compacted first (nothing is appending yet): restore then reads the small file.
    // Should that fail, the old journal is whole: the receiver starts on it.
    let setAside = 0;
    const bytes = await compactJournal(dir, policy).then(
      (r) => {
        setAside = r.setAside;
        return r.bytes;
      },
      (err: unknown) => {
        discardCompaction(dir);
        opts.log?.(`spool ${dir}: could not compact the journal (${(err as Error).message}); using it as it is`);
        return 0;
      },
    );
    const state = await readJournal(dir);
    // Never in silence: lines that are not records were acknowledged events, or their delivery state.
    const aside = await readAside(dir).catch(() => ({ count: 0 }));
    if (aside.count > 0) opts.log?.(asideNotice(dir, aside.count, setAside));
    if (state.unreadable > 0) opts.log?.(`spool ${dir}: ${countOf(state.unreadable, 'journal line')} cannot be read and could not be kept aside yet; left in the journal (see \`partner doctor --spool ${dir}\`)`);
    const spool = new Spool(dir, openSync(path, 'a', 0o600), unlock, opts, policy, bytes);
    spool.restore(state.events, state.deliveredIds, state.sentBefore, state.attempts, state.parked);
    return spool;
  } catch (err) {
    unlock();
    throw err;
  }
}

function compactionPolicy(opts: SpoolOptions): CompactionPolicy {
  const now = opts.now ?? Date.now;
  return { retainMs: Math.max(opts.retainMs ?? SPOOL_RETAIN_MS, SPOOL_DEDUPE_MS), now };
}

export class Spool implements EventStore {
  private readonly now: () => number;
  private readonly seen: DedupeWindow;
  /** Digest -> the append that stores it: a concurrent copy waits for the same fsync. */
  private readonly storing = new Map<string, Promise<void>>();
  private readonly pending = new DeliveryQueue();
  /** What the target receives for an event received in this run: its payload's text from verification (not decoded from the JWS again). */
  private readonly bodies = new WeakMap<SpooledEvent, string>();
  private readonly ids = new EventIds();
  /** Events a forward was started for (now or before a restart) and not delivered: sent again as redeliveries. */
  private readonly sentBefore = new Set<string>();
  private readonly journal: JournalWriter;
  private closed = false;
  private readonly forwarder?: Forwarder;
  /** Workers with nothing to start, waiting for an event (or the next of a subject). */
  private sleepers: (() => void)[] = [];
  private readonly stop = new AbortController();
  private workers?: Promise<void>;
  /** After a failed forward no worker starts another until this settles (the backoff). */
  private pause?: Promise<void>;
  /** Failed forwards in a row (one per backoff round) while the target cannot be reached. */
  private failures = 0;
  /** A forward is finding out whether the unreachable target is back (the other workers wait for it). */
  private probing = false;
  /** Bytes appended since the journal was last compacted, and its size then. */
  private appended = 0;
  private compacting?: Promise<void>;
  /** Failed forwards per undelivered event (for --max-attempts). */
  private readonly attempts = new Map<string, number>();
  /** Parked events (dead letters), by id. */
  private readonly parkedIds = new Set<string>();
  /** Undelivered, unparked events: id -> when received (ms), in arrival order (the first is the oldest). */
  private readonly waitingSince = new Map<string, number>();
  /** Events refused by the target waiting out their own backoff (their subject waits, the others go). */
  private readonly backoffs = new Set<NodeJS.Timeout>();
  /** While events are parked: looks for the "delivered" records `webhook replay --failed` appends. */
  private unparkWatch?: NodeJS.Timeout;
  private tail: { from: number; ino: number };

  private get concurrency(): number {
    return Math.min(Math.max(1, this.opts.forwardConcurrency ?? DEFAULT_FORWARD_CONCURRENCY), MAX_FORWARD_CONCURRENCY);
  }

  constructor(
    readonly dir: string,
    fd: number,
    private readonly unlock: () => void,
    private readonly opts: SpoolOptions,
    private readonly policy: CompactionPolicy,
    private compactedBytes: number,
  ) {
    this.now = opts.now ?? Date.now;
    this.seen = new DedupeWindow(SPOOL_DEDUPE_MS, 1_000_000, this.now);
    // What restore read is known; later looks for replayed deliveries start at the end of it.
    const st = fstatSync(fd);
    this.tail = { from: st.size, ino: st.ino };
    this.journal = new JournalWriter(
      fd,
      (err) => {
        opts.log?.(`spool ${dir}: ${err.message}; new events are answered 503 until it can be written again`);
        this.startHealing();
      },
      opts.journalIo,
    );
    // The sender already has its 2xx: a slow target is waited for (giving up early would deliver twice).
    if (opts.forwardTo) this.forwarder = new Forwarder(opts.forwardTo, opts.delivery ?? abandonAfterMs(opts.forwardTimeoutMs));
  }

  /** Undelivered events (waiting or in flight; parked ones not included). */
  get backlog(): number {
    return this.pending.size;
  }

  /** Parked events (dead letters). */
  get parked(): number {
    return this.parkedIds.size;
  }

  /** Age of the oldest undelivered, unparked event, ms (0 when none). */
  oldestWaitingMs(): number {
    for (const at of this.waitingSince.values()) return Math.max(0, this.now() - at);
    return 0;
  }

  /** What the health check needs of the journal. */
  get journalState(): { path: string; ino: () => Promise<number | undefined>; failed: () => Error | undefined } {
    return { path: join(this.dir, JOURNAL), ino: () => this.journal.ino(), failed: () => this.journal.failed };
  }

  restore(events: SpooledEvent[], deliveredIds: Set<string>, sentBefore: Set<string> = new Set(), attempts: Map<string, number> = new Map(), parked: Set<string> = new Set()): void {
    for (const e of events) {
      const at = Date.parse(e.receivedAt);
      this.seen.add(e.digest, Number.isNaN(at) ? this.now() : at);
      if (deliveredIds.has(e.id)) continue;
      if (parked.has(e.id)) this.parkedIds.add(e.id);
      else if (this.forwarder) {
        this.pending.push(e);
        this.waitingSince.set(e.id, Number.isNaN(at) ? this.now() : at);
      }
      const n = attempts.get(e.id);
      if (n !== undefined) this.attempts.set(e.id, n);
      if (sentBefore.has(e.id)) this.sentBefore.add(e.id);
    }
    this.unparkWatch = setInterval(() => void this.lookForUnparked(), UNPARK_SCAN_MS);
    this.unparkWatch.unref();
    if (this.parkedIds.size > 0) this.opts.log?.(`spool ${this.dir}: ${countOf(this.parkedIds.size, 'parked event')} (not forwarded again; \`partner webhook replay --spool ${this.dir} --failed\` sends them)`);
    if (this.pending.size > 0) this.opts.log?.(`spool ${this.dir}: resuming ${countOf(this.pending.size, 'undelivered event')}`);
    if (this.forwarder) {
      this.workers = Promise.all(Array.from({ length: this.concurrency }, () => this.work())).then(() => undefined);
    }
  }

  async accept(e: StoredEvent): Promise<'stored' | 'duplicate'> {
    if (this.closed) throw new Error('the spool is closed');
    const pending = this.storing.get(e.digest);
    if (pending) {
      await pending; // throws if that append failed: this copy is not kept either
      return 'duplicate';
    }
    if (this.seen.has(e.digest)) return 'duplicate';
    const record: SpooledEvent = {
      t: 'event',
      id: this.ids.next(this.now()),
      digest: e.digest,
      receivedAt: e.receivedAt,
      eventType: e.verdict.eventType,
      kid: e.verdict.kid,
      jws: e.jws.trim(),
      payload: e.verdict.payload,
      target: this.opts.forwardTo ?? null,
    };
    if (e.payloadText !== undefined) this.bodies.set(record, e.payloadText);
    const write = this.append(record, e.payloadJson);
    this.storing.set(e.digest, write);
    try {
      await write;
    } finally {
      this.storing.delete(e.digest);
    }
    this.seen.add(e.digest);
    // Without --forward-to nothing delivers: the journal keeps them for `webhook replay`.
    if (this.forwarder) {
      this.pending.push(record);
      this.waitingSince.set(record.id, this.now());
      this.wakeOne();
      await this.keepUp();
    }
    return 'stored';
  }

  /** Appends one event; resolves after the fdatasync that covers it (a compaction in progress finishes first). */
  private async append(record: SpooledEvent, payloadJson?: string): Promise<void> {
    if (this.compacting) await this.compacting;
    await this.journal.append(payloadJson === undefined ? this.line(record) : this.counted(eventLine(record, payloadJson)));
  }

  /** Writes a delivery record now (in the kernel when this returns); its fsync joins the next group commit. */
  private record(r: DeliveryRecord): boolean {
    try {
      this.journal.durable(this.journal.write(this.line(r))).catch(() => undefined);
      return true;
    } catch {
      return false;
    }
  }

  private line(r: SpooledEvent | DeliveryRecord): string {
    // stringifyExact: a payload's numbers stay as signed (LosslessNumber), in the journal too.
    return this.counted(`${stringifyExact(r)}\n`);
  }

  /** A line about to be appended, counted towards the next compaction. */
  private counted(text: string): string {
    this.appended += text.length;
    return text;
  }

  private wakeAll(): void {
    for (const wake of this.sleepers.splice(0)) wake();
  }

  /**
   * One more event may start (one stored, one retried, or the next of a
   * subject): one idle worker is enough. Waking all of them (64 by default)
   * for each event had 63 look, find nothing and sleep again, twice an event.
   */
  private wakeOne(): void {
    this.sleepers.shift()?.();
  }

  /** Senders waiting in keepUp(), oldest first: each delivery lets one go. */
  private readonly drainWaiters = new Set<() => void>();

  /** A delivery (or a park) made room for one answer: the sender waiting longest gets it. */
  private releaseOne(): void {
    for (const w of this.drainWaiters) return w();
  }

  /**
   * Deliveries keep up with acknowledgements: while the target takes events
   * but more than the high-water mark wait in memory, the sender's answer
   * waits for deliveries (at most KEEP_UP_WAIT_MS; the event is on disk
   * already). Senders are slowed to the rate the target takes, so the backlog
   * and memory stay flat. A target that fails is not waited for: the spool
   * keeps accepting, which is what it is for.
   */
  private async keepUp(): Promise<void> {
    const highWater = Math.max(KEEP_UP_MIN_BACKLOG, 8 * this.concurrency);
    if (this.pending.size <= highWater || this.pause || this.failures > 0 || this.closed) return;
    // One answer goes per delivery, oldest first: acknowledgements follow deliveries one for one.
    // (Waking every waiting sender at each delivery to look again cost 200 wake-ups and timers a
    // delivery with 200 senders: the receiver's acknowledgements fell to 0.78x of verify-only.)
    await new Promise<void>((resolve) => {
      const go = () => {
        this.drainWaiters.delete(go);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(go, KEEP_UP_WAIT_MS);
      this.drainWaiters.add(go);
    });
  }

  /**
   * One delivery worker (there are --forward-concurrency of them): takes the
   * next event that may start (delivery-queue.ts), records its start,
   * forwards it, records the outcome at once; a failure pauses every worker
   * for the backoff and leaves the event first of its subject.
   */
  private async work(): Promise<void> {
    while (!this.closed) {
      if (this.pause) await this.pause;
      if (this.closed) break;
      // While the target cannot be reached, one forward at a time finds out whether it is back.
      if (this.failures > 0 && this.probing) {
        await new Promise<void>((resolve) => this.sleepers.push(resolve));
        continue;
      }
      const next = this.pending.take();
      if (!next) {
        if (this.pending.size === 0) {
          await this.maybeCompact();
          if (this.pending.size > 0 || this.closed) continue;
        }
        await new Promise<void>((resolve) => this.sleepers.push(resolve));
        continue;
      }
      const body = await this.bodyOf(next);
      if (body === undefined) continue; // parked, or waiting to be verified
      if (this.compacting) await this.compacting;
      // Recorded before the forward goes out: after a crash, this event is known to be possibly at the target.
      if (!this.record({ t: 'start', id: next.id, at: new Date(this.now()).toISOString() })) {
        // The journal cannot be written (a full disk): nothing goes out unrecorded; forwards resume once it heals.
        this.pending.retry(next);
        await this.journalWritable();
        continue;
      }
      const redelivery = this.sentBefore.has(next.id);
      this.sentBefore.add(next.id);
      const probe = this.failures > 0;
      if (probe) this.probing = true;
      const r = await this.forwarder!.post({ digest: next.digest, eventType: next.eventType, kid: next.kid, body, redelivery }, undefined, this.stop.signal);
      if (probe) this.probing = false;
      // Stopped mid-delivery: unless the target took it, it stays undelivered in the journal, resumed at the next start.
      if (this.closed && !delivered(r)) break;
      const at = new Date(this.now()).toISOString();
      if (delivered(r)) {
        // First of all, before this worker starts another forward: a crash from here on does not send it again.
        this.record({ t: 'delivered', id: next.id, at, status: r.status });
        this.targetAnswers();
        this.pending.done(next);
        this.attempts.delete(next.id);
        this.waitingSince.delete(next.id);
        this.sentBefore.delete(next.id);
        this.wakeOne(); // the next event of its subject may start (this worker looks too)
        this.releaseOne();
        this.tell({ event: next, result: r, redelivery });
        continue;
      }
      this.failed(next, r, redelivery, at);
    }
  }

  /**
   * A forward that got no 2xx. What it means (target-health.ts): the target
   * said abort (parked at once); a refusal of the event (4xx, or a 5xx named
   * in --park-on): counted, parked at --max-attempts, otherwise retried after
   * that event's own backoff while the others go; an outage (no answer, 408,
   * 429, 502-504, another 5xx): never counted or parked, every forward waits
   * for the target (capped backoff, or its Retry-After) for as long as the
   * spool holds.
   */
  private failed(next: SpooledEvent, r: ForwardResult, redelivery: boolean, at: string): void {
    const kind = failureKind(r, this.opts.parkOn);
    if (kind === 'outage') return this.waitForTarget(next, r, redelivery, at);
    this.targetAnswers(); // it answered: it refuses this event, it is not down
    const n = (this.attempts.get(next.id) ?? 0) + 1;
    this.attempts.set(next.id, n);
    this.record({ t: 'attempt', id: next.id, at, ...(r.status !== undefined ? { status: r.status } : { error: r.error }), n });
    const max = this.opts.maxAttempts;
    const park: ParkReason | undefined = kind === 'abort' ? 'target-abort' : max !== undefined && n >= max ? 'max-attempts' : undefined;
    if (park) return this.park(next, r, redelivery, at, n, park);
    // Only this event waits (its subject with it): the target takes the others.
    const wait = Math.max(Math.min(BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 16), BACKOFF_MAX_MS), r.retryAfterMs ?? 0);
    const timer = setTimeout(() => {
      this.backoffs.delete(timer);
      this.pending.retry(next);
      this.wakeOne();
    }, wait);
    this.backoffs.add(timer);
    this.tell({ event: next, result: r, redelivery, retryInMs: wait });
    this.opts.debug?.(`spool: delivery of ${next.id} refused (HTTP ${r.status}); retrying it in ${wait} ms`);
  }

  /**
   * What the target receives for an event: its payload as signed. An event
   * read back from the journal is verified again first (opts.verify): one
   * that fails is parked ('unverified') and said, never forwarded; one that
   * cannot be verified now (the key set unreachable) waits. Undefined when it
   * does not go now.
   */
  private async bodyOf(next: SpooledEvent): Promise<string | undefined> {
    const kept = this.bodies.get(next);
    if (kept !== undefined || !this.opts.verify) return kept ?? forwardBody(next.jws, next.payload);
    const c = await this.opts.verify(next);
    if (c.ok) {
      this.bodies.set(next, c.body);
      return c.body;
    }
    if (c.transient) {
      const timer = setTimeout(() => {
        this.backoffs.delete(timer);
        this.pending.retry(next);
        this.wakeOne();
      }, VERIFY_RETRY_MS);
      this.backoffs.add(timer);
      this.opts.debug?.(`spool: ${next.id} ${c.reason}; trying again in ${VERIFY_RETRY_MS} ms`);
      return undefined;
    }
    this.opts.log?.(`spool ${this.dir}: event ${next.id} not forwarded: ${c.reason}. Parked; \`partner webhook replay --spool ${this.dir} --failed\` checks it again`);
    this.park(next, { url: this.opts.forwardTo ?? '-', error: `not forwarded: ${c.reason}` }, false, new Date(this.now()).toISOString(), this.attempts.get(next.id) ?? 0, 'unverified');
    return undefined;
  }

  /** The target answered (2xx or a refusal): after an outage, every worker goes again. */
  private targetAnswers(): void {
    this.opts.target?.reachable();
    if (this.failures === 0) return;
    this.failures = 0;
    this.wakeAll();
  }

  /** A dead letter: recorded, no longer holding back its subject. */
  private park(next: SpooledEvent, r: ForwardResult, redelivery: boolean, at: string, n: number, park: ParkReason): void {
    this.record({ t: 'parked', id: next.id, at, n, reason: park });
    this.parkedIds.add(next.id);
    this.attempts.delete(next.id);
    this.waitingSince.delete(next.id);
    this.pending.done(next); // no longer blocks its subject
    this.wakeOne();
    this.releaseOne();
    this.tell({ event: next, result: r, redelivery, parked: park });
    this.opts.debug?.(`spool: ${next.id} parked after ${n} failed forward(s) (${park})`);
  }

  /**
   * The target cannot be reached: the event stays first of its subject and
   * every worker pauses (a target that is down fails them all at once; one
   * backoff round for those), for the capped backoff or the target's
   * Retry-After. Told once (TargetHealth), not per attempt.
   */
  private waitForTarget(next: SpooledEvent, r: ForwardResult, redelivery: boolean, at: string): void {
    // Recorded (doctor and a reader of the journal see it) with the count of refusals unchanged: it never parks.
    this.record({ t: 'attempt', id: next.id, at, ...(r.status !== undefined ? { status: r.status } : { error: r.error }), n: this.attempts.get(next.id) ?? 0, outage: true });
    if (!this.pause) this.failures++;
    const wait = Math.max(Math.min(BACKOFF_BASE_MS * 2 ** Math.min(this.failures - 1, 16), OUTAGE_BACKOFF_MAX_MS), r.retryAfterMs ?? 0);
    this.pending.retry(next);
    this.opts.target?.unreachable(outageReason(r));
    this.tell({ event: next, result: r, redelivery, retryInMs: wait, waiting: true });
    this.opts.debug?.(`spool: delivery of ${next.id} failed (${outageReason(r)}); the target is unreachable, retrying in ${wait} ms`);
    if (!this.pause) {
      const pause = delay(wait, undefined, { signal: this.stop.signal }).catch(() => undefined);
      this.pause = pause.then(() => {
        this.pause = undefined;
        this.wakeAll();
      });
    }
  }

  /** While the journal cannot be written: tries every HEAL_EVERY_MS whether it can be again (healJournal). */
  private healTimer?: NodeJS.Timeout;
  private healing = false;
  /** Workers waiting for the journal to take writes again. */
  private healWaiters: (() => void)[] = [];

  private startHealing(): void {
    if (this.healTimer || this.closed) return;
    this.healTimer = setInterval(() => void this.healJournal(), HEAL_EVERY_MS);
    this.healTimer.unref();
  }

  /**
   * A journal that failed (ENOSPC, EIO, ...) is tried again by itself: once the
   * disk has room for the largest event, a line torn by the failed write is
   * cut from the end, and a synced write goes through, events are taken and
   * forwards resume (no restart needed; /healthz says ok at its next probe).
   */
  async healJournal(): Promise<boolean> {
    if (!this.journal.failed) return true;
    if (this.healing || this.closed) return false;
    this.healing = true;
    try {
      const fs = await statfs(this.dir).catch(() => undefined);
      if (!fs || fs.bavail * fs.bsize < MIN_FREE_BYTES) return false;
      cutTornTail(join(this.dir, JOURNAL));
      if (!(await this.journal.recover())) return false;
    } catch {
      return false;
    } finally {
      this.healing = false;
    }
    clearInterval(this.healTimer);
    this.healTimer = undefined;
    this.opts.log?.(`spool ${this.dir}: the journal can be written again; new events are taken and forwards resume`);
    for (const go of this.healWaiters.splice(0)) go();
    return true;
  }

  /** Resolves once the journal takes writes again (or the spool closes). */
  private journalWritable(): Promise<void> {
    if (!this.journal.failed || this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => this.healWaiters.push(resolve));
  }

  /** Parked events that `webhook replay --failed` delivered (a "delivered" record appended by it) are parked no more. */
  async lookForUnparked(): Promise<void> {
    if (this.parkedIds.size === 0 || this.closed || this.compacting) return;
    try {
      let scan = await deliveredSince(join(this.dir, JOURNAL), this.tail.from);
      // Replaced by a compaction since the last look: read the new journal from its start.
      if (scan.ino !== this.tail.ino) scan = await deliveredSince(join(this.dir, JOURNAL), 0);
      this.tail = { from: scan.next, ino: scan.ino };
      for (const id of scan.delivered) {
        if (this.parkedIds.delete(id)) this.opts.debug?.(`spool: ${id} was delivered by webhook replay --failed; no longer parked`);
      }
    } catch (err) {
      this.opts.debug?.(`spool: could not look for replayed events: ${(err as Error).message}`);
    }
  }

  /** A report of an attempt never stops a worker. */
  private tell(a: DeliveryAttempt): void {
    try {
      this.opts.onDelivery?.(a);
    } catch (err) {
      this.opts.debug?.(`spool: could not report a delivery: ${(err as Error).message}`);
    }
  }

  /**
   * While idle, once enough was appended since the last compaction (at least
   * as much as the compacted journal held, and compactAfterBytes): rewrite it.
   * New events wait for it; nothing is lost if the process dies meanwhile.
   */
  private async maybeCompact(): Promise<void> {
    if (this.compacting) {
      await this.compacting; // another idle worker started it
      return;
    }
    const threshold = Math.max(this.opts.compactAfterBytes ?? 64 * 1024 * 1024, this.compactedBytes);
    if (this.closed || this.journal.failed || !shouldCompact(this.appended, threshold)) return;
    this.compacting = (async () => {
      await this.journal.flush();
      try {
        const r = await compactJournal(this.dir, this.policy, () => openSync(join(this.dir, JOURNAL), 'a', 0o600));
        if (r.fd !== undefined) this.journal.swap(r.fd);
        this.compactedBytes = r.bytes;
        this.appended = 0;
        this.opts.debug?.(`spool: journal compacted to ${r.bytes} bytes (${r.dropped} delivered events past retention dropped)`);
        if (r.setAside > 0) this.opts.log?.(asideNotice(this.dir, (await readAside(this.dir)).count, r.setAside));
      } catch (err) {
        // The old journal is intact: carry on appending to it, and try again after as much again.
        discardCompaction(this.dir);
        this.appended = 0;
        this.opts.log?.(`spool ${this.dir}: could not compact the journal (${(err as Error).message}); it keeps growing for now`);
      }
    })();
    try {
      await this.compacting;
    } finally {
      this.compacting = undefined;
    }
  }

  private closing?: Promise<void>;

  /**
   * Stops the workers: no new forward starts; those in flight may finish for
   * up to graceMs (a service stopping), then are abandoned: they stay
   * undelivered in the journal and go again (as redeliveries) at the next start.
   */
  close(graceMs = 0): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      clearInterval(this.unparkWatch);
      clearInterval(this.healTimer);
      for (const go of this.healWaiters.splice(0)) go();
      for (const t of this.backoffs) clearTimeout(t);
      this.backoffs.clear();
      this.wakeAll();
      for (const drained of [...this.drainWaiters]) drained();
      if (graceMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.workers, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
        clearTimeout(timer);
      }
      this.stop.abort();
      this.wakeAll();
      await this.workers;
      if (this.compacting) await this.compacting;
      await this.journal.flush();
      this.journal.close();
      await this.forwarder?.close();
      this.unlock();
    })();
    return this.closing;
  }
}
