// What `webhook listen` lets senders hold, so that anyone who can connect
// cannot starve the genuine senders: a cap on open connections
// (kept under the process's descriptor limit), and a budget of body bytes
// held in memory at once. At the cap, a new connection is made room for by
// closing the connection that has done the least for longest: first one with
// no request under way (just opened and silent, or idle keep-alive), then the
// body that started longest ago (a slow or stalled sender). Connections whose
// request is being verified, stored or answered are never closed for room.
// Every operation is O(1): insertion-ordered sets, oldest first.
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

/** Descriptors kept free for everything that is not a sender: the journal, forwards (64 connections), the key set, stdio. */
export const RESERVED_DESCRIPTORS = 128;

/** The soft limit on open files (Linux: /proc/self/limits), or undefined when it cannot be read. */
export function descriptorLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!m || m[1] === 'unlimited') return undefined;
  return Number(m[1]);
}

/** The connection cap: the one asked for, under the descriptor limit less what the rest of the receiver needs (at least 16). */
export function connectionCap(wanted: number, limit: number | undefined): number {
  if (limit === undefined) return wanted;
  return Math.max(16, Math.min(wanted, limit - RESERVED_DESCRIPTORS));
}

type Phase = 'idle' | 'reading' | 'busy';

/** A body must have been under way this long before it is closed to make room (a genuine one arrives much faster). */
export const SLOW_AFTER_MS = 1000;

interface State {
  phase: Phase;
  /** When the phase began (ms). */
  since: number;
  /** Bytes of the body budget this connection's request holds. */
  held: number;
}

export class ConnectionGuard {
  /** No request under way, oldest first. */
  private readonly idle = new Set<Socket>();
  /** Reading a request body, by when the body started, oldest first. */
  private readonly reading = new Set<Socket>();
  private readonly state = new Map<Socket, State>();
  private held = 0;

  constructor(
    readonly maxConnections: number,
    readonly maxHeldBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): number {
    return this.state.size;
  }

  /** Connections with a request under way (reading or being answered). */
  get active(): number {
    return this.state.size - this.idle.size;
  }

  get heldBytes(): number {
    return this.held;
  }

  /**
   * A new connection: admitted (true), after closing one that does least if
   * the cap is reached; false when every connection is busy (the caller
   * refuses it). `onEvict` is told why a connection was closed for room.
   */
  admit(s: Socket, onEvict?: (why: 'idle' | 'slow') => void): boolean {
    if (this.state.size >= this.maxConnections) {
      const idle = first(this.idle);
      const victim = idle ?? this.slowest();
      if (!victim) return false;
      this.evict(victim);
      onEvict?.(idle ? 'idle' : 'slow');
    }
    this.set(s, 'idle');
    s.once('close', () => this.forget(s));
    return true;
  }

  /** The socket's request started its body (reading), was read (busy), or was answered (idle again: keep-alive). */
  set(s: Socket, p: Phase): void {
    if (s.destroyed) return this.forget(s);
    const st = this.state.get(s);
    this.idle.delete(s);
    this.reading.delete(s);
    this.state.set(s, { phase: p, since: this.now(), held: st?.held ?? 0 });
    if (p === 'idle') this.idle.add(s);
    else if (p === 'reading') this.reading.add(s);
  }

  /**
   * Takes `n` more bytes of the body budget for the request on `s`. Past the
   * budget, the slowest body (under way for SLOW_AFTER_MS at least) is
   * closed to make room; false (nothing taken) when none is that slow.
   */
  reserve(s: Socket, n: number, onEvict?: () => void): boolean {
    while (this.held + n > this.maxHeldBytes) {
      const victim = this.slowest(s);
      if (!victim) return false;
      this.evict(victim);
      onEvict?.();
    }
    const st = this.state.get(s);
    if (st) st.held += n;
    this.held += n;
    return true;
  }

  /** The request on `s` no longer holds its body. */
  release(s: Socket): void {
    const st = this.state.get(s);
    if (!st) return;
    this.held -= st.held;
    st.held = 0;
  }

  /** The body under way longest, if for SLOW_AFTER_MS at least (never `except`). */
  private slowest(except?: Socket): Socket | undefined {
    for (const s of this.reading) {
      if (s === except) continue;
      return this.now() - this.state.get(s)!.since >= SLOW_AFTER_MS ? s : undefined;
    }
    return undefined;
  }

  private evict(s: Socket): void {
    this.forget(s);
    s.destroy();
  }

  private forget(s: Socket): void {
    this.release(s);
    this.idle.delete(s);
    this.reading.delete(s);
    this.state.delete(s);
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const v of set) return v;
  return undefined;
}
