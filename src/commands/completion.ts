import { Argument, type Command } from 'commander';
import type { Runtime } from '../command.js';
import { COMPLETE_COMMAND } from '../completion/values.js';

function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

/**
 * `partner completion bash|zsh|fish` prints the completion script generated
 * from this very command tree (the same text as the checked-in
 * completions/), and the hidden `partner __complete profiles` that the
 * scripts call for profile names (names only, never tokens).
 */
export function registerCompletion(program: Command, runtime: Runtime): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Completes commands, flags, flag values (statuses, sort orders, output formats,
event types, fields) and profile names from your config.

Examples:
  $ source <(partner completion bash)                       # this bash session
  $ partner completion bash > ~/.local/share/bash-completion/completions/partner
  $ partner completion zsh > "\${fpath[1]}/_partner"          # then restart zsh
  $ partner completion fish > ~/.config/fish/completions/partner.fish`,
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish', _opts: unknown, cmd: Command) => {
      const { completionScript } = await import('../completion/index.js');
      runtime.io.stdout.write(completionScript(shell, rootOf(cmd)));
    });
  program
    .command(COMPLETE_COMMAND, { hidden: true })
    .description('values for the completion scripts, one per line')
    .addArgument(new Argument('<what>').choices(['profiles']))
    .action(async () => {
      const { profileNames } = await import('../completion/profiles.js');
      const names = profileNames(runtime.env);
      if (names.length > 0) runtime.io.stdout.write(`${names.join('\n')}\n`);
    });
}
