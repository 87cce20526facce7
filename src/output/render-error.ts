import { ApiError, CliError, ResponseFormatError } from '../errors.js';
import type { Colors } from './colors.js';
import { sanitizeTerminal } from './sanitize.js';

/**
 * One readable block on stderr for any failure: the message, the API's code
 * and HTTP status, each failing field, the correlation id to quote to
 * support, and what to do next. Stack traces only with --debug, and for bugs.
 */
export function renderError(err: unknown, c: Colors, debug: boolean): string {
  const lines: string[] = [];
  if (err instanceof ApiError) {
    const code = [err.apiCode, `HTTP ${err.status}`].filter(Boolean).join(', ');
    lines.push(`${c.red('Error:')} ${clean(err.message)} (${clean(code)})`);
    for (const d of err.details) lines.push(`  - ${d.field ? `${c.bold(clean(d.field))}: ` : ''}${clean(d.message)}`);
    if (err.excerpt) lines.push(`  Body: ${clean(err.excerpt)}`);
    if (err.path) lines.push(`  Path: ${clean(err.path)}`);
    if (err.correlationId) lines.push(`  Correlation id: ${clean(err.correlationId)} (quote it to support)`);
  } else if (err instanceof ResponseFormatError) {
    lines.push(`${c.red('Error:')} ${clean(err.message)}`);
    if (err.excerpt) lines.push(`  Body: ${clean(err.excerpt)}`);
  } else if (err instanceof CliError) {
    lines.push(`${c.red('Error:')} ${clean(err.message)}`);
  } else {
    const e = err instanceof Error ? err : new Error(String(err));
    lines.push(`${c.red('Error:')} unexpected failure: ${clean(e.message)}`);
    lines.push(debug ? (e.stack ?? '') : 'This is a bug in partner. Run again with --debug for details and report it.');
  }
  if (err instanceof CliError && err.hint) lines.push(c.dim(err.hint));
  if (debug && err instanceof CliError && err.cause instanceof Error && err.cause.stack) lines.push(c.dim(err.cause.stack));
  return `${lines.join('\n')}\n`;
}

function clean(s: string): string {
  return sanitizeTerminal(s);
}
