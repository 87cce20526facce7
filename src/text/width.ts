import type { IO } from '../io.js';

/** Help width: the terminal's (at most 120), 80 when not a terminal. */
export function helpWidth(io: Pick<IO, 'stdoutIsTTY' | 'columns'>): number {
  return Math.min(io.stdoutIsTTY ? (io.columns ?? 80) : 80, 120);
}
