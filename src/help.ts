// Help, rendered from the command definitions (no commander): the root with
// its commands grouped by section and the global options listed once; a
// group with its commands; a command with its arguments, flags, the global
// flags that matter for it and a pointer to the rest, details and examples; a
// topic (help-topics.ts). Everything wraps to the terminal width at word
// boundaries. `partner --help` and `<command> --help`
// are answered from here before commander is loaded at all.
import { flagName, HELP_SECTIONS, isGroup, kebab, type CommandDef, type Flag, type GroupDef, type OutputSpec, type TopLevel } from './command.js';
import { GLOBAL_FLAG_NAMES, GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS } from './commands/globals.js';
import { HELP_SUMMARY } from './commands/help.js';
import { EXIT_CODE_LIST, findTopic, HELP_TOPICS, type HelpTopic } from './help-topics.js';
import { wrapText } from './text/wrap.js';

export const PROGRAM_SUMMARY = 'Work with the Partner Employee Management API: look up and export employees, onboard GP employees, verify webhooks.';

const ROOT_EXAMPLES = [
  'partner --sandbox employees list           # try it with no account',
  'partner auth login --base-url https://api.example.com',
  'partner employees list --all -o csv > employees.csv',
  'partner help employees list',
];

const EXIT_CODES = `Exit codes: ${EXIT_CODE_LIST.map(([code, text]) => `${code} ${text.split(/[:(]| not covered/)[0]!.trim()}`).join(', ')} (partner help exit-codes).`;

/** The global flags shown on the help of a command that calls the API; the others are one `partner help globals` away. */
export const API_GLOBALS = ['sandbox', 'profile', 'baseUrl', 'timeout', 'debug'] as const;

export type HelpTarget = { kind: 'root' } | { kind: 'help' } | { kind: 'group'; group: GroupDef } | { kind: 'command'; def: CommandDef; path: string[] } | { kind: 'topic'; topic: HelpTopic };

interface Item {
  term: string;
  text: string;
}

/** Two columns: terms padded to the widest (at most 30), descriptions wrapped under themselves. */
function items(list: Item[], width: number): string {
  const termWidth = Math.min(30, Math.max(...list.map((i) => i.term.length)));
  return list
    .map((i) => {
      const pad = 2 + termWidth + 2;
      const term = `  ${i.term}`;
      const first = term.length > termWidth + 2 ? `${term}\n${' '.repeat(pad)}` : term.padEnd(pad);
      const wrapped = wrapText(`${' '.repeat(pad)}${i.text}`, width).slice(pad);
      return first + wrapped;
    })
    .join('\n');
}

export function flagTerm(key: string, flag: Flag<unknown>): string {
  const value = flag.kind === 'value' || flag.kind === 'repeat' ? ` <${flag.placeholder ?? 'value'}>` : '';
  return `${flag.short ? `-${flag.short}, ` : '    '}${flagName(key, flag)}${value}`;
}

function flagText(flag: Flag<unknown>): string {
  const choices = flag.choices ? ` (one of: ${flag.choices.join(', ')})` : '';
  const repeat = flag.kind === 'repeat' ? ' (repeatable)' : '';
  return `${flag.description}${choices}${repeat}`;
}

/**
 * The default a flag's description states ("(default: 30)", "(default 20; 100
 * with --all)"), or what a switch implies (off; a --no-… flag: on). One
 * reading for the manual and `help -o json`.
 */
export function flagDefaultText(flag: Pick<Flag<unknown>, 'description' | 'kind'>): string | undefined {
  const stated = /\(default:? ([^)]*)\)/.exec(flag.description)?.[1];
  return stated ?? (flag.kind === 'switch' ? 'off' : flag.kind === 'negated' ? 'on' : undefined);
}

/** The environment variable a flag's description names, as every description states it: "(env PARTNER_PROFILE)", "(also NO_COLOR)". One reading for the manual and `help -o json`. */
export function flagEnv(description: string): string | undefined {
  return /\((?:env|also) ([A-Z][A-Z0-9_]*)(?:=[^)]*)?\)/.exec(description)?.[1];
}

