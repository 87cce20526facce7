// How errors are printed. A person reading stderr gets text, whatever the
// data format; a script (stderr not a terminal) that reads JSON or NDJSON
// from stdout reads one JSON error object from stderr. Kept apart from the
// renderer so the start-up path loads only these few lines.
import type { Format } from './format.js';

export type ErrorFormat = 'text' | 'json';

/** Text whenever stderr is a terminal; JSON only when it is not and the data goes out as JSON or NDJSON. */
export function errorFormat(format: Format | undefined, stderrIsTTY: boolean): ErrorFormat {
  if (stderrIsTTY) return 'text';
  return format === 'json' || format === 'ndjson' ? 'json' : 'text';
}
