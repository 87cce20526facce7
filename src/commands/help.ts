import type { Command } from 'commander';

/** Edit distance (insert, delete, substitute, swap adjacent), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest name, if close enough to be a likely typo. */
export function closest(word: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const dist = distance(word, n);
    if (dist < bestD && dist <= Math.max(1, Math.floor(n.length * 0.4))) {
      best = n;
      bestD = dist;
    }
  }
  return best;
}

/**
 * `partner help [command...]`: help of any command, however deep
 * (`partner help employees list`); commander's own help command only looks
 * one level down. An unknown name is a usage error with the closest name.
 */
export function registerHelp(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('show the help of a command, e.g. `partner help employees list`')
    .argument('[command...]', 'the command path (default: the overview)')
    .addHelpText(
      'after',
      `
Examples:
  $ partner help employees list
  $ partner help webhook`,
    )
    .action((words: string[], _opts: unknown, self: Command) => {
      let target: Command = program;
      for (const w of words) {
        const visible = target.commands.filter((c) => c !== self && !c.name().startsWith('__'));
        const next = visible.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) {
          const guess = closest(w, visible.map((c) => c.name()));
          const where = target === program ? '' : ` of '${target.name()}'`;
          target.error(`error: unknown command '${w}'${where}${guess ? `\n(Did you mean ${guess}?)` : ''}`, { exitCode: 2, code: 'commander.unknownCommand' });
        }
        target = next;
      }
      target.outputHelp();
    });
}
