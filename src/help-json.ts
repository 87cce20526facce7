// `partner help -o json`: the command tree as one document for scripts and
// agents, generated from the same definitions as the help text (command.ts
// defineCommand, globals.ts, help.ts outputItems), so the two cannot drift.
// The shape is versioned by `schemaVersion`; fields are only added within a
// version.
import { flagName, HELP_SECTIONS, isGroup, kebab, type CommandDef, type Flag, type OutputSpec, type TopLevel } from './command.js';
import { GLOBAL_FLAG_NAMES, GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS } from './commands/globals.js';
import { ExitCode } from './errors.js';
import { flagDefaultText, flagEnv, outputItems, PROGRAM_SUMMARY } from './help.js';
import { packageVersion } from './version.js';

export const HELP_SCHEMA_VERSION = 1;

/** What each exit code means (the help's exit-code text, as data). */
const EXIT_MEANINGS: Record<number, string> = {
  [ExitCode.OK]: 'ok',
  [ExitCode.FAILURE]: 'failure (network, server, integrity of an export, a file)',
  [ExitCode.USAGE]: 'usage error: a flag, argument or path was refused; nothing was sent',
  [ExitCode.NOT_AUTHENTICATED]: 'not authenticated (no token, or the API answered 401)',
  [ExitCode.FORBIDDEN]: 'forbidden (403)',
  [ExitCode.NOT_FOUND]: 'not found (404, or an employee that does not exist)',
  [ExitCode.CONFLICT]: 'conflict (409)',
  [ExitCode.REJECTED]: 'rejected by the server (400, 422)',
  [ExitCode.VERIFICATION_FAILED]: 'webhook verification failed',
  [ExitCode.INTERRUPTED]: 'interrupted (Ctrl-C)',
};

export interface FlagDoc {
  name: string;
  short: string | null;
  /** boolean (a switch, or a --no-… that is true unless given), integer, number, string, or string[] (repeatable). */
  type: 'boolean' | 'integer' | 'number' | 'string' | 'string[]';
  placeholder: string | null;
  description: string;
  choices: string[] | null;
  /** The value when the flag is not given (null: none, or one that depends on other flags: see defaultText). */
  default: unknown;
  /** The default as the help and the manual state it ("20; 100 with --all"; a switch: off), null when none is stated. */
  defaultText: string | null;
  /** The environment variable the flag can come from (null: none). */
  env: string | null;
  repeatable: boolean;
}

export interface ArgumentDoc {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  choices: string[] | null;
}

export interface CommandDoc {
  /** The words after `partner`: ["employees", "list"]. */
  path: string[];
  name: string;
  summary: string;
  details: string | null;
  section: string;
  aliases: string[];
  usage: string;
  /** Calls the API with the profile's token. */
  needsToken: boolean;
  arguments: ArgumentDoc[];
  flags: FlagDoc[];
  /** null when the command prints no data of its own. */
  output: { formats: string[]; default: string | null; piped: string; fields: boolean; quiet: boolean; jq: boolean; recordFields: string[] | null; flags: FlagDoc[] } | null;
  exitCodes: number[];
  examples: string[];
}

export interface HelpDocument {
  schemaVersion: number;
  program: 'partner';
  version: string;
  summary: string;
  sections: string[];
  globalFlags: FlagDoc[];
  exitCodes: { code: number; meaning: string }[];
  commands: CommandDoc[];
}

function typeOf(flag: Flag<unknown>, name: string): FlagDoc['type'] {
  if (flag.kind === 'switch' || flag.kind === 'negated') return 'boolean';
  if (flag.kind === 'repeat') return 'string[]';
  if (flag.choices) return 'string';
  try {
    const v = flag.parse('1', name);
    if (typeof v === 'number') return flag.placeholder === 'n' ? 'integer' : 'number';
  } catch {
    // Not a number: a string with rules of its own (a UUID, a URL).
  }
  return 'string';
}

/** The value of a flag not given, from its own parser (a required argument throws: no default). */
function defaultOf(flag: Flag<unknown>, name: string): unknown {
  try {
    const v = flag.parse(undefined, name);
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) return v;
  } catch {
    return null;
  }
  // Applied by the command, and stated as a plain number in the description ("(default: 8)").
  const stated = flagDefaultText(flag);
  const type = typeOf(flag, name);
  return stated !== undefined && /^\d+(?:\.\d+)?$/.test(stated) && (type === 'integer' || type === 'number') ? Number(stated) : null;
}

function flagDoc(key: string, flag: Flag<unknown>): FlagDoc {
  const name = flagName(key, flag);
  return {
    name,
    short: flag.short ?? null,
    type: typeOf(flag, name),
    placeholder: flag.kind === 'value' || flag.kind === 'repeat' ? (flag.placeholder ?? 'value') : null,
    description: flag.description,
    choices: flag.choices ? [...flag.choices] : null,
    default: defaultOf(flag, name),
    defaultText: flagDefaultText(flag) ?? null,
    env: flagEnv(flag.description) ?? null,
    repeatable: flag.kind === 'repeat',
  };
}

