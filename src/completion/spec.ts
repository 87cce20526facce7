// Walks the commander tree (as built by buildProgram) into a plain model of
// what can be completed: commands, flags, which flags take a value, and where
// those values come from (commander choices, the EXTRA_VALUES table, file
// paths for `<path>`/`<file>` arguments). The shell renderers only read this.
import { Help, type Command, type Option } from 'commander';
import { EXTRA_VALUES, type ValueSource } from './values.js';

export type { ValueSource } from './values.js';

export interface OptionSpec {
  long?: string;
  short?: string;
  takesValue: boolean;
  description: string;
  values?: ValueSource;
}

export interface CommandSpec {
  name: string;
  /** Command names from the root (excluded), e.g. ['employees', 'list']. */
  path: string[];
  description: string;
  subcommands: CommandSpec[];
  /** This command's own flags (global ones are in ProgramSpec.globals). */
  options: OptionSpec[];
  /** Value sources of the positional arguments, by index (undefined: free text). */
  args: (ValueSource | undefined)[];
  /** Values of every positional from index `from` on (a variadic argument, table key `#N+`). */
  rest?: { from: number; values: ValueSource };
}

export interface ProgramSpec {
  name: string;
  /** Flags of the root command, accepted at every level. */
  globals: OptionSpec[];
  root: CommandSpec;
}

const help = new Help();

/** The first line of a description, without a trailing period. */
function oneLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function pathKey(path: string[]): string {
  return path.join(' ');
}

function optionSpec(opt: Option, path: string[]): OptionSpec {
  const takesValue = opt.required || opt.optional;
  const extra = opt.long ? EXTRA_VALUES[pathKey(path)]?.[opt.long] : undefined;
  let values: ValueSource | undefined = extra;
  if (!values && opt.argChoices) values = { kind: 'words', words: [...opt.argChoices] };
  // A file path: `--from-file <path>`, `--jwks-file <path>`, `--file <path>` (not `--path <path>`, a URL path).
  if (!values && takesValue && /file/.test(opt.long ?? '') && /<(path|file)>/.test(opt.flags)) values = { kind: 'files' };
  return { long: opt.long, short: opt.short, takesValue, description: oneLine(opt.description), values };
}

function commandSpec(cmd: Command, path: string[], isRoot: boolean): CommandSpec {
  const key = pathKey(path);
  // The root's flags are global (accepted at every level), except --version.
  const options = help
    .visibleOptions(cmd)
    .filter((o) => (isRoot ? o.long === '--version' : o.long !== '--help'))
    .map((o) => optionSpec(o, path));
  const args = cmd.registeredArguments.map((a, i) => EXTRA_VALUES[key]?.[`#${i}`] ?? (a.argChoices ? { kind: 'words' as const, words: [...a.argChoices] } : undefined));
  const subcommands = cmd.commands
    .filter((c) => help.visibleCommands(cmd).includes(c))
    .map((c) => commandSpec(c, [...path, c.name()], false));
  const restKey = Object.keys(EXTRA_VALUES[key] ?? {}).find((k) => /^#\d+\+$/.test(k));
  const rest = restKey ? { from: Number.parseInt(restKey.slice(1), 10), values: EXTRA_VALUES[key]![restKey]! } : undefined;
  return { name: cmd.name(), path, description: oneLine(cmd.description()), subcommands, options, args, rest };
}

/** The completion model of a program. */
export function describeProgram(program: Command): ProgramSpec {
  const globals = help
    .visibleOptions(program)
    .filter((o) => o.long !== '--version')
    .map((o) => optionSpec(o, []));
  return { name: program.name(), globals, root: commandSpec(program, [], true) };
}

/** Every command of the tree, root first, depth first. */
export function allCommands(spec: ProgramSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (c: CommandSpec) => {
    out.push(c);
    c.subcommands.forEach(walk);
  };
  walk(spec.root);
  return out;
}

/** The flag spellings of an option: ['-o', '--output']. */
export function flagNames(o: OptionSpec): string[] {
  return [o.short, o.long].filter((f): f is string => f !== undefined);
}

/** The words a value source offers when they are known at generation time ('commands' resolved). */
export function staticWords(spec: ProgramSpec, v: ValueSource): readonly string[] | undefined {
  if (v.kind === 'words' || v.kind === 'list') return v.words;
  if (v.kind === 'commands') return spec.root.subcommands.map((c) => c.name);
  return undefined;
}

/** Whether a value source completes a comma-separated list. */
export function isList(v: ValueSource): boolean {
  return v.kind === 'list';
}
