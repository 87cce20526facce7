// Appends to the spool journal in two steps of durability:
//  - written: write(2) has returned, so the record is in the kernel and
//    survives the process being killed (kill -9), though not a power loss;
//    done at once, on the event loop (a few microseconds for a record);
//  - durable: an fdatasync that began after the write has finished. Syncs are
//    group-committed: records written while one runs share the next, so 50
//    concurrent senders cost a few syncs, not 50.
// An event is acknowledged only once durable; a delivery record need only be
// written before the next forward starts (see spool.ts).
import { closeSync, fdatasync, fstat, writeSync } from 'node:fs';

/** The two calls that put records on disk: node:fs's, or a test's that fails like a full disk (a seam, not a mock of node:fs). */
export interface JournalIo {
  writeSync(fd: number, buffer: Buffer, offset: number, length: number): number;
  fdatasync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void;
}

export const NODE_JOURNAL_IO: JournalIo = { writeSync: (fd, b, o, l) => writeSync(fd, b, o, l), fdatasync };

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class JournalWriter {
  /** Records written so far (sequence number of the last one). */
  private written = 0;
  /** Every record up to this sequence number is on disk. */
  private synced = 0;
  private syncing?: Promise<void>;
  private waiters: Waiter[] = [];
  private failure?: Error;

  constructor(
    private fd: number,
    private readonly onFailure: (err: Error) => void = () => undefined,
    private readonly io: JournalIo = NODE_JOURNAL_IO,
  ) {}

  /** Set once a write or sync failed: nothing more is written until recover() (a torn line may end the file). */
  get failed(): Error | undefined {
    return this.failure;
  }

  /**
   * After a failure, once the caller has cut a torn line from the end of the
   * file: a synced write of an empty line (readers skip it) tells whether the
   * journal takes writes again. True when it does: writing resumes.
   */
  async recover(): Promise<boolean> {
    if (!this.failure) return true;
    try {
      const nl = Buffer.from('\n');
      if (this.io.writeSync(this.fd, nl, 0, 1) !== 1) return false;
      await new Promise<void>((resolve, reject) => this.io.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
    } catch {
      return false;
    }
    // Whatever was written before the failure and not synced may be lost: nothing waits for it any more (its waiters were rejected).
    this.synced = this.written;
    this.failure = undefined;
    return true;
  }

  /** Writes one line now; returns its sequence number. Throws when the journal cannot be written. */
  write(text: string): number {
    if (this.failure) throw this.failure;
    const buf = Buffer.from(text);
    try {
      // A regular file takes the whole buffer in one write in practice; loop for the rare short write.
      for (let off = 0; off < buf.length; ) off += this.io.writeSync(this.fd, buf, off, buf.length - off);
    } catch (err) {
      throw this.fail(err as NodeJS.ErrnoException);
    }
    return ++this.written;
  }

  /** Resolves once the record with this sequence number is on disk. */
  durable(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.synced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.syncing ??= this.sync();
    });
  }

  /** Writes a line and resolves once it is on disk. */
  append(text: string): Promise<void> {
    let seq: number;
    try {
      seq = this.write(text);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return this.durable(seq);
  }

  /** Syncs what is written and waits for it (before closing, or swapping the file). */
  async flush(): Promise<void> {
    if (this.failure || this.written === this.synced) return;
    await this.durable(this.written).catch(() => undefined);
  }

  /** Continues on another file (a compacted journal); call after flush(). Closes the old descriptor. */
  swap(fd: number): void {
    closeSync(this.fd);
    this.fd = fd;
    this.synced = this.written;
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The inode of the file written to (the health check compares it with the journal's path), or undefined once closed. */
  ino(): Promise<number | undefined> {
    return new Promise((resolve) => fstat(this.fd, (err, st) => resolve(err ? undefined : st.ino)));
  }

  private async sync(): Promise<void> {
    await null; // records written in the same tick as the first waiter share its sync
    while (this.waiters.length > 0 && !this.failure) {
      const covers = this.written;
      try {
        await new Promise<void>((resolve, reject) => this.io.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
      } catch (err) {
        this.fail(err as NodeJS.ErrnoException);
        break;
      }
      this.synced = covers;
      const done = this.waiters.filter((w) => w.seq <= covers);
      this.waiters = this.waiters.filter((w) => w.seq > covers);
      for (const w of done) w.resolve();
    }
    this.syncing = undefined;
  }

  private fail(err: NodeJS.ErrnoException): Error {
    if (!this.failure) {
      this.failure = new Error(`the spool journal cannot be written (${err.code ?? err.message})`);
      for (const w of this.waiters.splice(0)) w.reject(this.failure);
      this.onFailure(this.failure);
    }
    return this.failure;
  }
}
