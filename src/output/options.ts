import type { OutputSpec } from '../command.js';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { parseChoice } from '../options.js';
import { parseFields } from './fields.js';
import { resolveFormat, type Format } from './format.js';
import type { OutputOptions } from './writer.js';

/** The flags every command that prints data shares (those its OutputSpec offers). */
export interface OutputFlags {
  output?: Format;
  fields?: string[];
  quiet: boolean;
  csvRaw: boolean;
  /** jq filter applied to the JSON document (implies -o json). */
  jq?: string;
}

/** Parses and cross-checks -o, --fields, -q, --jq and --csv-raw against what the command offers. */
export function parseOutputFlags(raw: Record<string, unknown>, spec: OutputSpec = { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true }): OutputFlags {
  const flags: OutputFlags = {
    output: parseChoice('--output', raw.output, spec.formats) ?? (raw.jq === undefined ? spec.default : undefined),
    fields: parseFields(raw.fields as string | undefined),
    quiet: raw.quiet === true,
    csvRaw: raw.csvRaw === true,
    jq: raw.jq === undefined ? undefined : String(raw.jq),
  };
  if (flags.quiet && flags.fields) throw new UsageError('--quiet and --fields cannot be used together', '--quiet prints only ids; drop one of them.');
  if (flags.jq !== undefined) {
    if (flags.jq.trim() === '') throw new UsageError('--jq needs a filter, for example --jq ".[].id"', undefined, 'INVALID_JQ');
    if (flags.quiet) throw new UsageError('--jq and --quiet cannot be used together', '--quiet prints only ids; --jq prints what the filter selects. Drop one of them.');
    if (flags.output !== undefined && flags.output !== 'json') throw new UsageError(`--jq works on JSON and cannot be used with -o ${flags.output}`, 'Drop -o, or use -o json.');
  }
  if (flags.csvRaw && flags.output !== undefined && flags.output !== 'csv') throw new UsageError(`--csv-raw applies to -o csv, not -o ${flags.output}`);
  return flags;
}

/** The resolved format (chosen, implied by --jq, or table on a terminal and JSON, or the spec's piped format, when piped). */
export function outputOptions(flags: OutputFlags, io: IO, piped?: OutputSpec['piped']): OutputOptions {
  return { format: flags.jq !== undefined ? 'json' : resolveFormat(flags.output, io, piped), fields: flags.fields, quiet: flags.quiet, csvRaw: flags.csvRaw, jq: flags.jq };
}
