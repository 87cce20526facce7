// How verdicts look: the JSON document of a verdict, a block for one webhook
// on a terminal, the records and columns of `webhook verify --file` and
// `webhook replay` (printed by the output layer's writeList), and the record
// and line of each `webhook listen` event (writeRecord, one per event).
// Everything from the webhook is untrusted: the output layer sanitises table
// cells and JSON; what is built into text here goes through sanitizeCell.
import { clockTime, whenAgo } from '../text/when.js';
import type { Colors } from '../output/colors.js';
import { displayText } from '../output/cells.js';
import { getPath } from '../output/fields.js';
import { sanitizeCell } from '../text/sanitize.js';
import { renderKeyValue, type Column } from '../output/table.js';
import type { ListSpec } from '../output/writer.js';
import type { ReceivedEvent } from './listen.js';
import type { ReplayOutcome } from './replay.js';
import type { DeliveryAttempt } from './spool.js';
import type { TargetChange } from './target-health.js';
import { subjectOf } from './delivery-queue.js';
import { POST_SIGNATURE_REASONS, type Verdict } from './verify.js';

/** The machine-readable verdict: {valid, reason, kid, header, payload, warnings} and a few more facts (subject: the employee code, contract or request id; status: the one in the data). */
export function verdictJson(v: Verdict): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    valid: v.valid,
    reason: v.reason,
    message: v.message,
    signatureValid: v.signatureValid,
    kid: v.kid,
    alg: v.alg,
    header: v.header,
    eventType: v.eventType,
    meaning: v.meaning,
    timestamp: v.timestamp,
    subject: v.subject,
    status: v.status,
    payload: v.payload,
    warnings: v.warnings,
    errors: v.errors,
  };
  if (v.normalized) doc.normalized = v.normalized;
  return doc;
}

/**
 * An event type as shown: anything but visible ASCII (a zero-width space,
 * a Cyrillic look-alike letter, a control) is written as a \u escape, so
 * `EMPLOYEE_CREATED\u200b` can never pass for EMPLOYEE_CREATED.
 */