/** The output flags a command offers, as help items (the same list command-tree declares). */
export function outputItems(spec: OutputSpec): Item[] {
  const f = spec.formats;
  const out: Item[] = [{ term: '-o, --output <format>', text: `output format: ${f.join(', ')} (default: ${spec.default ?? `${f.includes('table') ? 'table on a terminal, ' : ''}${spec.piped ?? 'json'} when piped`})` }];
  if (spec.fields !== false) out.push({ term: '    --fields <list>', text: `comma-separated fields or dot paths to show, in order${spec.recordFields ? ` (the fields of each record: ${spec.recordFields.join(', ')})` : ''}` });
  if (spec.quiet) out.push({ term: '-q, --quiet', text: 'print only ids, one per line' });
  // A stream with no whole result (no json format: `webhook listen`) filters each record as it comes.
  const jqText = f.includes('json') ? 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)' : 'filter each record with jq (built in) as it is printed, as jq does over NDJSON; one result per line, strings unquoted';
  if (spec.jq !== false) out.push({ term: '    --jq <expr>', text: jqText });
  if (f.includes('csv')) out.push({ term: '    --csv-raw', text: 'keep CSV cells as they are: no leading \' before = + - @, control characters not made visible' });
  if (f.includes('csv')) out.push({ term: '    --bom', text: 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)' });
  return out;
}

function globalItems(): Item[] {
  return [...Object.entries(GLOBAL_FLAGS).map(([k, f]) => ({ term: flagTerm(k, f), text: flagText(f) })), { term: '-h, --help', text: 'show help for a command' }];
}

/** The global flags named on a command's help: those that matter when it calls the API (none otherwise). */
export function commandGlobals(def: CommandDef): string[] {
  if (def.needsToken === false) return [];
  return API_GLOBALS.map((k) => flagName(k, GLOBAL_FLAGS[k]));
}

/** The one line that replaces the global flags on a command's help. */
export function globalsPointer(def: CommandDef): string {
  const named = commandGlobals(def);
  return named.length ? `Global flags: ${named.join(', ')} and more (partner help globals).` : 'Global flags: partner help globals.';
}

export function renderTopic(topic: HelpTopic, width: number): string {
  let out = `${wrapText(capitalise(topic.summary), width)}\n\n${wrapText(topic.body, width)}\n`;
  if (topic.name === 'globals') out += `\n${items([...globalItems(), { term: '-V, --version', text: 'print the version (`partner version` adds Node.js and the platform)' }], width)}\n`;
  return out;
}

function examples(list: string[] | undefined, width: number): string {
  if (!list?.length) return '';
  return `\nExamples:\n${list.map((e) => wrapText(`  $ ${e}`, width, { shell: true })).join('\n')}\n`;
}

export function usageOf(def: CommandDef, path: string[]): string {
  const args = Object.entries(def.args ?? {}).map(([k, a]) => {
    const name = kebab(k) + (a.variadic ? '...' : '');
    return a.optional || a.variadic ? `[${name}]` : `<${name}>`;
  });
  return ['partner', ...path, ...args, '[flags]'].join(' ');
}

