// A command is one typed definition (this module's `defineCommand`) plus a
// plain `run(options, ctx)` in a module of its own. The definition is data:
// name, summary, flags, arguments, output formats, examples, whether it needs
// a token. From it, command-tree.ts generates the commander declaration, the
// help and (through commander) the completion model, and `parseCommand` turns
// what commander collected into a typed, validated options object. Validation
// lives here and in the flag builders (flags.ts), nowhere else: `run` never
// sees a raw string.
import type { Context } from './context.js';
import { compileOutput, resolveOutput, type Output, type OutputSpec, type OutputTarget } from './output/options.js';
import { checkFiles, type FileRole, type NamedFile } from './config/own-files.js';
import { kebab } from './text/kebab.js';
import type { WorkerRule } from './worker-rule.js';

export { kebab };

export type { OutputSpec } from './output/options.js';

/** One flag or positional argument: how it is shown, and how its raw value becomes a typed one. */
export interface Flag<T> {
  /** value: `--x <v>`; switch: `--x`; negated: `--no-x` (true unless given); repeat: `--x <v>` any number of times. */
  kind: 'value' | 'switch' | 'negated' | 'repeat';
  description: string;
  /** The value's name in help: `--page <n>`. */
  placeholder?: string;
  short?: string;
  /** Allowed values, shown in help and completed by the shells (validated by `parse`). */
  choices?: readonly string[];
  /** Positional only: may be omitted. Variadic: the last argument takes the rest. */
  optional?: boolean;
  variadic?: boolean;
  /** Turns what was typed (undefined when absent) into the typed value, or throws a UsageError naming `name`. */
  parse(raw: unknown, name: string): T;
  /**
   * A flag that names files: whether the command reads or writes them, and
   * for a compound value (`-F key=@file`) which paths its parsed value names.
   * Every file flag goes through config/own-files.ts before `refine` and `run`.
   */
  file?: { role: FileRole; paths?(value: T): string[] };
}

export type Flags = Record<string, Flag<unknown>>;
export type FlagValues<F> = { [K in keyof F]: F[K] extends Flag<infer V> ? V : never };

export interface CommandModule<O = never> {
  run(opts: O, ctx: Context): Promise<number | void>;
}

export interface CommandDef {
  name: string;
  summary: string;
  /** Text after the flags in help: behaviour, formats, exit codes. */
  details?: string;
  aliases?: string[];
  hidden?: boolean;
  /** Positional arguments, in order. */
  args?: Flags;
  flags?: Flags;
  output?: OutputSpec;
  /**
   * For a command with no `output`: the switch that makes it print a JSON
   * document (`dynamic-details submit --dry-run`). Its errors then follow the
   * rule of the output contract as a JSON command's do.
   */
  jsonFlag?: string;
  /** Shell lines that run against the sandbox, each optionally followed by `  # comment`. */
  examples?: string[];
  /** Calls the API with the profile's token (default true): what `ctx.http()` checks. */
  needsToken?: boolean;
  /**
   * false: never through a pager, even on a terminal: the command prompts
   * while it prints (the wizard), or prints for as long as it runs (a listener).
   */
  pager?: false;
  /**
   * A long-running service (`webhook listen`): SIGTERM is its normal stop,
   * not an interruption: the command winds down within graceMs and exits
   * with its own code (0). Ctrl-C still interrupts (130).
   */
  service?: { graceMs: number };
  /**
   * When this command's work is long and allocates without end (an export of
   * every page, a bulk sheet): then it runs on a worker thread with a bounded
   * young generation (command-worker.ts), where there is one. Data, over the
   * flags as typed, so the launcher can read it too (worker-rule.ts).
   */
  worker?: WorkerRule;
  /** Cross-flag rules and derived values of the command's own flags, after every flag parsed on its own. Throws UsageError. */
  refine?: (parsed: never, env: NodeJS.ProcessEnv) => unknown;
  /** The run module, imported only when the command runs (typed by OptionsOf in that module). */
  load: () => Promise<unknown>;
  /** Carries the options type of `run`; never set. */
  readonly __options?: unknown;
}

/** With an output spec, the resolved output object (`opts.out`), added after `refine`. */
export type WithOutput<O> = O extends OutputSpec ? { out: Output } : unknown;
/** What `refine` receives: flags and arguments typed, and the output object when offered (for cross-checks only). */
export type Parsed<F, A, O> = FlagValues<F> & FlagValues<A> & WithOutput<O>;
export type OptionsOf<D> = D extends { readonly __options?: infer R } ? R : never;

/**
 * Declares a command. The type parameters are inferred from the literal, so
 * `OptionsOf<typeof def>` is exactly what its run module receives.
 */
