import { Option, type Command } from 'commander';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { parseFields } from './fields.js';
import { FORMATS, resolveFormat, type Format } from './format.js';
import type { OutputOptions } from './writer.js';

/** The flags every command that prints data shares. */
export interface OutputFlags {
  output?: Format;
  fields?: string[];
  quiet: boolean;
  csvRaw: boolean;
  /** jq filter applied to the JSON document (implies -o json). */
  jq?: string;
}

export function addOutputOptions(cmd: Command, opts: { quiet?: boolean; jq?: boolean } = {}): Command {
  cmd.addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json when piped)').choices([...FORMATS]));
  cmd.option('--fields <list>', 'comma-separated fields or dot paths to show, in order');
  if (opts.quiet !== false) cmd.option('-q, --quiet', 'print only ids, one per line');
  cmd.option('--csv-raw', 'do not neutralise CSV cells that start with = + - @ (spreadsheet formulas)');
  if (opts.jq !== false) cmd.option('--jq <expr>', 'filter the JSON result with jq (embedded, no jq binary needed); one result per line, strings unquoted');
  return cmd;
}

export function parseOutputFlags(raw: Record<string, unknown>): OutputFlags {
  const flags: OutputFlags = {
    output: raw.output as Format | undefined,
    fields: parseFields(raw.fields as string | undefined),
    quiet: Boolean(raw.quiet),
    csvRaw: Boolean(raw.csvRaw),
    jq: raw.jq === undefined ? undefined : String(raw.jq),
  };
  if (flags.quiet && flags.fields) throw new UsageError('--quiet and --fields cannot be used together', '--quiet prints only ids; drop one of them.');
  if (flags.jq !== undefined) {
    if (flags.jq.trim() === '') throw new UsageError('--jq needs a filter, for example --jq ".[].id"', undefined, 'INVALID_JQ');
    if (flags.quiet) throw new UsageError('--jq and --quiet cannot be used together', '--quiet prints only ids; --jq prints what the filter selects. Drop one of them.');
    if (flags.output !== undefined && flags.output !== 'json') throw new UsageError(`--jq works on JSON and cannot be used with -o ${flags.output}`, 'Drop -o, or use -o json.');
  }
  return flags;
}

export function outputOptions(flags: OutputFlags, io: IO): OutputOptions {
  return { format: flags.jq !== undefined ? 'json' : resolveFormat(flags.output, io), fields: flags.fields, quiet: flags.quiet, csvRaw: flags.csvRaw, jq: flags.jq };
}
