// `webhook verify --file` on every core: batches of lines go to worker
// threads (each with its own copy of the key set); results come back per
// batch and are printed in input order by the caller.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { KeySetSnapshot } from './jwks.js';
import { REASONS, type Verdict } from './verify.js';

/** Lines per message: large enough that messaging costs little next to P-521 verification. */
export const BATCH_LINES = 64;

interface Pending {
  resolve: (v: (Verdict | null)[]) => void;
  reject: (err: Error) => void;
}

export class VerifyPool {
  private readonly workers: { worker: Worker; busy: number }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure?: Error;

  /** A pool, or undefined when workers are not available (unbundled sources, one core). */
  static create(snap: KeySetSnapshot, size = Math.min(availableParallelism(), 4)): VerifyPool | undefined {
    if (size < 2) return undefined;
    const url = new URL('./verify-worker.js', import.meta.url);
    if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return undefined;
    return new VerifyPool(url, { jwks: { keys: snap.keys.map((k) => k.jwk) }, origin: snap.origin }, size);
  }

  private constructor(url: URL, data: unknown, size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(url, { workerData: data });
      const slot = { worker, busy: 0 };
      worker.on('message', (m: { id: number; verdicts: (Verdict | null)[] }) => {
        slot.busy--;
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.verdicts);
      });
      worker.on('error', (err) => this.fail(err));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`a verification worker exited with code ${code}`));
      });
      this.workers.push(slot);
    }
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Verdicts for one batch, in its order (null: verify that line in the main thread). */
  verify(lines: string[]): Promise<(Verdict | null)[]> {
    if (this.failure) return Promise.reject(this.failure);
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    slot.busy++;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, lines });
    });
  }

  get size(): number {
    return this.workers.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/**
 * Whether a worker's verdict (made with a fixed key set) must be redone in
 * the main thread, where an unknown kid — or no key verifying a JWS without
 * kid — may refetch the key set.
 */
export function needsRecheck(v: Verdict | null, refetchable: boolean): boolean {
  if (v === null) return true;
  if (!refetchable) return false;
  if (v.reason === REASONS.UNKNOWN_KID) return true;
  return v.kid === null && (v.reason === REASONS.BAD_SIGNATURE || v.reason === REASONS.WRONG_KEY_TYPE);
}