export function renderHelp(target: HelpTarget, entries: TopLevel[], width: number): string {
  const w = Math.max(40, width);
  if (target.kind === 'root') {
    let out = `${wrapText(PROGRAM_SUMMARY, w)}\n\nUsage:\n  partner <command> [flags]\n`;
    for (const section of HELP_SECTIONS) {
      const inSection = entries.filter((e) => e.section === section && !('hidden' in e && e.hidden));
      if (inSection.length === 0) continue;
      const list = inSection.map((e) => ({ term: e.name, text: e.summary }));
      if (section === 'Setup') list.push({ term: 'help', text: HELP_SUMMARY });
      out += `\n${section}:\n${items(list, w)}\n`;
    }
    out += `\nGlobal flags:\n${items([...globalItems(), { term: '-V, --version', text: 'print the version (`partner version` adds Node.js and the platform)' }], w)}\n`;
    out += `\nHelp topics:\n${items(HELP_TOPICS.map((t) => ({ term: t.name, text: t.summary })), w)}\n`;
    out += examples(ROOT_EXAMPLES, w);
    return `${out}\n${wrapText(EXIT_CODES, w)}\n${wrapText("Learn more: partner help <command> (or partner <command> --help), partner help <topic>.", w)}\n`;
  }
  if (target.kind === 'group') {
    const g = target.group;
    let out = `${wrapText(capitalise(g.summary), w)}\n\nUsage:\n  partner ${g.name} <command> [flags]\n`;
    out += `\nCommands:\n${items(g.commands.filter((c) => !c.hidden).map((c) => ({ term: c.name, text: c.summary })), w)}\n`;
    out += examples(g.examples, w);
    return `${out}\nGlobal flags: partner help globals.\n`;
  }
  if (target.kind === 'topic') return renderTopic(target.topic, w);
  if (target.kind === 'help') return renderHelpOfHelp(w);
  const { def, path } = target;
  let out = `${wrapText(capitalise(def.summary), w)}\n\nUsage:\n  ${usageOf(def, path)}\n`;
  const args = Object.entries(def.args ?? {});
  if (args.length) out += `\nArguments:\n${items(args.map(([k, a]) => ({ term: kebab(k), text: flagText(a) })), w)}\n`;
  const flags = [...Object.entries(def.flags ?? {}).map(([k, f]) => ({ term: flagTerm(k, f), text: flagText(f) })), ...(def.output ? outputItems(def.output) : [])];
  if (flags.length) out += `\nFlags:\n${items(flags, w)}\n`;
  if (def.details) out += `\n${wrapText(def.details.trim(), w)}\n`;
  out += examples(def.examples, w);
  return `${out}\n${wrapText(globalsPointer(def), w)}\n`;
}

/** `partner help help`: the help command is commander's own (commands/help.ts), not a definition; its page is here. */
function renderHelpOfHelp(w: number): string {
  const flags = [
    { term: '-o, --output <format>', text: 'json: the command tree as one JSON document' },
    { term: '    --jq <expr>', text: 'filter the JSON document with jq (built in)' },
  ];
  let out = `${wrapText(capitalise(HELP_SUMMARY), w)}\n\nUsage:\n  partner help [command...] [flags]\n\nFlags:\n${items(flags, w)}\n`;
  out += `\nHelp topics:\n${items(HELP_TOPICS.map((t) => ({ term: t.name, text: t.summary })), w)}\n`;
  return out + examples(['partner help employees list', 'partner help environment', 'partner help gp -o json'], w);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * What `argv` asks help for, when it does (`--help`/`-h` anywhere before
 * `--`, or `help [command...]`) and every word names a command; undefined
 * otherwise (commander then parses and reports).
 */
export function helpRequest(argv: string[], entries: TopLevel[]): HelpTarget | undefined {
  const words: string[] = [];
  let asked = false;
  let flagsStarted = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--help' || a === '-h') asked = true;
    else if (a.startsWith('-')) {
      if (!a.includes('=') && GLOBAL_VALUE_FLAGS.has(a)) i++;
      // After a command's own flag, a word may be that flag's value: the command path is complete.
      else if (!GLOBAL_FLAG_NAMES.has(a.split('=')[0]!)) flagsStarted = true;
    } else if (!flagsStarted) words.push(a);
  }
  if (words[0] === 'help') {
    // `partner help` with a flag of its own (`--jq`, `-o table`, a typo) is commander's to parse and
    // refuse; `-o json` alone was answered before (help-json.ts).
    if (flagsStarted) return undefined;
    asked = true;
    words.shift();
    if (words.length === 1 && words[0] === 'help') return { kind: 'help' };
  }
  // `partner` alone, or a group alone (`partner employees`), shows its help, as gh does.
  const bare = !flagsStarted && words.length <= 1 && (words.length === 0 || entries.some((e) => e.name === words[0] && isGroup(e)));
  if (!asked && !bare) return undefined;
  if (words.length === 0) return { kind: 'root' };
  const topic = findTopic(words[0]!);
  if (topic && words.length === 1) return { kind: 'topic', topic };
  const top = entries.find((e) => e.name === words[0] && !('hidden' in e && e.hidden));
  if (!top) return undefined;
  // Words after the command path are its arguments.
  if (!isGroup(top)) return { kind: 'command', def: top, path: [top.name] };
  if (words.length === 1) return { kind: 'group', group: top };
  const def = top.commands.find((c) => c.name === words[1]);
  return def ? { kind: 'command', def, path: [top.name, def.name] } : undefined;
}
