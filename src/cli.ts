import { Command, CommanderError, Option } from 'commander';
import { type Runtime } from './command.js';
import { packageVersion } from './version.js';
import { CliError, ExitCode, exitCodeFor, InterruptedError, OutputClosedError } from './errors.js';
import { colorAllowed, envFlag, systemIO, type IO } from './io.js';
import { parseSeconds } from './options.js';
import { sanitizeTerminal } from './output/sanitize.js';
import { registerAuth } from './commands/auth/index.js';
import { registerEmployees } from './commands/employees/index.js';
import { registerTrackers } from './commands/trackers/index.js';
import { registerProfile } from './commands/profile/index.js';
import { registerGp } from './commands/gp/index.js';
import { registerDynamicDetails } from './commands/dynamic-details/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerWebhook } from './commands/webhook/index.js';
import { registerDoctor } from './commands/doctor/index.js';
import { registerCompletion } from './commands/completion.js';
import { registerHelp } from './commands/help.js';

// Start-up speed: nothing here loads chalk (context.js, output/colors.js) or
// the error renderer; they are imported when a command runs or fails.

/** Builds the whole command tree. Declarations only: command code is imported inside actions. */
export function buildProgram(runtime: Runtime): Command {
  const program = new Command('partner')
    .description('Work with the Partner Employee Management API: look up and export employees, onboard GP employees, verify webhooks.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--profile <name>', 'use this saved profile (env PARTNER_PROFILE)')
    .option('--base-url <url>', 'API base URL (env PARTNER_BASE_URL); https only, except loopback')
    .option('--sandbox', 'run against the embedded sandbox (no account needed)')
    .option('--debug', 'log requests and responses to stderr, token redacted (also PARTNER_DEBUG=1)')
    .addOption(new Option('--timeout <seconds>', 'time limit per request').default(30).argParser((v) => parseSeconds('--timeout', v)))
    .option('--no-color', 'no colour in output (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail instead, naming the flag to use')
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `
Examples:
  $ partner --sandbox employees list           try it with no account
  $ partner auth login --base-url https://api.example.com
  $ partner employees list --all -o csv > employees.csv
  $ partner help employees list

Exit codes: 0 ok, 1 failure, 2 usage, 3 not authenticated, 4 forbidden,
5 not found, 6 conflict, 7 rejected by the server, 8 webhook verification failed, 130 interrupted.`,
    );
  program.configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  registerEmployees(program, runtime);
  registerTrackers(program, runtime);
  registerProfile(program, runtime);
  registerGp(program, runtime);
  registerDynamicDetails(program, runtime);
  registerAuth(program, runtime);
  registerSandbox(program, runtime);
  registerWebhook(program, runtime);
  registerDoctor(program, runtime);
  registerCompletion(program, runtime);
  registerHelp(program);
  applyToAll(program, (cmd) => {
    cmd.exitOverride();
    cmd.showSuggestionAfterError(true);
    cmd.configureOutput({
      writeOut: (s) => runtime.io.stdout.write(s),
      writeErr: (s) => runtime.io.stderr.write(s),
      outputError: (s, write) => {
        // Plain SGR codes, as chalk writes them at level 1, so usage errors need not load chalk.
        const [red, dim] = runtime.io.color ? [(t: string) => `\x1b[31m${t}\x1b[39m`, (t: string) => `\x1b[2m${t}\x1b[22m`] : [(t: string) => t, (t: string) => t];
        write(`${red('Error:')} ${commanderMessage(s)}${dim(`Run \`${commandPath(cmd)} --help\` for usage.`)}\n`);
      },
    });
  });
  return program;
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
    await buildProgram(runtime).parseAsync(argv, { from: 'user' });
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
  if (interrupted || err instanceof InterruptedError) {
    runtime.io.stderr.write('Interrupted.\n');
    return ExitCode.INTERRUPTED;
  }
  const debug = runtime.context?.globals.debug ?? envFlag(runtime.env.PARTNER_DEBUG);
  const [{ colors }, { renderError, renderErrorJson }] = await Promise.all([import('./output/colors.js'), import('./output/render-error.js')]);
  if (runtime.errorFormat === 'json') {
    runtime.io.stderr.write(renderErrorJson(err));
    return exitCodeFor(err);
  }
  const c = colors(runtime.io.stderrIsTTY && colorAllowed(runtime.env, { color: runtime.context?.globals.color }));
  runtime.io.stderr.write(renderError(err, c, debug));
  return err instanceof CliError ? err.exitCode : exitCodeFor(err);
}