export function showEventType(t: string | null | undefined): string {
  if (t === null || t === undefined || t === '') return '-';
  const escaped = t.slice(0, 100).replace(/[^\x21-\x7e]|\\/g, (c) => (c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return t.length > 100 ? `${escaped}…` : escaped;
}

function cell(v: unknown): string {
  return v === null || v === undefined || v === '' ? '-' : sanitizeCell(String(v));
}

/** A block for one webhook (a person at a terminal). */
export function renderVerdict(v: Verdict, c: Colors): string {
  const lines: string[] = [];
  if (v.valid) {
    lines.push(`${c.green(c.bold('VALID'))}  signature verified (ES512), event accepted`);
  } else {
    const genuine = v.reason !== null && POST_SIGNATURE_REASONS.has(v.reason);
    lines.push(`${c.red(c.bold('INVALID'))}  ${v.reason}: ${sanitizeCell(v.message ?? '')}`);
    if (genuine) lines.push(c.yellow('         The signature is genuine (a key of the set signed it); the payload is what is wrong, not a forgery.'));
  }
  lines.push('');
  const rows: [string, string][] = [
    ['kid', cell(v.kid)],
    ['alg', cell(v.alg)],
  ];
  if (v.eventType !== null) rows.push(['event', `${showEventType(v.eventType)}${v.meaning ? c.dim(` — ${v.meaning}`) : ''}`]);
  if (v.signatureValid) rows.push(['timestamp', cell(v.timestamp)]);
  for (const [k, val] of rows) lines.push(`  ${k.padEnd(10)} ${val}`);
  let out = `${lines.join('\n')}\n`;
  const payload = v.payload as Record<string, unknown> | null;
  if (v.signatureValid && payload !== null && typeof payload === 'object') {
    const data = (v.normalized?.data ?? (payload as { data?: unknown }).data) as unknown;
    if (data !== undefined) out += `  data${v.normalized ? c.dim(' (normalised to the current shape)') : ''}:\n${renderKeyValue(data, 2)}`;
    else out += `  payload:\n${renderKeyValue(payload, 2)}`;
  }
  if (v.errors.length > 0) {
    out += `\n${c.red('Shape errors:')}\n${v.errors.map((e) => `  ✗ ${sanitizeCell(e)}`).join('\n')}\n`;
  }
  if (v.warnings.length > 0) {
    out += `\n${c.yellow('Warnings:')}\n${v.warnings.map((w) => `  ! ${sanitizeCell(w)}`).join('\n')}\n`;
  }
  // Every untrusted value above went through sanitizeCell or renderKeyValue; the colour codes are ours.
  return out;
}

/** What a verdict's note says: the reason's message, or the warnings of a valid one. */
function note(v: { valid?: unknown; message?: unknown; warnings?: unknown }): string {
  if (!v.valid) return displayText(v.message);
  const w = Array.isArray(v.warnings) ? v.warnings : [];
  return w.length === 0 ? '-' : `${w.length} warning${w.length > 1 ? 's' : ''}: ${String(w[0])}`;
}

const joined = (key: string) => (r: unknown) => {
  const v = getPath(r, key);
  return Array.isArray(v) ? v.join('; ') : v;
};

/** One record per line of `webhook verify --file`: the line number, then the verdict's JSON document. */
export function verdictRecord(line: number, v: Verdict): Record<string, unknown> {
  return { line, ...verdictJson(v) };
}

/** `webhook verify --file` through writeList: a row per JWS line; CSV the verdict's flat facts. */
export const VERDICT_LIST: ListSpec = {
  columns: [
    { key: 'line', header: 'LINE', kind: 'short' },
    { key: 'result', header: 'RESULT', kind: 'short', value: (r) => (getPath(r, 'valid') ? 'VALID' : getPath(r, 'reason')) },
    { key: 'eventType', header: 'EVENT', kind: 'short', value: (r) => showEventType(getPath(r, 'eventType') as string | null) },
    { key: 'subject', header: 'SUBJECT', kind: 'key' },
    { key: 'status', header: 'STATUS', kind: 'short', style: 'status' },
    { key: 'kid', header: 'KID', kind: 'short', priority: 1 },
    { key: 'note', header: 'NOTE', value: (r) => note(r as Record<string, unknown>) },
  ],
  csvColumns: [
    ...['line', 'valid', 'reason', 'message', 'signatureValid', 'kid', 'alg', 'eventType', 'meaning', 'timestamp', 'subject', 'status'].map((key): Column => ({ key })),
    { key: 'warnings', value: joined('warnings') },
    { key: 'errors', value: joined('errors') },
  ],
};

/** One record per replayed event. */
export function replayRecord(o: ReplayOutcome): Record<string, unknown> {
  return { id: o.event.id, receivedAt: o.event.receivedAt, eventType: o.event.eventType, to: o.result.url, status: o.result.status ?? null, error: o.result.error ?? null, delivered: o.ok };
}

/**
 * `webhook replay` through writeList: a row per event sent; -q prints the
 * spool ids. On a terminal when it was received reads locally, with how long
 * ago; JSON and CSV keep ISO 8601 UTC.
 */
export const replayList = (now: number): ListSpec => ({
  columns: [
    { key: 'receivedAt', header: 'RECEIVED', kind: 'short', value: (r) => whenAgo(String(getPath(r, 'receivedAt')), now) },
    { key: 'eventType', header: 'EVENT', kind: 'short', value: (r) => showEventType(getPath(r, 'eventType') as string | null) },
    // The event id goes first when the width runs out: the failure reason is what people read.
    { key: 'id', header: 'ID', kind: 'key', priority: 1 },
    { key: 'result', header: 'RESULT', value: (r) => (getPath(r, 'status') !== null ? `HTTP ${String(getPath(r, 'status'))}` : `failed: ${displayText(getPath(r, 'error'))}`) },
    { key: 'delivered', header: 'DELIVERED', kind: 'short', value: (r) => (getPath(r, 'delivered') ? 'yes' : 'no') },
  ],
  csvColumns: ['id', 'receivedAt', 'eventType', 'to', 'status', 'error', 'delivered'].map((key): Column => ({ key })),
  idField: 'id',
});

/** The record of one `webhook listen` event (what -o ndjson prints, what --fields and --jq see). */
export function eventRecord(e: ReceivedEvent): Record<string, unknown> {
  return { time: e.time, httpStatus: e.httpStatus, ...verdictJson(e.verdict), forward: e.forward ?? null, ...(e.spooled ? { spooled: e.spooled } : {}), ...(e.problem ? { problem: e.problem } : {}) };
}

/** The line of one `webhook listen` event on a terminal: time, HTTP status, event type, subject, status, what became of it. */
export function eventLine(e: ReceivedEvent, c: Colors): string {
  const v = e.verdict;
  const status = e.httpStatus === 200 ? c.green(String(e.httpStatus)) : c.red(String(e.httpStatus));
  let text: string;
  if (v.valid) {
    text = `${clockTime(e.time)}  ${status}  ${[showEventType(v.eventType), cell(v.subject), cell(v.status)].join('  ')}`;
    if (v.warnings.length > 0) text += c.yellow(`  (${v.warnings.length} warning${v.warnings.length > 1 ? 's' : ''}: ${sanitizeCell(v.warnings[0]!)})`);
  } else {
    text = `${clockTime(e.time)}  ${status}  INVALID ${v.reason}  ${sanitizeCell(v.message ?? '')}`;
  }
  if (e.forward?.duplicate) text += '  -> already delivered (duplicate not forwarded)';
  else if (e.forward) text += e.forward.status !== undefined ? `  -> forwarded ${e.forward.status}` : c.red(`  -> forward failed: ${sanitizeCell(e.forward.error ?? '')}`);
  if (e.spooled) text += e.spooled === 'stored' ? '  -> spooled' : '  -> already spooled (duplicate)';
  if (e.problem) text += c.red(`  (${sanitizeCell(e.problem)})`);
  return `${text}\n`;
}

/** A line of the chosen fields of a record (listen's table view with --fields). */
export function fieldsLine(record: unknown, fields: string[]): string {
  return `${fields.map((f) => sanitizeCell(displayText(getPath(record, f)))).join('  ')}\n`;
}

/**
 * The record of one delivery attempt of `webhook listen --spool` (after the
 * sender was answered): {time, delivery: {id, eventType, subject, to, status,
 * error, delivered, redelivery, retryInMs}}.
 */
export function deliveryRecord(a: DeliveryAttempt, time: string): Record<string, unknown> {
  const ok = a.result.duplicate === true || (a.result.status !== undefined && a.result.status >= 200 && a.result.status < 300);
  return {
    time,
    delivery: {
      id: a.event.id,
      eventType: a.event.eventType,
      subject: subjectOf(a.event.payload) ?? null,
      to: a.result.url,
      status: a.result.status ?? null,
      error: a.result.error ?? null,
      delivered: ok,
      redelivery: a.redelivery,
      retryInMs: a.retryInMs ?? null,
      parked: a.parked ?? null,
    },
  };
}

/** Its line on a terminal, like stripe listen's: time, the event, and what the target did (or why it will be tried again). */
export function deliveryLine(record: Record<string, unknown>, c: Colors): string {
  const d = record.delivery as { eventType: string | null; subject: string | null; status: number | null; error: string | null; delivered: boolean; redelivery: boolean; retryInMs: number | null; parked?: string | null };
  const what = d.status !== null ? `HTTP ${d.status}` : `failed: ${sanitizeCell(d.error ?? '')}`;
  const again = d.redelivery ? ' (redelivery)' : '';
  const why = d.parked === 'target-abort' ? 'the target said abort' : d.parked === 'unverified' ? 'its record no longer verifies' : 'attempts used up';
  const next = d.parked ? c.red(`, parked (${why}): webhook replay --failed ${d.parked === 'unverified' ? 'checks' : 'sends'} it`) : `, retrying in ${((d.retryInMs ?? 0) / 1000).toFixed(1)} s`;
  const outcome = d.delivered ? c.green(`-> delivered ${d.status ?? ''}`.trimEnd()) + again : c.red(`-> ${what}`) + again + next;
  return `${clockTime(String(record.time))}  ${[showEventType(d.eventType), cell(d.subject)].join('  ')}  ${outcome}\n`;
}

/**
 * The record of a change of the forward target's state (`webhook listen`):
 * said once when it becomes unreachable and once when it answers again, not
 * per attempt: {time, target: {url, reachable, since, reason, downForMs}}.
 */
export function targetRecord(c: TargetChange, url: string, time: string): Record<string, unknown> {
  return c.reachable
    ? { time, target: { url, reachable: true, since: null, reason: null, downForMs: c.downForMs } }
    : { time, target: { url, reachable: false, since: new Date(c.since).toISOString(), reason: c.reason, downForMs: null } };
}

/** Its line on a terminal. `spooled`: events wait in the spool (else senders get 503 and retry). */
export function targetLine(record: Record<string, unknown>, spooled: boolean, c: Colors): string {
  const t = record.target as { url: string; reachable: boolean; reason: string | null; downForMs: number | null };
  const url = sanitizeCell(t.url);
  if (t.reachable) return `${clockTime(String(record.time))}  ${c.green(`target ${url} answers again (unreachable for ${Math.round((t.downForMs ?? 0) / 1000)} s)`)}\n`;
  const what = spooled ? 'events wait in the spool and are retried until it answers; none is parked for it' : 'senders get 503 and retry';
  return `${clockTime(String(record.time))}  ${c.red(`target ${url} cannot be reached (${sanitizeCell(t.reason ?? '')}):`)} ${what}\n`;
}