export function defineCommand<F extends Flags = Record<never, never>, A extends Flags = Record<never, never>, O extends OutputSpec | undefined = undefined, R = Parsed<F, A, O>>(def: {
  name: string;
  summary: string;
  details?: string;
  aliases?: string[];
  hidden?: boolean;
  args?: A;
  flags?: F;
  output?: O;
  jsonFlag?: keyof F & string;
  examples?: string[];
  needsToken?: boolean;
  pager?: false;
  service?: { graceMs: number };
  worker?: WorkerRule & { anyOf: readonly (keyof F & string)[]; allOf?: readonly (keyof F & string)[] };
  refine?: (parsed: Parsed<F, A, O>, env: NodeJS.ProcessEnv) => R;
  load: () => Promise<unknown>;
}): CommandDef & { readonly __options?: R & WithOutput<O> } {
  return def as CommandDef & { readonly __options?: R & WithOutput<O> };
}

/** A noun that groups commands (`employees`, `webhook`); `section` places it in the top-level help. */
export interface GroupDef {
  name: string;
  hidden?: boolean;
  summary: string;
  section: HelpSection;
  examples?: string[];
  commands: CommandDef[];
}

export const HELP_SECTIONS = ['Lookups', 'Exports', 'Onboarding', 'Webhooks', 'Scripting', 'Setup'] as const;
export type HelpSection = (typeof HELP_SECTIONS)[number];

/** A top-level entry: a group of commands, or a command of its own (`doctor`) with its help section. */
export type TopLevel = GroupDef | (CommandDef & { section: HelpSection });

export function defineGroup(group: GroupDef): GroupDef {
  return group;
}

export function isGroup(t: TopLevel): t is GroupDef {
  return 'commands' in t;
}

/** How a flag is named in messages: `--page-size`, `--no-progress`, or `<employee>` for an argument. */
export function flagName(key: string, flag: Flag<unknown>, positional = false): string {
  if (positional) return `<${kebab(key)}>`;
  return flag.kind === 'negated' ? `--no-${kebab(key)}` : `--${kebab(key)}`;
}

/** Not a terminal on either stream: what tests and pipes see. */
const PIPED: OutputTarget = { stdoutIsTTY: false, stderrIsTTY: false };

/**
 * Turns commander's raw values (strings, booleans, arrays of strings) into the
 * typed options object. `rawFlags` is keyed by flag key; `rawArgs` in order.
 * A command that prints data gets its output resolved here, once (`out`):
 * format, fields checked, quiet, csvRaw, the error format. `refine` sees it
 * but returns only the command's own values; `out` is added after it.
 */
export function parseCommand(def: CommandDef, rawArgs: unknown[], rawFlags: Record<string, unknown>, env: NodeJS.ProcessEnv, target: OutputTarget = PIPED): unknown {
  const parsed: Record<string, unknown> = {};
  for (const [i, [key, flag]] of Object.entries(def.args ?? {}).entries()) parsed[key] = flag.parse(rawArgs[i], flagName(key, flag, true));
  for (const [key, flag] of Object.entries(def.flags ?? {})) parsed[key] = flag.parse(rawFlags[key], flagName(key, flag));
  checkFiles(namedFiles(def, parsed), env);
  const out = def.output ? resolveOutput(rawFlags, def.output, target) : undefined;
  if (out) parsed.out = out;
  const refined = def.refine ? (def.refine as (p: unknown, env: NodeJS.ProcessEnv) => Record<string, unknown>)(parsed, env) : parsed;
  return out ? { ...refined, out } : refined;
}

/** The files the flags name, with their roles (directories are not checked here). */
function namedFiles(def: CommandDef, parsed: Record<string, unknown>): NamedFile[] {
  const files: NamedFile[] = [];
  for (const [key, flag] of Object.entries(def.flags ?? {})) {
    const role = flag.file?.role;
    const value = parsed[key];
    if (role === undefined || role === 'dir' || value === undefined) continue;
    const paths = flag.file!.paths ? flag.file!.paths(value) : [String(value)];
    for (const path of paths) files.push({ flag: flagName(key, flag), path, role });
  }
  return files;
}

/** parseCommand, then the part that takes a moment: --jq compiled. Everything about the output is known before `run` sends anything. */
export async function prepareCommand(def: CommandDef, rawArgs: unknown[], rawFlags: Record<string, unknown>, env: NodeJS.ProcessEnv, target: OutputTarget = PIPED): Promise<unknown> {
  const opts = parseCommand(def, rawArgs, rawFlags, env, target);
  await compileOutput((opts as { out?: Output }).out);
  return opts;
}
