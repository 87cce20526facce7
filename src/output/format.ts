import { UsageError } from '../errors.js';
import type { IO } from '../io.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** -o wins; otherwise a table for people at a terminal and JSON for scripts. */
export function resolveFormat(flag: string | undefined, io: IO, piped: Format = 'json'): Format {
  if (flag === undefined) return io.stdoutIsTTY ? 'table' : piped;
  if ((FORMATS as readonly string[]).includes(flag)) return flag as Format;
  throw new UsageError(`Unknown output format "${flag}"`, `Use one of: ${FORMATS.join(', ')}`);
}
