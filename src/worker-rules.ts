// The launcher's reading of the definitions' worker rules (worker-rule.ts),
// derived at build time (scripts/bundle.mjs writes dist/worker-rules.json from
// them): flags named as typed, commands by their words and aliases.
import { isGroup, kebab, type CommandDef, type TopLevel } from './command.js';
import type { LauncherRule } from './worker-rule.js';

/** The rules of every command that has one, for the launcher (the build writes them to dist/worker-rules.json). */
export function workerRules(entries: readonly TopLevel[]): LauncherRule[] {
  const rules: LauncherRule[] = [];
  const add = (words: string[][], def: CommandDef) => {
    if (!def.worker) return;
    const flag = (key: string) => `--${kebab(key)}`;
    rules.push({
      words,
      anyOf: def.worker.anyOf.map(flag),
      allOf: (def.worker.allOf ?? []).map(flag),
      ...(def.worker.notForTerminal ? { notForTerminal: def.output?.fileFlag ? flag(def.output.fileFlag) : '' } : {}),
    });
  };
  for (const e of entries) {
    if (isGroup(e)) for (const c of e.commands) add([[e.name], [c.name, ...(c.aliases ?? [])]], c);
    else add([[e.name, ...(e.aliases ?? [])]], e);
  }
  return rules;
}
