// Parse contract helpers: a command's definition turns raw values (keyed by
// flag, as commander collects them) into its typed options, or a UsageError.
import { parseCommand, type CommandDef } from '../../src/command.js';
import type { OutputTarget } from '../../src/output/options.js';

/** The positional words as commander hands them over: the variadic last argument as one array. */
export function rawArgsFor(def: CommandDef, args: string[]): unknown[] {
  const keys = Object.keys(def.args ?? {});
  const variadic = keys.length > 0 && def.args![keys[keys.length - 1]!]!.variadic === true;
  return variadic ? [...args.slice(0, keys.length - 1), args.slice(keys.length - 1)] : args;
}

/** `parse(args, raw)` for one definition: positional words and raw flag values by key (stdout and stderr piped unless `target`). */
export function parserFor(def: CommandDef, target?: OutputTarget) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (args: string[] = [], raw: Record<string, unknown> = {}): any => parseCommand(def, rawArgsFor(def, args), raw, {}, target);
}
