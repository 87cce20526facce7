// Parse contract helpers: a command's definition turns raw values (keyed by
// flag, as commander collects them) into its typed options, or a UsageError.
import { parseCommand, type CommandDef } from '../../src/command.js';
import { parseOutputFlags } from '../../src/output/options.js';

/** `parse(args, raw)` for one definition: positional words and raw flag values by key. */
export function parserFor(def: CommandDef) {
  const keys = Object.keys(def.args ?? {});
  const variadic = keys.length > 0 && def.args![keys[keys.length - 1]!]!.variadic === true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (args: string[] = [], raw: Record<string, unknown> = {}): any => {
    const rawArgs = variadic ? [...args.slice(0, keys.length - 1), args.slice(keys.length - 1)] : args;
    return parseCommand(def, rawArgs, raw, {}, parseOutputFlags);
  };
}
