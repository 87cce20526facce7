// Runs the CLI in this process, as bin/partner.js would run it, for tests that
// check arguments, usage errors and rendering: a spawned CLI costs ~0.5 s of
// Node start-up and module loading per call, an in-process one milliseconds.
//
// What it keeps identical to a spawned `runCli` (test/helpers/cli.ts): the
// launcher's path (a bare --version, then help from src/help-entry.ts, then
// main), the environment (given, never this process's), and the IO a spawned
// CLI gets from systemIO with stdin, stdout and stderr on pipes (no terminal,
// stdout a pipe, colour decided by the environment). Its source is src/, not
// dist/ (no build needed, and vitest loads it once per file); the launcher
// itself is covered by the spawned tests in test/e2e/launcher.test.ts, which
// also check that both paths answer alike.
//
// What it cannot do, and what stays spawned: signals, stdout on a file or a
// device (/dev/full), a pseudo-terminal, exit timing, a process that must die.
import { readFileSync } from 'node:fs';
import { main } from '../../src/cli.js';
import { printHelp } from '../../src/help-entry.js';
import { streamColor, testIO, type IO, type TestIO } from '../../src/io.js';
import { ROOT, type CliResult, type RunOptions } from './cli.js';

/** The launcher's version line, from the build's dist/build-info.json (bin/partner.js reads the same file). */
const VERSION = (() => {
  const { version, commit, date } = JSON.parse(readFileSync(`${ROOT}/dist/build-info.json`, 'utf8')) as { version: string; commit: string; date: string };
  return `${version} (commit ${commit}, built ${date})`;
})();
/** main sets process.exitCode (as it must for the real process); the test worker's own is put back after each run. */
const WORKER_EXIT_CODE = process.exitCode;

/** An IO as systemIO builds it for a process whose fds 0, 1 and 2 are pipes (a terminal needs a real process: runOnTerminal, pty.ts). */
function pipeIO(argv: string[], env: NodeJS.ProcessEnv, o: RunOptions): TestIO {
  const prefs = { color: !argv.includes('--no-color'), input: !argv.includes('--no-input') };
  return {
    // As runCli: the input, or an empty stdin closed at once (unless the command must wait on it).
    ...testIO({ stdin: o.input, keepStdinOpen: o.keepStdinOpen }),
    stdoutIsPipe: true,
    // FORCE_COLOR in the environment turns colour on even when piped, as systemIO decides it.
    color: streamColor(env, prefs, false),
    stderrColor: streamColor(env, prefs, false),
  };
}

/**
 * `partner ARGS` in-process with the environment `opts.env` (isolatedEnv or
 * sandboxEnv, as for runCli): the same result shape as runCli (signal always
 * null). `cwd` changes this process's directory for the run: only for tests
 * that do not run concurrently.
 */
export async function runMain(args: string[], opts: RunOptions): Promise<CliResult> {
  const io = pipeIO(args, opts.env, opts);
  const cwd = process.cwd();
  if (opts.cwd) process.chdir(opts.cwd);
  let code: number;
  // Bounded as runCli is; a run cannot be killed in-process, so the test fails instead. The
  // default is just under vitest's testTimeout (30 s), so this message, with the stderr so far,
  // is the one a failure shows: runs in one worker share its thread (describe.concurrent), and
  // on a loaded machine five 10 MB inputs side by side took over runCli's 20 s.
  let timer: NodeJS.Timeout | undefined;
  const timeoutMs = opts.timeoutMs ?? 28_000;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`partner ${args.join(' ')}: did not finish in ${timeoutMs} ms (stderr: ${io.err().slice(0, 500)})`)), timeoutMs);
  });
  try {
    code = await Promise.race([launch(args, io, opts.env), timedOut]);
  } finally {
    clearTimeout(timer);
    if (opts.cwd) process.chdir(cwd);
    process.exitCode = WORKER_EXIT_CODE;
  }
  return { code, signal: null, stdout: io.out(), stderr: io.err() };
}

/** bin/partner.js, step by step: keep the two in step (launcher.test.ts compares them). */
async function launch(args: string[], io: IO, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if ((args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help' || args.length === 1) && printHelp(args, io)) return 0;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    io.stderr.write(`Error: ${e?.code === 'OUTPUT_WRITE' ? e.message : `Could not write the output to stdout: ${e?.code ?? String(err)}; what was written is incomplete`}\n`);
    return 1;
  }
  return main(args, io, env);
}
