// The entry point: the only place that turns failures into messages and exit
// codes, and that handles Ctrl-C. Help is answered from the definitions
// before commander (program.ts) is even loaded, so `partner --help` and
// `partner <command> --help` start as fast as a bare Node.js.
import type { Runtime } from './program.js';
import { CliError, ExitCode, exitCodeFor, InterruptedError, OutputClosedError, UsageError } from './errors.js';
import { envFlag, streamColor, systemIO, type IO } from './io.js';
import { printHelp } from './help-entry.js';

export type { Runtime } from './program.js';


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
    // Help from the definitions, without commander (the launcher does the same before loading this module).
    if (printHelp(argv, io)) return ExitCode.OK;
    const { buildProgram } = await import('./program.js');
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
  const [{ colors }, { renderError, renderErrorJson }] = await Promise.all([import('./output/colors.js'), import('./output/render-error.js')]);
  // Errors follow the data: a script reading JSON from stdout reads one JSON object from stderr (exit code unchanged).
  if (runtime.format === 'json' || runtime.format === 'ndjson') {
    runtime.io.stderr.write(renderErrorJson(err));
    return err instanceof CliError ? err.exitCode : exitCodeFor(err);
  }
  const c = colors(streamColor(runtime.env, { color: runtime.context?.globals.color }, runtime.io.stderrIsTTY) && runtime.io.stderrColor);
  let text = renderError(err, c, debug);
  if (err instanceof UsageError && runtime.commandPath) text += `${c.dim(`Run \`${runtime.commandPath} --help\` for usage.`)}\n`;
  runtime.io.stderr.write(text);
  return err instanceof CliError ? err.exitCode : exitCodeFor(err);
}

/** Commander's own errors carry a `commander.*` code (checked without loading commander). */
function isCommanderError(err: unknown): err is { code: string; exitCode: number } {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && ((err as unknown as { code: string }).code).startsWith('commander.');
}
