import type { Command } from 'commander';
import type { CommandDef, CommandModule } from './command.js';
import { declareTree, optionFor, PartnerCommand, wantedGroup } from './command-tree.js';
import type { Context } from './context.js';
import type { IO } from './io.js';
import { jsonText } from './output/sanitize.js';
import { sanitizeTerminal } from './text/sanitize.js';
import { errorFormatOf, errorFormatOfWords } from './output/options.js';
import type { ErrorFormat } from './output/error-format.js';
import type { Output } from './output/options.js';
import { installPager, type PagedStdout } from './output/pager.js';
import { configuredPager } from './config/pager-setting.js';
import { buildInfo, versionLine } from './version.js';
import { ruleHolds } from './worker-rule.js';
import { helpWidth } from './text/width.js';
import { wrapMessage } from './text/wrap.js';
import { PROGRAM_SUMMARY, renderHelp } from './help.js';
import { GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS, readGlobals } from './commands/globals.js';
import { TOP_LEVEL } from './commands/index.js';
import { registerHelp, suggestCommand, type HelpJson } from './commands/help.js';

// The command tree, built with commander from the definitions, and the
// action every command shares. Loaded by cli.ts only when a command runs (or
// a usage error is reported): help never needs it. Nothing here loads chalk,
// a command's run module or the error renderer.

export interface Runtime {
  io: IO;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Set by the action: the exit code the command asked for, its context, and how its errors are printed. */
  exitCode: number;
  context?: Context;
  errors?: ErrorFormat;
  /** `partner help … -o json --jq`: the document's text (help-entry.ts), handed in so it stays in the launcher's file. */
  helpJson?: HelpJson;
  /** The running command's path (`partner employees list`), for usage hints. */
  commandPath?: string;
  /** A pager was put on stdout (output/pager.ts): the entry point waits for it and stops it on Ctrl-C. */
  onPager?: (pager: PagedStdout | undefined) => void;
  /** The running command is a service (CommandDef.service): SIGTERM is its normal stop. */
  service?: { graceMs: number };
  /** Runs the same arguments on a worker thread (command-worker.ts): its exit code, or undefined where there is none. Unset on that thread. */
  runInWorker?: () => Promise<number | undefined>;
  /** The command ran on a worker thread, which reported its own failures: `exitCode` is its exit code. */
  delegated?: boolean;
}

/**
 * Builds the command tree from the definitions. Only the group named in
 * `argv` is declared in full (all of them with `full`, for completion
 * scripts and tests).
 */
export function buildProgram(runtime: Runtime, o: { argv?: string[]; full?: boolean } = {}): Command {
  const width = helpWidth(runtime.io);
  const target = { stdoutIsTTY: runtime.io.stdoutIsTTY, stderrIsTTY: runtime.io.stderrIsTTY };
  const program = new PartnerCommand('partner')
    .description(PROGRAM_SUMMARY)
    .version(versionLine(buildInfo()), '-V, --version', 'print the version');
  for (const [key, flag] of Object.entries(GLOBAL_FLAGS)) program.addOption(optionFor(key, flag));
  const wanted = o.argv ? wantedGroup(o.argv, GLOBAL_VALUE_FLAGS) : undefined;
  program.helpText = () => renderHelp({ kind: 'root' }, TOP_LEVEL, width);
  declareTree(program, TOP_LEVEL, {
    entries: TOP_LEVEL,
    width,
    env: runtime.env,
    full: o.full === true || wanted === 'completion' || wanted === '__complete',
    wanted,
    target,
    runner: (def, opts, cmd) => runCommand(runtime, def, opts, cmd),
    // Known from the raw flags, so a usage error found while they are parsed is printed as the command's errors are.
    beforeParse: (def, raw) => {
      runtime.errors = errorFormatOf(raw, def.output, target, def.jsonFlag);
    },
  });
  registerHelp(program, (text) => runtime.io.stdout.write(text), runtime.helpJson);
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
        // The same rule as every error (output/error-format.ts), from what commander parsed before it failed.
        const def = (cmd as PartnerCommand).def;
        // A line naming no command (unknown, or a group alone) is read from its words as a data command's would be.
        if ((def ? errorFormatOf(cmd.opts(), def.output, target, def.jsonFlag) : errorFormatOfWords(o.argv ?? [], target)) === 'json') {
          write(`${jsonText({ error: { code: 'USAGE', status: null, message: message.trim(), correlationId: null, details: [], exitCode: 2 } })}\n`);
          return;
        }
        // At stderr's width, between words only, as every error (cli.ts report).
        write(`${wrapMessage(`${red('Error:')} ${message}${dim(`Run \`${commandPath(cmd)} --help\` for usage.`)}`, runtime.io.stderrColumns)}\n`);
      },
    });
  });
  return program;
}

/** The action of every command: typed options in, a context built, the run module loaded and run. */
async function runCommand(runtime: Runtime, def: CommandDef, opts: unknown, cmd: Command): Promise<void> {
  runtime.commandPath = commandPath(cmd);
  runtime.service = def.service;
  const globals = readGlobals(cmd, runtime.env);
  if (def.worker && runtime.runInWorker && ruleHolds(def.worker, cmd.opts(), runtime.io.stdoutIsTTY, def.output?.fileFlag)) {
    const code = await runtime.runInWorker();
    if (code !== undefined) {
      runtime.delegated = true;
      runtime.exitCode = code;
      return;
    }
  }
  const [mod, { createContext }] = await Promise.all([def.load() as Promise<CommandModule<unknown>>, import('./context.js')]);
  // Only on a terminal (output/pager.ts: cli.ts reaches it through help-entry.ts anyway).
  if (runtime.io.stdoutIsTTY && globals.pager !== false && def.pager !== false) runtime.onPager?.(installPager(runtime.io, runtime.env, () => configuredPager(runtime.env)));
  const io: IO = {
    ...runtime.io,
    color: runtime.io.color && globals.color,
    stderrColor: runtime.io.stderrColor && globals.color,
    canPrompt: runtime.io.canPrompt && globals.input,
  };
  const out = (opts as { out?: Output }).out;
  runtime.errors = out?.errors ?? runtime.errors;
  // The tree is declared in full when completion is wanted (buildProgram), so the root is the whole tree.
  const commandTree = () => rootOf(cmd);
  const ctx = createContext({ io, env: runtime.env, globals, signal: runtime.signal, needsToken: def.needsToken !== false, out, errors: runtime.errors, command: runtime.commandPath, commandTree });
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

function applyToAll(cmd: Command, fn: (c: Command) => void): void {
  fn(cmd);
  for (const sub of cmd.commands) applyToAll(sub, fn);
}

function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

