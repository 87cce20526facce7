// What bin/partner.js runs (built to dist/launch.cjs, a small script of its
// own): the steps before the CLI, which know no command. A bare `--version` is
// answered first (one line, no other module run); then the caches are turned
// on (launcher/compile-cache.ts, launcher/code-cache.ts); help goes to the help
// script (dist/help.cjs: the definitions and the renderer, 150 KB), everything
// else to the CLI (dist/cli.cjs). A command whose definition says it runs on
// the bounded worker (CommandDef.worker) has its worker started now, before
// the CLI loads, when the words look like it (dist/worker-rules.json, derived
// from the definitions by the build); the CLI confirms once it has parsed them.
import type { Worker } from 'node:worker_threads';
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asksForVersionOnly, mayAskForHelp } from '../help-words.js';
import { buildInfo, versionLine } from '../version.js';
import { looksLikeWorkerCommand, type LauncherRule } from '../worker-rule.js';

/** The built scripts: beside this one. */
const DIST = dirname(fileURLToPath(import.meta.url));

type Cli = typeof import('../cli.js');
type Help = typeof import('../help-entry.js');

/** partner's start: `args` are the words after `partner`. Sets process.exitCode; rejects never. */
export async function launch(args: string[]): Promise<void> {
  try {
    if (asksForVersionOnly(args)) {
      writeAll(`${versionLine(buildInfo())}\n`);
      return;
    }
    const { loadScript } = await caches();
    if (mayAskForHelp(args) && loadScript<Help>(join(DIST, 'help.cjs')).printHelp(args)) return;
    const start = () => startThread();
    const early = looksLikeWorkerCommand(args, workerRules(), isTerminal(1)) ? await start() : undefined;
    await loadScript<Cli>(join(DIST, 'cli.cjs')).main(args, undefined, undefined, { early, start });
  } catch (err) {
    reportWriteFailure(err);
  }
}

/** The bounded worker's entry (runtime/command-thread.ts): the CLI from the same caches, waiting for its arguments. */
export async function workerEntry(): Promise<void> {
  const { loadScript } = await caches();
  await loadScript<Cli>(join(DIST, 'cli.cjs')).workerMain();
}

/** Node's compile cache on, and the code cache's loader (loaded after --version, which needs neither). */
async function caches(): Promise<typeof import('./code-cache.js')> {
  const { enableCompileCache } = await import('./compile-cache.js');
  enableCompileCache();
  return import('./code-cache.js');
}

async function startThread(): Promise<Worker> {
  const { startCommandThread } = await import('../runtime/command-thread.js');
  return startCommandThread(join(DIST, 'launch.cjs'));
}

/** dist/worker-rules.json (scripts/bundle.mjs); none when it cannot be read: the CLI starts the worker itself then. */
function workerRules(): LauncherRule[] {
  try {
    const rules: unknown = JSON.parse(readFileSync(join(DIST, 'worker-rules.json'), 'utf8'));
    return Array.isArray(rules) ? (rules as LauncherRule[]) : [];
  } catch {
    return [];
  }
}

/** Whether `fd` is a terminal, loading node:tty (which a pipe or a file never needs) only for a character device. */
function isTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice() && (process.getBuiltinModule('node:tty') as typeof import('node:tty')).isatty(fd);
  } catch {
    return false;
  }
}

/**
 * Only the version and help get here (main reports its own failures): stdout could not be
 * written (a full disk, /dev/full). One line, as the CLI says it (errors.ts, OutputWriteError).
 */
function reportWriteFailure(err: unknown): void {
  const e = err as { code?: string; message?: string } | undefined;
  process.stderr.write(`Error: ${e?.code === 'OUTPUT_WRITE' ? e.message : `Could not write the output to stdout: ${e?.code ?? String(err)}; what was written is incomplete`}\n`);
  process.exitCode = 1;
}

/** The version, written whole (a short write finished) or failing; a reader that went away (`| head`) is not a failure. */
function writeAll(text: string): void {
  const buf = Buffer.from(text);
  let at = 0;
  try {
    while (at < buf.length) at += writeSync(1, buf, at, buf.length - at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A non-blocking pipe: Node's stream waits for it.
    if (code === 'EAGAIN') process.stdout.write(buf.subarray(at));
    else if (code !== 'EPIPE') throw err;
  }
}
