import type { Command } from 'commander';
import type { CommandDef, CommandModule } from './command.js';
import { declareTree, optionFor, PartnerCommand, wantedGroup } from './command-tree.js';
import type { Context } from './context.js';
import type { IO } from './io.js';
import { jsonText, sanitizeTerminal } from './output/sanitize.js';
import { parseOutputFlags } from './output/options.js';
import { declaredFormat } from './output/error-format.js';
import type { Format } from './output/format.js';
import { packageVersion } from './version.js';
import { helpWidth } from './text/width.js';
import { PROGRAM_SUMMARY, renderHelp } from './help.js';
import { GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS, readGlobals } from './commands/globals.js';
import { TOP_LEVEL } from './commands/index.js';
import { registerHelp, suggestCommand } from './commands/help.js';

// The command tree, built with commander from the definitions, and the
// action every command shares. Loaded by cli.ts only when a command runs (or
// a usage error is reported): help never needs it. Nothing here loads chalk,
// a command's run module or the error renderer.

export interface Runtime {
  io: IO;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Set by the action: the exit code the command asked for, its context, and its resolved output format. */
  exitCode: number;
  context?: Context;
  format?: Format;
  /** The running command's path (`partner employees list`), for usage hints. */
  commandPath?: string;
}

/**
 * Builds the command tree from the definitions. Only the group named in
 * `argv` is declared in full (all of them with `full`, for completion
 * scripts and tests).
 */
export function buildProgram(runtime: Runtime, o: { argv?: string[]; full?: boolean } = {}): Command {
  const width = helpWidth(runtime.io);
  const program = new PartnerCommand('partner')
    .description(PROGRAM_SUMMARY)
    .version(packageVersion(), '-V, --version', 'print the version');
  for (const [key, flag] of Object.entries(GLOBAL_FLAGS)) program.addOption(optionFor(key, flag));
  const wanted = o.argv ? wantedGroup(o.argv, GLOBAL_VALUE_FLAGS) : undefined;
  program.helpText = () => renderHelp({ kind: 'root' }, TOP_LEVEL, width);
  declareTree(program, TOP_LEVEL, {
    entries: TOP_LEVEL,
    width,
    env: runtime.env,
    full: o.full === true || wanted === 'completion' || wanted === '__complete',
    wanted,
    parseOutput: parseOutputFlags,
    runner: (def, opts, cmd) => runCommand(runtime, def, opts, cmd),
    // Errors follow the data: known from the raw flags, so even a usage error is JSON when the output would be.
    beforeParse: (def, raw) => {
      runtime.format = def.output ? (declaredFormat({ ...raw, output: raw.output ?? def.output.default }, true, runtime.io.stdoutIsTTY) ?? undefined) : undefined;
    },
  });
  registerHelp(program);
  applyToAll(program, (cmd) => {
    cmd.exitOverride();
    cmd.showSuggestionAfterError(true);
    cmd.configureOutput({
      writeOut: (s) => runtime.io.stdout.write(s),
      writeErr: (s) => runtime.io.stderr.write(s),
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
      outputError: (s, write) => {
        // Plain SGR codes, as chalk writes them at level 1, so usage errors need not load chalk.
        const [red, dim] = runtime.io.stderrColor ? [(t: string) => `\x1b[31m${t}\x1b[39m`, (t: string) => `\x1b[2m${t}\x1b[22m`] : [(t: string) => t, (t: string) => t];
        const message = commanderMessage(suggestCommand(s, cmd));
        // Errors follow the data: a command whose output would be JSON reports its usage errors as JSON too.
        if (usageFormatIsJson(cmd, o.argv ?? [], runtime.io.stdoutIsTTY)) {
          write(`${jsonText({ error: { code: 'USAGE', status: null, message: message.trim(), correlationId: null, details: [], exitCode: 2 } })}\n`);
          return;
        }
        write(`${red('Error:')} ${message}${dim(`Run \`${commandPath(cmd)} --help\` for usage.`)}\n`);
      },
    });
  });
  return program;
}

/** The action of every command: typed options in, a context built, the run module loaded and run. */
async function runCommand(runtime: Runtime, def: CommandDef, opts: unknown, cmd: Command): Promise<void> {
  runtime.commandPath = commandPath(cmd);
  const globals = readGlobals(cmd, runtime.env);
  const [mod, { createContext }] = await Promise.all([def.load() as Promise<CommandModule<unknown>>, import('./context.js')]);
  const io: IO = {
    ...runtime.io,
    color: runtime.io.color && globals.color,
    stderrColor: runtime.io.stderrColor && globals.color,
    canPrompt: runtime.io.canPrompt && globals.input,
  };
  const ctx = createContext({ io, env: runtime.env, globals, signal: runtime.signal, needsToken: def.needsToken !== false, format: runtime.format });
  runtime.context = ctx;
  const code = await mod.run(opts, ctx);
  runtime.exitCode = typeof code === 'number' ? code : 0;
}

/**
 * Commander's message quotes what was typed: shorten each quoted word (a
 * 100 kB argument must not come back whole) and neutralise control characters.
 */
function commanderMessage(s: string): string {
  const text = s.replace(/^error: /, '').replace(/'([^'\n]{60})[^'\n]{2,}'/g, "'$1…'");
  return sanitizeTerminal(text.length > 1000 ? `${text.slice(0, 1000)}…\n` : text);
}

/** The output format the command line asks for (-o, --jq, or a pipe), read from argv: commander failed before any action ran. */
function usageFormatIsJson(cmd: Command, argv: string[], stdoutIsTTY: boolean): boolean {
  const offers = cmd.options.some((opt) => opt.long === '--output');
  let output: string | undefined;
  let jq: string | undefined;
  argv.forEach((a, i) => {
    if (a === '-o' || a === '--output') output = argv[i + 1];
    else if (a.startsWith('--output=')) output = a.slice('--output='.length);
    else if (a === '--jq' || a.startsWith('--jq=')) jq = a;
  });
  const format = declaredFormat({ output, jq }, offers, stdoutIsTTY);
  return format === 'json' || format === 'ndjson';
}

function applyToAll(cmd: Command, fn: (c: Command) => void): void {
  fn(cmd);
  for (const sub of cmd.commands) applyToAll(sub, fn);
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

