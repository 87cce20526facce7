// The entry point: the only place that turns failures into messages and exit
// codes, and that handles Ctrl-C. Help is answered from the definitions
// before commander (program.ts) is even loaded, so `partner --help` and
// `partner <command> --help` start as fast as a bare Node.js.
import type { Runtime } from './program.js';
import { CliError, ExitCode, exitCodeFor, InterruptedError, isOutputGone, OutputClosedError, OutputWriteError, UsageError } from './errors.js';
import { envFlag, outputFailure, outputFlushed, streamColor, systemIO, type IO } from './io.js';
import { helpJsonText, printHelp } from './help-entry.js';
import type { PagedStdout } from './output/pager.js';
import type { Worker } from 'node:worker_threads';

export type { Runtime } from './program.js';


/**
 * Signals that stop a command the way Ctrl-C does: `kill` (SIGTERM), and a
 * terminal that went away (SIGHUP: the window closed, the ssh session
 * dropped), whose default action would kill the process before cleanup and
 * leave an export's temp file or a spool's lock behind.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The entry point: the only place that turns failures into messages and exit
 * codes, and that handles Ctrl-C and the other STOP_SIGNALS (a service's
 * SIGTERM: abort, wind down within its grace, exit with its own code; first: abort and
 * clean up, exit 130; second, or cleanup taking over a second: exit at once).
 */
export async function main(
  argv: string[],
  io: IO = systemIO(process.env, { color: !argv.includes('--no-color'), input: !argv.includes('--no-input') }),
  // The process's own, except for tests that run the CLI in-process (test/helpers/main-in-process.ts).
  env: NodeJS.ProcessEnv = process.env,
  // A command whose definition says so runs on a worker thread (command-worker.ts) that `start` makes
  // (the launcher's: it knows where the scripts are); `early` is one the launcher started when the
  // arguments looked like it. Neither (the sources in-process, the single executable): the command runs
  // here. False on that thread: the command runs there.
  workers: { early?: Worker; start?: () => Promise<Worker> } | false = {},
): Promise<number> {
  const controller = new AbortController();
  const runtime: Runtime = { io, env, signal: controller.signal, exitCode: 0, helpJson: helpJsonText };
  if (workers) runtime.runInWorker = async () => (await import('./command-worker.js')).runInWorker(argv, io, env, controller.signal, workers);
  let interrupted = false;
  // Output longer than the terminal goes through a pager (output/pager.ts), put on stdout when the command starts.
  let pager: PagedStdout | undefined;
  runtime.onPager = (p) => {
    pager = p;
    pager?.on('error', onStdoutError);
  };
  // A service told to stop by SIGTERM (a service manager): its normal end, with its own exit code.
  let stopping = false;
  const onStop = (signal: NodeJS.Signals) => {
    // A second Ctrl-C (or kill) is someone insisting; a second SIGHUP is not (a closing terminal
    // and its shell may each send one), and must not cut the cleanup short.
    if (interrupted || stopping) {
      if (signal !== 'SIGHUP') process.exit(ExitCode.INTERRUPTED);
      return;
    }
    if (signal === 'SIGTERM' && runtime.service) {
      stopping = true;
      controller.abort(new InterruptedError('Stopped', 'STOPPED', signal));
      setTimeout(() => process.exit(ExitCode.INTERRUPTED), runtime.service.graceMs + 1000).unref();
      return;
    }
    interrupted = true;
    pager?.stop();
    controller.abort(new InterruptedError(undefined, undefined, signal));
    setTimeout(() => process.exit(ExitCode.INTERRUPTED), 1000).unref();
  };
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  // The reader of stdout went away (`| head`, or the terminal: EIO): stop the work and exit quietly.
  // Any other failed write (disk full, `ulimit -f`, /dev/full) cut the output: stop the work too, and
  // fail below with one line (outputFailure), whatever the command thought of its own success.
  let outputClosed = false;
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (isOutputGone(err)) {
      outputClosed = true;
      controller.abort(new OutputClosedError());
    } else controller.abort(new OutputWriteError(err));
  };
  io.stdout.on('error', onStdoutError);
  // The terminal closed (SIGHUP): messages that cannot be shown any more (EIO) are lost; the failed
  // write must not crash the process before its cleanup (an export's temp file, a spool's lock).
  io.stderr.on('error', () => undefined);
  let code: number;
  try {
    // Help from the definitions, without commander (the launcher does the same before loading this module).
    if (printHelp(argv, io)) return ExitCode.OK;
    // `partner --version -o json`: the version command, which knows every output format (a bare --version is the launcher's).
    if (argv[0] === '--version' || argv[0] === '-V') argv = ['version', ...argv.slice(1)];
    const { buildProgram } = await import('./program.js');
    await buildProgram(runtime, { argv }).parseAsync(argv, { from: 'user' });
    if (runtime.delegated) {
      // Sent to a worker thread: it wrote, reported and cleaned up; its exit code stands (a second report of a failed write would repeat its own).
      code = interrupted ? ExitCode.INTERRUPTED : runtime.exitCode;
    } else {
      // Everything printed has left the process, or the command fails: an export cut by a full disk never exits 0.
      // With a pager: the person reads to the end (or quits) first.
      await (pager ? pager.close() : outputFlushed(io.stdout));
      const failed = interrupted ? undefined : outputFailure(io.stdout);
      code = interrupted ? ExitCode.INTERRUPTED : failed ? await report(failed, runtime, false) : runtime.exitCode;
    }
  } catch (err) {
    // A stop signal wins over a closed output (a closing terminal brings both): 130. A failed
    // write is the cause of whatever the command then met (its own abort, a cut walk).
    const failed = interrupted ? undefined : outputFailure(io.stdout);
    code = failed ? await report(failed, runtime, false) : !interrupted && (outputClosed || err instanceof OutputClosedError || (stopping && err instanceof InterruptedError)) ? ExitCode.OK : await report(err, runtime, interrupted);
  } finally {
    // The person reads to the end (or quits) before partner exits; then what stderr held while the pager showed is written.
    await pager?.close();
    await runtime.context?.cleanup();
    for (const s of STOP_SIGNALS) process.off(s, onStop);
    // Started for a command that ran here after all (a usage error, a table on a terminal).
    if (workers && !runtime.delegated) void workers.early?.terminate();
  }
  process.exitCode = code;
  return code;
}

