// Starts the worker thread a long command runs on (command-worker.ts says why
// and how; CommandDef.worker says which). The thread runs the launcher's own
// script (launch.ts, workerEntry), which loads the CLI from the same code cache
// as the main thread and waits for its arguments. The launcher starts it before
// it loads the CLI when the words look like such a command (a worker takes
// 35 to 50 ms to start and 25 more to load the CLI, which then overlap the main
// thread's own loading and parsing), or the CLI does once it has parsed them.
import { Worker } from 'node:worker_threads';

/**
 * The worker's young generation, in MiB: what Node 20 gives a process (two
 * semi-spaces of 16 MiB and the young large-object space).
 */
export const YOUNG_GENERATION_MB = 48;

const BOOT = `const { workerData } = require('node:worker_threads');
require(workerData.launcher).workerEntry();`;

/** A worker running the launcher script `launcher` (dist/launch.cjs), loading the CLI at once; it runs nothing until told. */
export function startCommandThread(launcher: string, env: NodeJS.ProcessEnv = process.env): Worker {
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: { launcher },
    env,
    stdin: false,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  // Never what keeps the process alive: the CLI refs it while a command runs on it.
  worker.unref();
  return worker;
}
