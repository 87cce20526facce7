// Durations and points in time for webhook flags: --forward-timeout,
// --max-age (listen) and --since (replay).
import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "10", "10s", "500ms", "5m", "2h", "1d" → milliseconds (a bare number is seconds). */
export function parseDuration(flag: string, raw: unknown, range: { minMs: number; maxMs: number }): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim().toLowerCase();
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text);
  const ms = m ? Number(m[1]) * UNITS[m[2] ?? 's']! : NaN;
  if (!Number.isFinite(ms) || ms < range.minMs || ms > range.maxMs) {
    throw new UsageError(`${flag} must be a duration from ${show(range.minMs)} to ${show(range.maxMs)} (like 10s, 5m, 2h), not "${String(raw).slice(0, 40)}"`, undefined, 'INVALID_OPTION');
  }
  return Math.round(ms);
}

function show(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** An ISO 8601 time, or a duration meaning that long ago ("2h" = two hours before now). */
export function parseSince(flag: string, raw: unknown, now: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const at = Date.parse(text);
    if (Number.isNaN(at)) throw new UsageError(`${flag} "${text.slice(0, 40)}" is not a valid time`, 'Use an ISO 8601 time like 2025-03-01T09:00:00Z, or a duration like 2h (that long ago).', 'INVALID_OPTION');
    return at;
  }
  return now - parseDuration(flag, text, { minMs: 0, maxMs: 3650 * 86_400_000 })!;
}
