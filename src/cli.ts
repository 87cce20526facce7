import { CommanderError, type Command } from 'commander';
import type { CommandDef, CommandModule } from './command.js';
import { declareTree, optionFor, PartnerCommand, wantedGroup } from './command-tree.js';
import type { Context } from './context.js';
import { CliError, ExitCode, exitCodeFor, InterruptedError, OutputClosedError, UsageError } from './errors.js';
import { envFlag, streamColor, systemIO, type IO } from './io.js';
import { sanitizeTerminal } from './output/sanitize.js';
import { parseOutputFlags, type OutputFlags } from './output/options.js';
import type { Format } from './output/format.js';
import { packageVersion } from './version.js';
import { GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS, readGlobals } from './commands/globals.js';
import { TOP_LEVEL } from './commands/index.js';
import { registerHelp, suggestCommand } from './commands/help.js';

// Start-up speed: nothing here loads chalk (context.js, output/colors.js), a
// command's run module or the error renderer; they are imported when a
// command runs or fails.

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
  const width = Math.min(runtime.io.stdoutIsTTY ? (runtime.io.columns ?? 80) : 80, 120);
  const program = new PartnerCommand('partner')
    .description('Work with the Partner Employee Management API: look up and export employees, onboard GP employees, verify webhooks.')
    .version(packageVersion(), '-V, --version', 'print the version');
  program.optionsGroup('Global options:');
  for (const [key, flag] of Object.entries(GLOBAL_FLAGS)) program.addOption(optionFor(key, flag));
  const wanted = o.argv ? wantedGroup(o.argv, GLOBAL_VALUE_FLAGS) : undefined;
  declareTree(program, TOP_LEVEL, {
    width,
    env: runtime.env,
    full: o.full === true || wanted === 'completion' || wanted === '__complete',
    wanted,
    parseOutput: parseOutputFlags,
    runner: (def, opts, cmd) => runCommand(runtime, def, opts, cmd),
  });
  registerHelp(program);
  program.addHelpText(
    'after',
    `
Examples:
  $ partner --sandbox employees list           try it with no account
  $ partner auth login --base-url https://api.example.com
  $ partner employees list --all -o csv > employees.csv
  $ partner help employees list

Exit codes: 0 ok, 1 failure, 2 usage, 3 not authenticated, 4 forbidden,
5 not found, 6 conflict, 7 rejected by the server, 8 webhook verification
failed, 130 interrupted.`,
  );
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
        write(`${red('Error:')} ${commanderMessage(suggestCommand(s, cmd))}${dim(`Run \`${commandPath(cmd)} --help\` for usage.`)}\n`);
      },
    });
  });
  return program;
}

/** The action of every command: typed options in, a context built, the run module loaded and run. */
async function runCommand(runtime: Runtime, def: CommandDef, opts: unknown, cmd: Command): Promise<void> {
  runtime.commandPath = commandPath(cmd);
  const globals = readGlobals(cmd, runtime.env);
  // The output format is known before anything runs, so even an early failure can be reported as JSON.
  if (def.output) runtime.format = resolvedFormat(opts as OutputFlags, runtime.io);
  const [mod, { createContext }] = await Promise.all([def.load() as Promise<CommandModule<unknown>>, import('./context.js')]);
  const io: IO = {
    ...runtime.io,
    color: runtime.io.color && globals.color,
    stderrColor: runtime.io.stderrColor && globals.color,
    canPrompt: runtime.io.canPrompt && globals.input,
  };
  const ctx = createContext({ io, env: runtime.env, globals, signal: runtime.signal, needsToken: def.needsToken !== false });
  runtime.context = ctx;
  const code = await mod.run(opts, ctx);
  runtime.exitCode = typeof code === 'number' ? code : 0;
}

function resolvedFormat(flags: OutputFlags, io: IO): Format {
  if (flags.jq !== undefined) return 'json';
  return flags.output ?? (io.stdoutIsTTY ? 'table' : 'json');
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

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The entry point: the only place that turns failures into messages and exit
 * codes, and that handles Ctrl-C (first: abort and clean up, exit 130;
 * second, or cleanup taking over a second: exit at once).
 */
export async function main(argv: string[], io: IO = systemIO(process.env, { color: !argv.includes('--no-color'), input: !argv.includes('--no-input') })): Promise<number> {
  const env = process.env;
  const controller = new AbortController();
  const runtime: Runtime = { io, env, signal: controller.signal, exitCode: 0 };
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(ExitCode.INTERRUPTED);
    interrupted = true;
    controller.abort(new InterruptedError());
    setTimeout(() => process.exit(ExitCode.INTERRUPTED), 1000).unref();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  // The reader of stdout went away (`| head`): stop the work and exit quietly.
  let outputClosed = false;
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    outputClosed = true;
    controller.abort(new OutputClosedError());
  };
  io.stdout.on('error', onStdoutError);
  let code: number;
  try {
    await buildProgram(runtime, { argv }).parseAsync(argv, { from: 'user' });
    code = interrupted ? ExitCode.INTERRUPTED : runtime.exitCode;
  } catch (err) {
    code = outputClosed || err instanceof OutputClosedError ? ExitCode.OK : await report(err, runtime, interrupted);
  } finally {
    await runtime.context?.cleanup();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  process.exitCode = code;
  return code;
}

async function report(err: unknown, runtime: Runtime, interrupted: boolean): Promise<number> {
  if (err instanceof CommanderError) {
    // Help and version are not failures; commander already printed its message.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return ExitCode.OK;
    return ExitCode.USAGE;
  }
  if (err instanceof InterruptedError || interrupted) {
    runtime.io.stderr.write(`${err instanceof InterruptedError ? err.message : 'Interrupted'}.\n`);
    return ExitCode.INTERRUPTED;
  }
  const debug = runtime.context?.globals.debug ?? envFlag(runtime.env.PARTNER_DEBUG);
  const [{ colors }, { renderError }] = await Promise.all([import('./output/colors.js'), import('./output/render-error.js')]);
  const c = colors(streamColor(runtime.env, { color: runtime.context?.globals.color }, runtime.io.stderrIsTTY) && runtime.io.stderrColor);
  let text = renderError(err, c, debug);
  if (err instanceof UsageError && runtime.commandPath) text += `${c.dim(`Run \`${runtime.commandPath} --help\` for usage.`)}\n`;
  runtime.io.stderr.write(text);
  return err instanceof CliError ? err.exitCode : exitCodeFor(err);
}
