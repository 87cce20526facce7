// How verdicts look: a block for one webhook on a terminal, one line per
// webhook for --file and `webhook listen`, and the JSON document.
// Everything from the webhook is untrusted and sanitised.
import type { Colors } from '../output/colors.js';
import { sanitizeCell } from '../output/sanitize.js';
import { renderKeyValue } from '../output/table.js';
import { POST_SIGNATURE_REASONS, type Verdict } from './verify.js';

/** The machine-readable verdict: {valid, reason, kid, header, payload, warnings} and a few more facts. */
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

/** One line per webhook: verdict, event type, subject, status (or the reason). */
export function verdictLine(v: Verdict, c: Colors, prefix = ''): string {
  if (v.valid) {
    const warn = v.warnings.length > 0 ? c.yellow(`  (${v.warnings.length} warning${v.warnings.length > 1 ? 's' : ''}: ${sanitizeCell(v.warnings[0]!)})`) : '';
    return `${prefix}${c.green('VALID  ')}  ${showEventType(v.eventType)}  ${cell(v.subject)}  ${cell(v.status)}  kid=${cell(v.kid)}${warn}\n`;
  }
  return `${prefix}${c.red('INVALID')}  ${v.reason}  ${sanitizeCell(v.message ?? '')}\n`;
}
