// Times for people at a terminal: the local zone, and how long ago
// ("3 min ago, 00:21"). JSON, NDJSON and CSV keep the ISO 8601 UTC text;
// only what is drawn for a person goes through here. The clock is the
// caller's (ctx.clock), so a test fixes "now" and the zone (TZ).

import { countOf } from './count.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** The local time of day, HH:MM:SS: 8 columns (a listener's line). Text that is not a time is returned as it is. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * How long ago, then the local time: "just now, 00:21", "3 min ago, 00:21",
 * "5 h ago, 19:02", "2 days ago, 2026-11-26 00:21" (the date once it is not
 * today). A time ahead of `now` (another machine's clock) reads "in 3 min".
 */
export function whenAgo(iso: string, now: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date(now);
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  const at = `${sameDay ? '' : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} `}${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return `${ago(now - d.getTime())}, ${at}`;
}

function ago(ms: number): string {
  const ahead = ms < 0;
  const s = Math.floor(Math.abs(ms) / 1000);
  if (s < 60) return 'just now';
  const span = s < 3600 ? `${Math.floor(s / 60)} min` : s < 86_400 ? `${Math.floor(s / 3600)} h` : countOf(Math.floor(s / 86_400), 'day');
  return ahead ? `in ${span}` : `${span} ago`;
}

