// When a command runs on the bounded worker thread (command-worker.ts), said
// once, as data, in its definition (CommandDef.worker): a rule over the flags
// as typed, so the same rule is read by the CLI once commander has parsed them
// (program.ts) and by the launcher from the raw words before it has loaded the
// CLI (launch.ts, from dist/worker-rules.json which the build derives from the
// definitions: worker-rules.ts). The launcher's reading is a guess made to
// start the worker early; the CLI's decides.
// No imports: the launcher's own bundle carries this module.

/** A command's rule, with flag keys as in its definition (`outputFile`). */
export interface WorkerRule {
  /** It runs there when one of these flags is given (a path of "-", stdin, does not count: the worker has no stdin). */
  anyOf: readonly string[];
  /** ...and every one of these is given (what it would otherwise ask a person: the worker cannot prompt). */
  allOf?: readonly string[];
  /** ...and its output is not for a person at a terminal: stdout is not one, or the output's file flag is given. */
  notForTerminal?: boolean;
}

/** A rule as the launcher reads it: the command's words (each with its aliases) and flags as typed (`--output-file`). */
export interface LauncherRule {
  words: string[][];
  anyOf: string[];
  allOf: string[];
  /** Set when the output is for a terminal's person only without it: the file flag (or "" for none). */
  notForTerminal?: string;
}

/** Whether a value counts as given: set, not false, not an empty list, not "-" (stdin). */
function given(value: unknown): boolean {
  return value !== undefined && value !== false && value !== '-' && !(Array.isArray(value) && value.length === 0);
}

/** The rule on commander's parsed flags (keys as in the definition): true when the command runs on the worker. */
export function ruleHolds(rule: WorkerRule, flags: Record<string, unknown>, stdoutIsTTY: boolean, fileFlag: string | undefined): boolean {
  if (!rule.anyOf.some((k) => given(flags[k]))) return false;
  if (!(rule.allOf ?? []).every((k) => given(flags[k]))) return false;
  return !rule.notForTerminal || !stdoutIsTTY || (fileFlag !== undefined && given(flags[fileFlag]));
}

/**
 * The launcher's guess from the raw words: the command's words in order among
 * them, and its flags typed (`--all` or `--all=…`, never with the value "-").
 * A wrong guess costs a worker started for nothing, never a different result.
 */
export function looksLikeWorkerCommand(args: readonly string[], rules: readonly LauncherRule[], stdoutIsTTY: boolean): boolean {
  const has = (flag: string) => args.some((a, i) => (a === flag ? args[i + 1] !== '-' : a.startsWith(`${flag}=`) && a !== `${flag}=-`));
  return rules.some((r) => {
    let at = 0;
    for (const alternatives of r.words) {
      const found = args.findIndex((a, i) => i >= at && alternatives.includes(a));
      if (found < 0) return false;
      at = found + 1;
    }
    if (!r.anyOf.some(has) || !r.allOf.every(has)) return false;
    return r.notForTerminal === undefined || !stdoutIsTTY || (r.notForTerminal !== '' && has(r.notForTerminal));
  });
}
