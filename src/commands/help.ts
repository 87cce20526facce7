import type { Command } from 'commander';
import { closest } from '../text/suggest.js';

/** What `partner help` does, in the overview, in `partner help help` and in the completions. */
export const HELP_SUMMARY = 'show the help of a command or topic, e.g. `partner help employees list`';

/** The help document as JSON text, filtered by --jq when given (help-entry.ts helpJsonText); undefined: no such command. */
export type HelpJson = (words: string[], jq: string | undefined) => Promise<string | undefined>;

/**
 * Words people type for commands that exist under another name: the command
 * path where they typed it (without `partner`) -> what to run instead.
 */
const SYNONYMS: Record<string, string> = {
  'employees get': 'profile get',
  'employees show': 'profile get',
  'employees view': 'profile get',
  'employees export': 'employees list --all',
  'employees search': 'employees list',
  'profile show': 'profile get',
  'profile list': 'employees list',
  employee: 'employees list',
  export: 'employees list --all -o csv',
  list: 'employees list',
  login: 'auth login',
  logout: 'auth logout',
  whoami: 'auth status',
  status: 'auth status',
  verify: 'webhook verify',
  listen: 'webhook listen',
  webhooks: 'webhook',
  tracker: 'trackers',
  onboarding: 'trackers onboarding',
  offboarding: 'trackers offboarding',
  schema: 'gp schema',
  create: 'gp create',
  onboard: 'gp create',
  version: '--version',
};

/** Flags people try that partner refuses on purpose, and what to do instead. */
const OPTION_HINTS: Record<string, string> = {
  '--token': 'The token is never a flag (it would stay in shell history): pipe it in with --with-token (echo "$TOKEN" | partner auth login --with-token), or set PARTNER_TOKEN.',
};

/** Replaces commander's suggestion for an unknown command by the right command when it is a known synonym, and explains refused flags. */
export function suggestCommand(message: string, cmd: Command): string {
  const option = /unknown option '([^'=]*)/.exec(message);
  if (option && OPTION_HINTS[option[1]!]) return `${message.split('\n')[0]!}\n${OPTION_HINTS[option[1]!]}\n`;
  const m = /unknown command '([^']*)'/.exec(message);
  if (!m) return message;
  const where = commandWords(cmd);
  const synonym = SYNONYMS[[...where, m[1]].join(' ')];
  if (!synonym) return message;
  const head = message.split('\n')[0]!;
  return `${head}\n(Did you mean \`partner ${synonym}\`?)\n`;
}

function commandWords(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/**
 * `partner help [command...]`: help of any command, however deep
 * (`partner help employees list`); commander's own help command only looks
 * one level down. An unknown name is a usage error with the closest name.
 */
export function registerHelp(program: Command, write: (text: string) => void, helpJson?: HelpJson): void {
  program.helpCommand(false);
  program
    .command('help')
    .description(HELP_SUMMARY)
    .argument('[command...]', 'the command path (default: the overview)')
    .option('-o, --output <format>', 'json: the command tree as one JSON document')
    .option('--jq <expr>', 'filter the JSON document with jq (built in)')
    .action(async (words: string[], opts: { output?: string; jq?: string }, self: Command) => {
      if (opts.output !== undefined || opts.jq !== undefined) {
        const fail = (message: string) => self.error(`error: ${message}`, { exitCode: 2, code: 'commander.invalidArgument' });
        if (opts.output !== undefined && opts.output !== 'json') fail(`help -o takes json only (got '${opts.output}'); the text help is the default`);
        // Only a tree built for completion or a test has no helpJson; none of them runs this action.
        if (!helpJson) throw new Error('help -o json is answered by the launcher (cli.ts gives program.ts helpJson)');
        const text = await helpJson(words, opts.jq);
        if (text === undefined) fail(`unknown command '${words.join(' ')}' (partner help lists the commands)`);
        write(text!);
        return;
      }
      let target: Command = program;
      for (const w of words) {
        const visible = target.commands.filter((c) => c !== self && !c.name().startsWith('__'));
        const next = visible.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) {
          const synonym = SYNONYMS[[...commandWords(target), w].join(' ')];
          const guess = synonym ? `\`partner ${synonym}\`` : closest(w, visible.map((c) => c.name()));
          const where = target === program ? '' : ` of '${target.name()}'`;
          target.error(`error: unknown command '${w}'${where}${guess ? `\n(Did you mean ${guess}?)` : ''}`, { exitCode: 2, code: 'commander.unknownCommand' });
        }
        target = next;
      }
      target.outputHelp();
    });
}
