// Errors follow the data: a script that reads JSON from stdout reads a JSON
// error from stderr. Kept apart from the renderer so the start-up path loads
// only these few lines.
import { FORMATS, type Format } from './format.js';

export type ErrorFormat = 'text' | 'json';

/** JSON errors when the command's data goes out as JSON or NDJSON; text otherwise. */
export function errorFormatFor(format: Format | undefined): ErrorFormat {
  return format === 'json' || format === 'ndjson' ? 'json' : 'text';
}

/**
 * The format a command's data takes, from its raw flags, known before they
 * are validated (so a usage error follows it too): --jq means JSON, -o wins,
 * otherwise JSON when stdout is not a terminal. Undefined for commands that
 * print no data (no -o flag).
 */
export function declaredFormat(raw: Record<string, unknown>, offersOutput: boolean, stdoutIsTTY: boolean): Format | undefined {
  if (!offersOutput) return undefined;
  if (raw.jq !== undefined) return 'json';
  if (typeof raw.output === 'string' && (FORMATS as readonly string[]).includes(raw.output)) return raw.output as Format;
  return stdoutIsTTY ? 'table' : 'json';
}
