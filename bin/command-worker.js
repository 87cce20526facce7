// Starts the worker thread an export of every page runs on (src/command-worker.ts
// says why and how). Here, in the launcher's CommonJS, so that the launcher can
// start it before it loads the CLI when the arguments look like such an export:
// a worker takes 35 to 50 ms to start and 25 more to load the CLI, which then
// overlap the main thread's own loading and parsing. The CLI decides after
// parsing; a worker started for nothing is ended (src/cli.ts).
'use strict';
const { join } = require('node:path');

/**
 * The worker's young generation, in MiB: what Node 20 gives a process (two
 * semi-spaces of 16 MiB and the young large-object space).
 */
const YOUNG_GENERATION_MB = 48;

// Loads the CLI (from the same code cache as the main thread) and waits for its arguments (workerMain).
const BOOT = `const { workerData } = require('node:worker_threads');
require(workerData.loader).loadScript('cli', process.env, workerData.script).workerMain();`;

/** A worker for the CLI at `script` (dist/cli.cjs), loading it at once; it runs nothing until told (src/command-worker.ts). */
function startWorker(script = join(__dirname, '..', 'dist', 'cli.cjs'), env = process.env) {
  const { Worker } = require('node:worker_threads');
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: { loader: join(__dirname, 'code-cache.js'), script },
    env,
    stdin: false,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  // Never what keeps the process alive: the CLI refs it while a command runs on it.
  worker.unref();
  return worker;
}

/**
 * True when `args` look like an export of every page bound for a file or a
 * program (`employees list --all` or `--search`, stdout not a terminal or
 * `--output-file`): a guess from the words, which the CLI confirms once it has
 * parsed them (the `worker` of the command's definition).
 */
function looksLikeWorkerCommand(args, stdoutIsTTY = isTerminal(1)) {
  const has = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  return args.includes('employees') && args.includes('list') && (has('--all') || has('--search')) && (!stdoutIsTTY || has('--output-file'));
}

/** Whether `fd` is a terminal, loading node:tty (which a pipe or a file never needs) only for a character device. */
function isTerminal(fd) {
  try {
    return require('node:fs').fstatSync(fd).isCharacterDevice() && require('node:tty').isatty(fd);
  } catch {
    return false;
  }
}

module.exports = { startWorker, looksLikeWorkerCommand, YOUNG_GENERATION_MB };
