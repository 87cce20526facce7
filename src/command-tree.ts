// Generates the commander tree from the command definitions: flags, arguments,
// help (grouped, wrapped to the terminal, examples last) and the action that
// parses options and runs the command. Only the group named on the command
// line is declared in full, so `partner --help` and a command's start-up do
// not pay for the other seventeen.
import { Command, Help, Option, type Argument } from 'commander';
import { flagName, HELP_SECTIONS, isGroup, kebab, parseCommand, type CommandDef, type Flag, type GroupDef, type OutputSpec, type TopLevel } from './command.js';
import { wrapText } from './text/wrap.js';
import type { OutputFlags } from './output/options.js';

/** What an action needs from the entry point: it runs the definition with the parsed options. */
export type Runner = (def: CommandDef, opts: unknown, cmd: Command) => Promise<void>;

export interface TreeOptions {
  /** Terminal width for help (80 when not a terminal). */
  width: number;
  runner: Runner;
  env: NodeJS.ProcessEnv;
  parseOutput: (raw: Record<string, unknown>, spec: OutputSpec) => OutputFlags;
  /** Declare every group in full (completion scripts, tests); otherwise only `wanted`. */
  full?: boolean;
  wanted?: string;
}

class PartnerHelp extends Help {
  // Global options: once on `partner --help` (the root's own, titled there);
  // on a leaf command as inherited flags; never repeated on a group's help.
  override visibleGlobalOptions(cmd: Command) {
    return cmd.commands.length > 0 ? [] : super.visibleGlobalOptions(cmd);
  }

  override formatItemList(heading: string, items: string[], helper: Help): string[] {
    return super.formatItemList(heading === 'Global Options:' ? 'Global options (inherited):' : heading, items, helper);
  }
}

/** Commander's Command with our help layout, inherited by every subcommand. */
export class PartnerCommand extends Command {
  override createCommand(name?: string): Command {
    return new PartnerCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new PartnerHelp(), this.configureHelp());
  }
}

export function optionFor(key: string, flag: Flag<unknown>, prefix = ''): Option {
  const long = flagName(key, flag);
  const value = flag.kind === 'value' || flag.kind === 'repeat' ? ` <${flag.placeholder ?? 'value'}>` : '';
  const opt = new Option(`${flag.short ? `-${flag.short}, ` : ''}${prefix}${long}${value}`, flag.description);
  // Shown in help and read by the completion model; validated by the flag's own parse, in one place.
  if (flag.choices) opt.argChoices = [...flag.choices];
  if (flag.kind === 'repeat') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
  return opt;
}

function argumentSyntax(key: string, flag: Flag<unknown>): string {
  const name = kebab(key) + (flag.variadic ? '...' : '');
  return flag.optional || flag.variadic ? `[${name}]` : `<${name}>`;
}

/** The output flags a command offers, from its output spec: nothing offered that cannot work. */
export function outputOptions(spec: OutputSpec): Option[] {
  const opts: Option[] = [];
  const formats = spec.formats;
  const o = new Option('-o, --output <format>', `output format: ${formats.join(', ')} (default: ${formats.includes('table') ? 'table on a terminal, ' : ''}json when piped)`);
  o.argChoices = [...formats];
  opts.push(o);
  if (spec.fields !== false) opts.push(new Option('--fields <list>', 'comma-separated fields or dot paths to show, in order'));
  if (spec.quiet) opts.push(new Option('-q, --quiet', 'print only ids, one per line'));
  if (spec.jq !== false) opts.push(new Option('--jq <expr>', 'filter the JSON result with jq (built in); one result per line, strings unquoted'));
  if (formats.includes('csv')) opts.push(new Option('--csv-raw', 'keep CSV cells that start with = + - @ as they are (no formula protection)'));
  return opts;
}

/** Help text after the flags: the details, then examples, wrapped to the width. */
function afterText(details: string | undefined, examples: string[] | undefined, width: number): string {
  let text = '';
  if (details) text += `\n${wrapText(details.trim(), width)}\n`;
  if (examples?.length) text += `\nExamples:\n${examples.map((e) => wrapText(`  $ ${e}`, width, { shell: true })).join('\n')}\n`;
  return text;
}

function declareCommand(parent: Command, def: CommandDef, o: TreeOptions): Command {
  const cmd = parent.command(def.name, { hidden: def.hidden }).description(def.summary);
  for (const a of def.aliases ?? []) cmd.alias(a);
  for (const [key, flag] of Object.entries(def.args ?? {})) {
    cmd.argument(argumentSyntax(key, flag), flag.description);
    if (flag.choices) (cmd.registeredArguments.at(-1) as Argument).argChoices = [...flag.choices];
  }
  for (const [key, flag] of Object.entries(def.flags ?? {})) cmd.addOption(optionFor(key, flag));
  if (def.output) for (const opt of outputOptions(def.output)) cmd.addOption(opt);
  cmd.addHelpText('after', () => afterText(def.details, def.examples, o.width));
  cmd.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    const opts = parseCommand(def, self.processedArgs as unknown[], self.opts(), o.env, o.parseOutput);
    await o.runner(def, opts, self);
  });
  return cmd;
}

function declareGroup(program: Command, group: GroupDef, o: TreeOptions, full: boolean): Command {
  const cmd = program.command(group.name).description(group.summary).helpGroup(`${group.section}:`);
  if (!full) return cmd;
  for (const def of group.commands) declareCommand(cmd, def, o);
  cmd.addHelpText('after', () => afterText(undefined, group.examples, o.width));
  return cmd;
}

/** Declares the top-level entries under `program`, ordered by help section. */
export function declareTree(program: Command, entries: TopLevel[], o: TreeOptions): void {
  program.configureHelp({ sortSubcommands: false, showGlobalOptions: true });
  const sorted = [...entries].sort((a, b) => HELP_SECTIONS.indexOf(a.section) - HELP_SECTIONS.indexOf(b.section));
  for (const entry of sorted) {
    if (isGroup(entry)) declareGroup(program, entry, o, o.full === true || o.wanted === entry.name);
    else declareCommand(program, entry, o).helpGroup(`${entry.section}:`);
  }
}

/**
 * The command word of argv (skipping global flags and their values), and the
 * one after it for `partner help <group>`: the group to declare in full.
 */
export function wantedGroup(argv: string[], valueFlags: Set<string>): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (!a.includes('=') && valueFlags.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words[0] === 'help' ? words[1] : words[0];
}
