// The one place that decides a command's output format. Everything else (the
// output object, the error format of a usage error found before the flags
// parsed, commander's own errors) asks this function.
export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface FormatRule {
  /** The format without -o when the output is a file format whatever stdout is (a CSV template). */
  default?: Format;
  /** The format without -o when the output is not a terminal (default json; ndjson for an endless stream). */
  piped?: 'json' | 'ndjson';
}

/**
 * --jq (or a switch that prints a JSON document, like --dry-run) means JSON; -o wins; then the command's own default; otherwise a table
 * for a person at a terminal and JSON (or the command's piped format) for a
 * pipe or a file (a file is never a terminal).
 */
export function decideFormat(chosen: Format | undefined, jq: boolean, rule: FormatRule, toTerminal: boolean): Format {
  if (jq) return 'json';
  if (chosen !== undefined) return chosen;
  if (rule.default !== undefined) return rule.default;
  return toTerminal ? 'table' : (rule.piped ?? 'json');
}

/** The format named by a raw, not yet validated -o value, if it is one. */
export function knownFormat(raw: unknown): Format | undefined {
  if (typeof raw !== 'string') return undefined;
  return FORMATS.find((f) => f === raw.trim().toLowerCase());
}
