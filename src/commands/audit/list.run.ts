import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { list } from './list.js';
import { AUDIT_FIELDS, readAuditLog, type AuditEntryView } from '../../audit/read.js';
import { CUT_FILE } from '../../audit/log.js';
import { join } from 'node:path';
import { stateDir } from '../../config/paths.js';
import type { Column } from '../../output/table.js';
import { writeList, type ListSpec } from '../../output/writer.js';
import { countOf } from '../../output/count.js';
import { whenAgo } from '../../text/when.js';

export type AuditListOptions = OptionsOf<typeof list>;

/** "201", "failed: TIMEOUT", "unknown": what became of the write. */
export function outcomeText(item: unknown): string {
  const e = item as AuditEntryView;
  if (e.outcome === 'answered') return String(e.status);
  return e.outcome === 'failed' ? `failed: ${e.error}` : 'unknown';
}

// On a terminal the time reads locally, with how long ago; JSON and CSV keep ISO 8601 UTC (csvColumns).
const columns = (now: number): Column[] => [
  { key: 'time', header: 'TIME', kind: 'key', value: (item) => whenAgo(String((item as AuditEntryView).time), now) },
  { key: 'method', header: 'METHOD', kind: 'short' },
  { key: 'path', header: 'PATH' },
  { key: 'outcome', header: 'OUTCOME', value: outcomeText, kind: 'short' },
  { key: 'profile', header: 'PROFILE', priority: 3 },
  { key: 'user', header: 'USER', priority: 2 },
  { key: 'command', header: 'COMMAND', priority: 1 },
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
