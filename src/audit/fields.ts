// What `partner audit list` declares at start-up (its fields, --since): no
// imports, so the command's definition loads nothing of the log itself.

/** The fields of an entry of the log, in the order CSV shows them. */
export const AUDIT_FIELDS = ['time', 'outcome', 'method', 'path', 'employee', 'employeeCode', 'status', 'correlationId', 'error', 'profile', 'baseUrl', 'command', 'user', 'pid', 'id', 'answeredAt'] as const;

/**
 * --since: a duration back from now (`90m`, `24h`, `7d`, `2w`) or a date or
 * time (`2026-11-01`, `2026-11-01T09:00:00Z`); undefined when it is neither.
 */
export function parseSince(raw: string, now: number): number | undefined {
  const t = raw.trim();
  const m = /^(\d{1,6})\s*(s|m|h|d|w)$/i.exec(t);
  if (m) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as 's' | 'm' | 'h' | 'd' | 'w'];
    return now - Number(m[1]) * unit;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return undefined;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : at;
}
