import { Writable } from 'node:stream';
import { formatCount } from '../text/count.js';

/** What the page walker knows after each page. */
export interface ProgressState {
  pages: number;
  totalPages?: number;
  items: number;
  totalItems?: number;
  /** Shown after the counts (bulk onboarding: "2 failed"). */
  note?: string;
}

export interface ProgressOptions {
  /** Where the bar goes: stderr, and only when it is a terminal. */
  stream: Writable;
  /** Terminal width; the line is cut to fit. */
  columns?: number;
  /** Shortest time between two redraws (default 100 ms: at most ~10 per second). */
  minIntervalMs?: number;
  /** Nothing is drawn before this much time has passed (default 0): a short job shows no bar at all. */
  delayMs?: number;
  now?: () => number;
  label?: string;
  /** What the two counts are called (default pages, employees). */
  units?: { pages: string; items: string };
  /** What the time left is estimated from: items (default, when their total is known) or pages (bulk onboarding: rows). */
  etaBy?: 'items' | 'pages';
}

const CLEAR_LINE = '\r\x1b[2K';
const BAR_WIDTH = 20;

/**
 * A one-line progress bar on stderr for long exports: pages, items, rate and
 * time left. Redrawn in place at most ~10 times a second, and erased by
 * `done()`, so nothing of it is left in the terminal's scrollback. Create it
 * with `createProgress`, which returns nothing unless stderr is a terminal.
 */
export class Progress {
  private readonly stream: Writable;
  private readonly columns: number;
  private readonly minIntervalMs: number;
  private readonly delayMs: number;
  private readonly now: () => number;
  private readonly label: string;
  private readonly units: { pages: string; items: string };
  private readonly etaBy: 'items' | 'pages';
  private readonly started: number;
  /** The widest line drawn so far: later lines are padded to it, so the line keeps its width from frame to frame. */
  private widest = 0;
  private barWidth: number | undefined;
  private barGone = false;
  private lastDraw = -Infinity;
  private drawn = false;
  private finished = false;
  private state: ProgressState = { pages: 0, items: 0 };

  constructor(opts: ProgressOptions) {
    this.stream = opts.stream;
    this.columns = opts.columns && opts.columns > 10 ? opts.columns : 80;
    this.minIntervalMs = opts.minIntervalMs ?? 100;
    this.delayMs = opts.delayMs ?? 0;
    this.now = opts.now ?? Date.now;
    this.label = opts.label ?? 'Exporting';
    this.units = opts.units ?? { pages: 'pages', items: 'employees' };
    this.etaBy = opts.etaBy ?? 'items';
    this.started = this.now();
  }

  /** New figures; redrawn only if the last redraw is old enough (or it is the last page). */
  update(state: ProgressState): void {
    if (this.finished) return;
    this.state = state;
    const t = this.now();
    if (t - this.started < this.delayMs) return;
    const last = state.totalPages !== undefined && state.pages >= state.totalPages;
    if (t - this.lastDraw < this.minIntervalMs && !last) return;
    this.lastDraw = t;
    this.stream.write(`${CLEAR_LINE}${this.render(t)}`);
    this.drawn = true;
  }

  /** Erases the bar (before other output on the same terminal); the next update draws it again. */
  clear(): void {
    if (!this.drawn) return;
    this.stream.write(CLEAR_LINE);
    this.drawn = false;
    this.lastDraw = -Infinity;
  }

  /** The export ended (or failed): erase the bar for good. */
  done(): void {
    this.clear();
    this.finished = true;
  }

  /** The line as drawn at time t (exported for tests). */
  render(t = this.now()): string {
    const s = this.state;
    const elapsed = Math.max(0, t - this.started) / 1000;
    const fraction = s.totalItems ? Math.min(1, s.items / s.totalItems) : s.totalPages ? Math.min(1, s.pages / s.totalPages) : undefined;
    const parts: string[] = [];
    // Each figure as wide as its total, so the text after it does not shift as it grows.
    if (fraction !== undefined) parts.push(`${Math.floor(fraction * 100)}%`.padStart(4));
    parts.push(`${ofTotal(s.pages, s.totalPages)} ${this.units.pages}`);
    parts.push(`${ofTotal(s.items, s.totalItems)} ${this.units.items}`);
    const rate = elapsed > 0 ? s.items / elapsed : 0;
    parts.push(`${count(Math.round(rate))}/s`);
    if (s.note) parts.push(s.note);
    if (this.etaBy === 'pages') {
      if (s.totalPages !== undefined && s.pages > 0 && s.pages < s.totalPages) parts.push(`${duration(((s.totalPages - s.pages) * elapsed) / s.pages)} left`);
    } else if (s.totalItems !== undefined && rate > 0 && s.items < s.totalItems) parts.push(`${duration((s.totalItems - s.items) / rate)} left`);
    const text = parts.join(' · ');
    // The bar only where it fits: the figures matter more. One column short of
    // the width, so the terminal never wraps the line.
    const room = this.columns - 1 - text.length - this.label.length - 2;
    // The bar keeps the width of its first frame; once it no longer fits it is gone for good (no flicker).
    if (fraction !== undefined && !this.barGone && room >= Math.max(12, (this.barWidth ?? 0) + 3)) {
      const width = (this.barWidth ??= Math.min(BAR_WIDTH, room - 3));
      const full = Math.round(fraction * width);
      return this.steady(`${this.label} [${'#'.repeat(full)}${'-'.repeat(width - full)}] ${text}`);
    }
    if (fraction !== undefined) this.barGone = true;
    const line = `${this.label} ${text}`;
    return this.steady(line.length >= this.columns ? line.slice(0, this.columns - 1) : line);
  }

  /** Padded to the widest line so far (within the terminal): a shorter frame (an ETA gone, a slower rate) leaves no jump. */
  private steady(line: string): string {
    this.widest = Math.min(Math.max(this.widest, line.length), this.columns - 1);
    return line.padEnd(this.widest);
  }

  /**
   * A stream for results that go to the same terminal as the bar: the bar is
   * erased before each write (and drawn again on the next update), so rows
   * never land on top of it. Backpressure passes through.
   */
  interleave(out: Writable): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _enc, cb) => {
        this.clear();
        if (out.write(chunk)) cb();
        else out.once('drain', () => cb());
      },
    });
  }
}

/** A bar only when asked for, stderr is a terminal and this is not CI; otherwise nothing at all. */
export function createProgress(io: { stderr: Writable; stderrIsTTY: boolean; stderrColumns?: number; progress?: boolean }, enabled: boolean, opts: Omit<ProgressOptions, 'stream'> = {}): Progress | undefined {
  if (!enabled || !io.stderrIsTTY || io.progress === false) return undefined;
  const columns = opts.columns ?? io.stderrColumns;
  return new Progress({ ...opts, stream: io.stderr, columns });
}

function count(n: number): string {
  return formatCount(n);
}

/** "7/3,346", the count padded to its total's width; the count alone without a total. */
function ofTotal(n: number, total: number | undefined): string {
  if (total === undefined) return count(n);
  const all = count(total);
  return `${count(n).padStart(all.length)}/${all}`;
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
