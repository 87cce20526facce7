import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { list } from './list.js';
import { AUDIT_FIELDS, readAuditLog, type AuditEntryView } from '../../audit/read.js';
import { CUT_FILE } from '../../audit/log.js';
import { join } from 'node:path';
import { stateDir } from '../../config/paths.js';
import type { Column } from '../../output/table.js';
import { writeList, type ListSpec } from '../../output/writer.js';
import { countOf } from '../../text/count.js';
import { whenAgo } from '../../text/when.js';

export type AuditListOptions = OptionsOf<typeof list>;

/** The STATUS cell: the HTTP status, the error code of a write that got no answer, "-" while unknown. */
export function statusText(item: unknown): string {
  const e = item as AuditEntryView;
  if (e.outcome === 'answered') return String(e.status);
  return e.outcome === 'failed' ? (e.error ?? 'ERROR') : '-';
}

/** Whom the write was about: the employee's code when an answer named it, else its id; "-" for none. */
export function employeeText(item: unknown): string {
  const e = item as AuditEntryView;
  return e.employeeCode ?? e.employee ?? '-';
}

/** The command without the leading "partner" every one of them has. */
export function commandText(item: unknown): string {
  return (item as AuditEntryView).command.replace(/^partner(?: |$)/, '') || 'partner';
}

/**
 * The time in the local zone: how long ago and the time today, the date and
 * time before today (short enough for the table to keep who, what and whom
 * at 80 columns).
 */
export function timeText(iso: string, now: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const t = new Date(now);
  if (d.getFullYear() === t.getFullYear() && d.getMonth() === t.getMonth() && d.getDate() === t.getDate()) return whenAgo(iso, now);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

// Who, what, whom. At 80 columns: time, outcome, method, employee, command, status; the path, user and profile
// when there is room (dropped first: profile, then user, then path). JSON and CSV keep every field, the time in ISO 8601 UTC.
const columns = (now: number): Column[] => [
  { key: 'time', header: 'TIME', kind: 'key', value: (item) => timeText(String((item as AuditEntryView).time), now) },
  { key: 'outcome', header: 'OUTCOME', kind: 'short' },
  { key: 'method', header: 'METHOD', kind: 'short' },
  { key: 'employee', header: 'EMPLOYEE', value: employeeText },
  { key: 'command', header: 'COMMAND', value: commandText },
  { key: 'status', header: 'STATUS', value: statusText, kind: 'short' },
  { key: 'path', header: 'PATH', priority: 3 },
  { key: 'user', header: 'USER', priority: 2 },
  { key: 'profile', header: 'PROFILE', priority: 1 },
];

export async function run(opts: AuditListOptions, ctx: Context): Promise<void> {
  const dir = stateDir(ctx.env);
  const { entries, unreadable, setAside } = readAuditLog(dir, opts.since);
  const damage = damageNote(unreadable, setAside, dir);
  const spec: ListSpec = {
    columns: columns(ctx.clock.now()),
    csvColumns: AUDIT_FIELDS.map((key) => ({ key })),
    idField: 'id',
    footer: () => `${countOf(entries.length, 'write')}${opts.since === undefined ? '' : ` since ${whenAgo(new Date(opts.since).toISOString(), ctx.clock.now())}`} · log: ${dir}`,
  };
  // Every whole record is listed; what could not be read is said once, on stderr (whatever the format of stdout).
  if (damage) ctx.log.warn(damage);
  await writeList(ctx.io, ctx.io.stdout, entries, spec, opts.out);
}

/** How many lines of the log could not be read, and how many cut records were set aside; undefined when none. */
export function damageNote(unreadable: number, setAside: number, dir: string): string | undefined {
  const parts: string[] = [];
  if (unreadable > 0) parts.push(`${countOf(unreadable, 'line')} of the audit log could not be read (cut by a full disk or a crash, or damaged); every whole record is listed`);
  if (setAside > 0) parts.push(`${countOf(setAside, 'cut record')} ${setAside === 1 ? 'was' : 'were'} set aside in ${join(dir, CUT_FILE)} (records a full disk cut short)`);
  return parts.length > 0 ? `${parts.join('; ')}.` : undefined;
}