/** The output flags (-o, --fields, -q, --jq, --csv-raw) from the items the help lists. */
function outputFlagDocs(spec: OutputSpec): FlagDoc[] {
  return outputItems(spec).map((item) => {
    const m = /^(?:-(\w), )?\s*(--[\w-]+)(?: <(\w+)>)?$/.exec(item.term.trim())!;
    const name = m[2]!;
    return {
      name,
      short: m[1] ?? null,
      type: m[3] ? 'string' : 'boolean',
      placeholder: m[3] ?? null,
      description: item.text,
      choices: name === '--output' ? [...spec.formats] : null,
      default: name === '--output' ? (spec.default ?? null) : m[3] ? null : false,
      defaultText: flagDefaultText({ description: item.text, kind: m[3] ? 'value' : 'switch' }) ?? null,
      env: null,
      repeatable: false,
    };
  });
}

function exitCodesOf(def: CommandDef, path: string[]): number[] {
  const codes: number[] = [ExitCode.OK, ExitCode.FAILURE, ExitCode.USAGE];
  if (def.needsToken !== false) codes.push(ExitCode.NOT_AUTHENTICATED, ExitCode.FORBIDDEN, ExitCode.NOT_FOUND, ExitCode.CONFLICT, ExitCode.REJECTED);
  if (path.join(' ') === 'webhook verify') codes.push(ExitCode.VERIFICATION_FAILED);
  codes.push(ExitCode.INTERRUPTED);
  return codes;
}

function commandDoc(def: CommandDef, path: string[], section: string): CommandDoc {
  const args = Object.entries(def.args ?? {});
  const usageArgs = args.map(([k, a]) => {
    const n = kebab(k) + (a.variadic ? '...' : '');
    return a.optional || a.variadic ? `[${n}]` : `<${n}>`;
  });
  const o = def.output;
  return {
    path,
    name: path.join(' '),
    summary: def.summary,
    details: def.details?.trim() ?? null,
    section,
    aliases: def.aliases ?? [],
    usage: ['partner', ...path, ...usageArgs, '[flags]'].join(' '),
    needsToken: def.needsToken !== false,
    arguments: args.map(([k, a]) => ({ name: kebab(k), description: a.description, required: !a.optional && !a.variadic, variadic: a.variadic === true, choices: a.choices ? [...a.choices] : null })),
    flags: Object.entries(def.flags ?? {}).map(([k, f]) => flagDoc(k, f)),
    output: o
      ? {
          formats: [...o.formats],
          default: o.default ?? null,
          piped: o.piped ?? 'json',
          fields: o.fields !== false,
          quiet: o.quiet === true,
          jq: o.jq !== false,
          recordFields: o.recordFields ? [...o.recordFields] : null,
          flags: outputFlagDocs(o),
        }
      : null,
    exitCodes: exitCodesOf(def, path),
    examples: def.examples ?? [],
  };
}

/** The whole tree (hidden commands left out, as in the help), or the commands under `words` (`help employees -o json`). */
export function helpDocument(entries: TopLevel[], words: string[] = []): HelpDocument {
  const commands: CommandDoc[] = [];
  for (const e of entries) {
    if (e.hidden) continue;
    if (isGroup(e)) for (const c of e.commands) if (!c.hidden) commands.push(commandDoc(c, [e.name, c.name], e.section));
    if (!isGroup(e)) commands.push(commandDoc(e, [e.name], e.section));
  }
  return {
    schemaVersion: HELP_SCHEMA_VERSION,
    program: 'partner',
    version: packageVersion(),
    summary: PROGRAM_SUMMARY,
    sections: [...HELP_SECTIONS],
    globalFlags: Object.entries(GLOBAL_FLAGS).map(([k, f]) => flagDoc(k, f as Flag<unknown>)),
    exitCodes: Object.entries(EXIT_MEANINGS).map(([code, meaning]) => ({ code: Number(code), meaning })),
    commands: commands.filter((c) => words.every((w, i) => c.path[i] === w)),
  };
}

/**
 * `partner help [command...] -o json` (or --output=json): the words, when argv asks
 * for it; undefined otherwise (the text help, or commander, answers).
 */
export function helpJsonRequest(argv: string[]): string[] | undefined {
  // Global flags may come first (`partner --sandbox help -o json`).
  let start = 0;
  while (start < argv.length && GLOBAL_FLAG_NAMES.has(argv[start]!.split('=')[0]!)) start += !argv[start]!.includes('=') && GLOBAL_VALUE_FLAGS.has(argv[start]!) ? 2 : 1;
  if (argv[start] !== 'help') return undefined;
  const words: string[] = [];
  let json = false;
  for (let i = start + 1; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '-o' || a === '--output') && argv[i + 1] === 'json') {
      json = true;
      i++;
    } else if (a === '-o=json' || a === '--output=json' || a === '-ojson') json = true;
    else if (a.startsWith('-')) return undefined;
    else words.push(a);
  }
  return json ? words : undefined;
}
