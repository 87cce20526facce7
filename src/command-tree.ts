// Generates the commander tree from the command definitions: flags, arguments,
// help (grouped, wrapped to the terminal, examples last) and the action that
// parses options and runs the command. Only the group named on the command
// line is declared in full, so `partner --help` and a command's start-up do
// not pay for the other seventeen.
import { Command, Option, type Argument } from 'commander';
import { flagName, isGroup, kebab, prepareCommand, type CommandDef, type Flag, type GroupDef, type OutputSpec, type TopLevel } from './command.js';
import { outputItems, renderHelp } from './help.js';
import type { OutputTarget } from './output/options.js';

/** What an action needs from the entry point: it runs the definition with the parsed options. */
export type Runner = (def: CommandDef, opts: unknown, cmd: Command) => Promise<void>;

export interface TreeOptions {
  /** Terminal width for help (80 when not a terminal). */
  width: number;
  runner: Runner;
  /** Called with the raw flags before they are parsed (so a usage error can be reported in the command's error format). */
  beforeParse?: (def: CommandDef, raw: Record<string, unknown>) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stdout and stderr are terminals: the output object's format and error format depend on it. */
  target: OutputTarget;
  /** Every top-level entry, for help. */
  entries: TopLevel[];
  /** Declare every group in full (completion scripts, tests); otherwise only `wanted`. */
  full?: boolean;
  wanted?: string;
}

/** Commander's Command whose help is rendered from the definitions (help.ts), inherited by every subcommand. */
export class PartnerCommand extends Command {
  /** This node's help text; set when it is declared. */
  helpText?: () => string;
  /** The definition of a command node (not of a group), for its error format when commander fails. */
  def?: CommandDef;

  override createCommand(name?: string): Command {
    return new PartnerCommand(name);
  }

  override helpInformation(): string {
    return this.helpText ? this.helpText() : super.helpInformation();
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

/** Commander options for the output flags a command offers, from its output spec: nothing offered that cannot work (the items help lists). */
export function outputFlagOptions(spec: OutputSpec): Option[] {
  return outputItems(spec).map((item) => {
    const o = new Option(item.term.trim(), item.text);
    if (o.long === '--output') o.argChoices = [...spec.formats];
    return o;
  });
}

function declareCommand(parent: Command, def: CommandDef, o: TreeOptions, path: string[]): Command {
  const cmd = parent.command(def.name, { hidden: def.hidden }).description(def.summary) as PartnerCommand;
  cmd.helpText = () => renderHelp({ kind: 'command', def, path }, o.entries, o.width);
  cmd.def = def;
  for (const a of def.aliases ?? []) cmd.alias(a);
  for (const [key, flag] of Object.entries(def.args ?? {})) {
    cmd.argument(argumentSyntax(key, flag), flag.description);
    if (flag.choices) (cmd.registeredArguments.at(-1) as Argument).argChoices = [...flag.choices];
  }
  for (const [key, flag] of Object.entries(def.flags ?? {})) cmd.addOption(optionFor(key, flag));
  if (def.output) for (const opt of outputFlagOptions(def.output)) cmd.addOption(opt);
  cmd.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    o.beforeParse?.(def, self.opts());
    const opts = await prepareCommand(def, self.processedArgs as unknown[], self.opts(), o.env, o.target);
    await o.runner(def, opts, self);
  });
  return cmd;
}

function declareGroup(program: Command, group: GroupDef, o: TreeOptions, full: boolean): Command {
  const cmd = program.command(group.name).description(group.summary) as PartnerCommand;
  cmd.helpText = () => renderHelp({ kind: 'group', group }, o.entries, o.width);
  if (!full) return cmd;
  for (const def of group.commands) declareCommand(cmd, def, o, [group.name, def.name]);
  return cmd;
}

/** Declares the top-level entries under `program`, ordered by help section. */
export function declareTree(program: Command, entries: TopLevel[], o: TreeOptions): void {
  for (const entry of entries) {
    if (isGroup(entry)) declareGroup(program, entry, o, o.full === true || o.wanted === entry.name);
    else declareCommand(program, entry, o, [entry.name]);
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
