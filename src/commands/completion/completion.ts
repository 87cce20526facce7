// `partner completion <shell>` (run: ./completion.run.ts) and the hidden
// `partner __complete profiles` the scripts call for profile names.
import { defineCommand } from '../../command.js';
import { arg } from '../../flags.js';
import { COMPLETE_COMMAND } from '../../completion/values.js';

export const completion = defineCommand({
  name: 'completion',
  summary: 'print the shell completion script for bash, zsh or fish',
  args: { shell: arg.oneOf(['bash', 'zsh', 'fish'] as const, 'the shell to complete in') },
  needsToken: false,
  details: 'Completes commands, flags, flag values (statuses, sort orders, output formats, event types, fields) and profile names from your config.',
  examples: [
    'source <(partner completion bash)                       # this bash session',
    'partner completion bash > ~/.local/share/bash-completion/completions/partner',
    'partner completion zsh > "${fpath[1]}/_partner"          # then restart zsh',
    'partner completion fish > ~/.config/fish/completions/partner.fish',
  ],
  load: () => import('./completion.run.js'),
});

export const complete = defineCommand({
  name: COMPLETE_COMMAND,
  summary: 'values for the completion scripts, one per line',
  hidden: true,
  args: { what: arg.oneOf(['profiles'] as const, 'what to list') },
  needsToken: false,
  load: () => import('./complete.run.js'),
});
