// The output object: what a command's output flags (-o, --fields, -q, --jq,
// --csv-raw) and the terminal resolve to, once, in the shared parse path
// (command.ts), before the command runs or sends anything. Run modules write
// through it (writer.ts) and never decide a format themselves.
import { UsageError } from '../errors.js';
import { parseChoice } from '../options.js';
import { kebab } from '../text/kebab.js';
import { errorFormat, type ErrorFormat } from './error-format.js';
import { checkKnownFields, parseFields } from './fields.js';
import { decideFormat, knownFormat, type Format } from './format.js';

/** What a command prints: the formats it offers, and whether --fields, -q, --jq apply. */
export interface OutputSpec {
  formats: readonly Format[];
  /** -q prints this field of each record (absent: no -q). */
  quiet?: boolean;
  /** --fields picks fields (default true). */
  fields?: boolean;
  /**
   * The top-level fields of the records it prints, known before it runs (the
   * spec's records): an unknown --fields name is a usage error, and help and
   * the manual list them. Dot paths below them are checked against the data.
   */
  recordFields?: readonly string[];
  /** --jq filters the JSON document (default true). */
  jq?: boolean;
  /** The format without -o when the output is a file format whatever stdout is (a CSV template); default: table on a terminal, JSON when piped. */
  default?: Format;
  /** The format without -o when stdout is not a terminal (default json; ndjson for an endless stream of records). */
  piped?: 'json' | 'ndjson';
  /** The key of the command's flag that sends the output to a file (`outputFile`): a file is never a terminal. */
  fileFlag?: string;
  /** The key of a switch whose output is a JSON document whatever the terminal (`dryRun`: the request bodies as they would be sent). */
  jsonFlag?: string;
}

