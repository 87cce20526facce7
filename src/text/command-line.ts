// Commands printed for the user to run next (resume a draft, re-run a bulk
// job, see a whole document): quoted for a POSIX shell, and aimed at the
// same server as the command that printed them.
import type { GlobalOptions } from '../run-basics.js';

/** A shell word: as it is when it is safe unquoted, else in double quotes with ", \, $ and ` escaped. */
export function q(s: string): string {
  return /^[A-Za-z0-9._/-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * A command to run next, after what introduces it ("Continue with:"): on a
 * line of its own, indented, so that it is never wrapped (wrapMessage leaves
 * a line that is a command whole) and a triple-click copies exactly it.
 */
export function suggestion(label: string, command: string): string {
  return `${label}\n  ${command}`;
}

/** Whether a line (its indentation aside) is a command partner suggests, never to be wrapped: `partner …`, maybe after `$ ` and VAR=value settings. */
export function isCommandLine(line: string): boolean {
  return /^\s*(?:\$ )?(?:[A-Z_][A-Z0-9_]*=\S* +)*partner(?: |$)/.test(line);
}

/**
 * `partner ARGS` with the flags that chose the server (--sandbox,
 * --profile, --base-url) as this run was given them: a resume command
 * without them would go to another server, or find no login. Environment
 * variables need no repeating: they are still set in the user's shell.
 */
export function partnerCommand(globals: Pick<GlobalOptions, 'sandbox' | 'profile' | 'baseUrl'>, args: string): string {
  const target = globals.sandbox ? ['--sandbox'] : [...(globals.profile ? ['--profile', q(globals.profile)] : []), ...(globals.baseUrl ? ['--base-url', q(globals.baseUrl)] : [])];
  return ['partner', ...target, args].join(' ');
}