async function report(err: unknown, runtime: Runtime, interrupted: boolean): Promise<number> {
  if (isCommanderError(err)) {
    // Help and version are not failures; commander already printed its message.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return ExitCode.OK;
    return ExitCode.USAGE;
  }
  if (err instanceof InterruptedError || interrupted) {
    runtime.io.stderr.write(`${err instanceof InterruptedError ? err.message : 'Interrupted'}.\n`);
    return ExitCode.INTERRUPTED;
  }
  const debug = runtime.context?.globals.debug ?? envFlag(runtime.env.PARTNER_DEBUG);
  const [{ colors }, { renderError, renderErrorJson, fitError }] = await Promise.all([import('./output/colors.js'), import('./output/render-error.js')]);
  // Text for a person at stderr; a script reading JSON from stdout reads one JSON object from stderr (output/error-format.ts).
  if (runtime.errors === 'json') {
    runtime.io.stderr.write(renderErrorJson(err));
    return err instanceof CliError ? err.exitCode : exitCodeFor(err);
  }
  const c = colors(streamColor(runtime.env, { color: runtime.context?.globals.color }, runtime.io.stderrIsTTY) && runtime.io.stderrColor);
  let text = renderError(err, c, debug);
  if (err instanceof UsageError && runtime.commandPath) text += `${c.dim(`Run \`${runtime.commandPath} --help\` for usage.`)}\n`;
  runtime.io.stderr.write(fitError(text, runtime.io.stderrColumns, debug));
  return err instanceof CliError ? err.exitCode : exitCodeFor(err);
}

/** Commander's own errors carry a `commander.*` code (checked without loading commander). */
function isCommanderError(err: unknown): err is { code: string; exitCode: number } {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && ((err as unknown as { code: string }).code).startsWith('commander.');
}

/** The worker thread's entry (command-worker.ts): main() on the main thread's arguments and streams. */
export async function workerMain(): Promise<void> {
  const { serveWorker } = await import('./command-worker.js');
  await serveWorker((argv, io, env) => main(argv, io, env, false));
}
