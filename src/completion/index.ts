// Shell completion scripts generated from the commander tree. Used by
// `partner completion <shell>` and by scripts/gen-completions.mjs, which
// writes the checked-in copies under completions/.
import type { Command } from 'commander';
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { describeProgram } from './spec.js';
import { renderZsh } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where the checked-in script of each shell lives, relative to the repository. */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: 'completions/partner.bash',
  zsh: 'completions/_partner',
  fish: 'completions/partner.fish',
};

const HEADER = `Shell completion for partner (SHELL).
Generated from the command tree by scripts/gen-completions.mjs (npm run completions); do not edit.`;

export function completionScript(shell: Shell, program: Command): string {
  const spec = describeProgram(program);
  const header = HEADER.replace('SHELL', shell);
  if (shell === 'bash') return renderBash(spec, header);
  if (shell === 'zsh') return renderZsh(spec, header);
  return renderFish(spec, header);
}

export { describeProgram } from './spec.js';