/** Where the output goes, as far as choosing a format is concerned. */
export interface OutputTarget {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

/** The resolved output of one command run (`opts.out`). */
export interface Output {
  format: Format;
  fields?: string[];
  /** Only ids, one per line. */
  quiet: boolean;
  /** Keep formula-like CSV cells as they are. */
  csvRaw: boolean;
  /** --bom: CSV output starts with a UTF-8 byte order mark (files and pipes; never on a terminal). */
  bom: boolean;
  /** A jq filter that compiled, applied to the JSON document. */
  jq?: string;
  /** -o or --jq chose the format (not the terminal or the command's default). */
  chosen: boolean;
  /** The data goes to a file (the command's fileFlag), never a terminal. */
  toFile: boolean;
  /** How errors are printed on stderr (error-format.ts). */
  errors: ErrorFormat;
}

/** -o's format. A file name given to it (`--output out.csv`, a common slip) is pointed to the command's file flag. */
function formatChoice(raw: unknown, spec: OutputSpec): Format | undefined {
  try {
    return parseChoice('--output', raw, spec.formats);
  } catch (err) {
    const text = String(raw).trim();
    if (!(err instanceof UsageError) || spec.fileFlag === undefined || !/[./\\]/.test(text)) throw err;
    throw new UsageError(err.message, `--output is the format; to write to a file, use --${kebab(spec.fileFlag)} ${text.slice(0, 40)} (and -o for its format).`, 'INVALID_OPTION');
  }
}

/** Parses and cross-checks the output flags against what the command offers, and decides the format. Throws UsageError. */
export function resolveOutput(raw: Record<string, unknown>, spec: OutputSpec, target: OutputTarget): Output {
  const chosen = formatChoice(raw.output, spec);
  const jq = raw.jq === undefined ? undefined : String(raw.jq);
  const fields = parseFields(raw.fields as string | undefined);
  const quiet = raw.quiet === true;
  const csvRaw = raw.csvRaw === true;
  const bom = raw.bom === true;
  if (quiet && fields) throw new UsageError('--quiet and --fields cannot be used together', '--quiet prints only ids; drop one of them.');
  if (jq !== undefined) {
    if (jq.trim() === '') throw new UsageError('--jq needs a filter, for example --jq ".[].id"', undefined, 'INVALID_JQ');
    if (quiet) throw new UsageError('--jq and --quiet cannot be used together', '--quiet prints only ids; --jq prints what the filter selects. Drop one of them.');
    if (chosen !== undefined && chosen !== 'json') throw new UsageError(`--jq works on JSON and cannot be used with -o ${chosen}`, 'Drop -o, or use -o json.');
  }
  if (csvRaw && chosen !== undefined && chosen !== 'csv') throw new UsageError(`--csv-raw applies to -o csv, not -o ${chosen}`);
  if (fields && spec.recordFields) checkKnownFields(fields, spec.recordFields);
  const toFile = spec.fileFlag !== undefined && raw[spec.fileFlag] !== undefined;
  const format = decideFormat(chosen, jq !== undefined || jsonForced(raw, spec), spec, target.stdoutIsTTY && !toFile);
  // Decided with the format, before anything is sent: a BOM in JSON (or in jq's or -q's lines) would break their readers.
  if (bom && (format !== 'csv' || quiet)) {
    const instead = jq !== undefined ? '--jq' : quiet ? '--quiet' : chosen !== undefined ? `-o ${chosen}` : `${format} output (the default here)`;
    throw new UsageError(`--bom applies to CSV output only, not ${instead}`, 'Use it with -o csv, or drop --bom.', 'BOM_NOT_CSV');
  }
  return { format, fields, quiet, csvRaw, bom, jq, chosen: chosen !== undefined || jq !== undefined, toFile, errors: errorFormat(format, target.stderrIsTTY) };
}

/**
 * The error format of a usage error found while the flags are parsed (or by
 * commander before them): the format the raw flags ask for, leniently (a bad
 * -o value counts as none), by the same rule.
 */
export function errorFormatOf(raw: Record<string, unknown>, spec: OutputSpec | undefined, target: OutputTarget, jsonFlag?: string): ErrorFormat {
  // No records to print: text, but while a switch makes the command print JSON (CommandDef.jsonFlag).
  if (!spec) return errorFormat(jsonFlag !== undefined && raw[jsonFlag] === true ? 'json' : undefined, target.stderrIsTTY);
  const toFile = spec.fileFlag !== undefined && raw[spec.fileFlag] !== undefined;
  return errorFormat(decideFormat(knownFormat(raw.output), raw.jq !== undefined || jsonForced(raw, spec), spec, target.stdoutIsTTY && !toFile), target.stderrIsTTY);
}

function jsonForced(raw: Record<string, unknown>, spec: OutputSpec): boolean {
  return spec.jsonFlag !== undefined && raw[spec.jsonFlag] === true;
}

/** The asynchronous part of resolving: --jq compiles (jq.ts), or a usage error before anything is sent. */
export async function compileOutput(out: Output | undefined): Promise<void> {
  if (out?.jq !== undefined) await (await import('./jq.js')).checkJqFilter(out.jq);
}

/**
 * The rule for a command line that names no command (an unknown command, a
 * group alone): it is read as a data command would read it, from the output
 * flags among the words typed (-o, --output, --jq), else by where stdout goes.
 */
export function errorFormatOfWords(words: readonly string[], target: OutputTarget): ErrorFormat {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    const [flag, inline] = w.startsWith('--') ? [w.split('=', 1)[0], w.includes('=') ? w.slice(w.indexOf('=') + 1) : undefined] : [w.slice(0, 2), w.length > 2 ? w.slice(2) : undefined];
    if (flag === '-o' || flag === '--output') raw.output = inline ?? words[i + 1];
    if (flag === '--jq') raw.jq = inline ?? words[i + 1] ?? '';
  }
  return errorFormatOf(raw, ANY_DATA_COMMAND, target);
}

const ANY_DATA_COMMAND: OutputSpec = { formats: ['table', 'json', 'ndjson', 'csv'] };
