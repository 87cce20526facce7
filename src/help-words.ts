// The launcher's first look at the words, without the command tree: whether
// they may ask for help (then it loads the help script, help-entry.ts, whose
// helpRequest decides; main asks it again for the cases this look passes over),
// and whether they ask for the version alone. No imports: the launcher carries it.

/** `partner`, a lone word (a group: its help), `--help`/`-h` anywhere, or `partner help ...`. */
export function mayAskForHelp(argv: readonly string[]): boolean {
  return argv.length <= 1 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
}

/** A bare `--version` (or -V): the launcher's one line, before anything else loads. */
export function asksForVersionOnly(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}
