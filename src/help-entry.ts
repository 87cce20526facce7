// The launcher's fast path for help: answers `partner --help`,
// `partner help <command>` and `<command> --help` from the definitions in one
// module, or returns false (and the full CLI runs).
import { helpRequest, renderHelp } from './help.js';
import { helpWidth } from './text/width.js';
import { outputFailure, systemIO, type IO } from './io.js';
import { TOP_LEVEL } from './commands/index.js';
import { helpDocument, helpJsonRequest } from './help-json.js';
import { pageText } from './output/pager.js';
import { configuredPager } from './config/pager-setting.js';
import { workerRules } from './worker-rules.js';

/** Throws OutputWriteError when the help could not be written whole (`> /dev/full`); a closed pipe (`| head`) is not a failure. */
export function printHelp(argv: string[], io: IO = systemIO(process.env)): boolean {
  // `partner help [command...] -o json`: the tree as one document (help-json.ts).
  const words = helpJsonRequest(argv);
  const doc = words && helpDocument(TOP_LEVEL, words);
  if (doc && doc.commands.length > 0) {
    // A reader that leaves early (`| head`) is not an error.
    io.stdout.on('error', () => undefined);
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return true;
  }
  const target = helpRequest(argv, TOP_LEVEL);
  if (!target) return false;
  const text = renderHelp(target, TOP_LEVEL, helpWidth(io));
  // Help taller than the terminal goes through the pager, as gh's does (never when piped).
  if (io.stdoutIsTTY && io.stdout === process.stdout) {
    const term = { rows: process.stdout.rows, columns: process.stdout.columns, stderr: io.stderr, stderrColor: io.stderrColor, stderrColumns: io.stderrColumns, config: () => configuredPager(process.env) };
    if (pageText(text, term, process.env, argv)) return true;
  }
  io.stdout.write(text);
  // stdout on a file or a device is written at once (io.ts, FileOutput): a failure is known here.
  const failed = outputFailure(io.stdout);
  if (failed) throw failed;
  return true;
}

/**
 * `partner help [command...] -o json --jq EXPR` (commander's `help` command,
 * commands/help.ts, reached only when --jq is given): the document through the
 * filter. Here, beside printHelp, so the document's module stays in the
 * launcher's own file; jq loads only for a filter. undefined: no command
 * under `words`.
 */
export async function helpJsonText(words: string[], jq: string | undefined): Promise<string | undefined> {
  const doc = helpDocument(TOP_LEVEL, words);
  if (doc.commands.length === 0) return undefined;
  if (jq === undefined) return `${JSON.stringify(doc, null, 2)}\n`;
  const { applyJq, checkJqFilter } = await import('./output/jq.js');
  await checkJqFilter(jq);
  return applyJq(doc, jq);
}

/** The definitions' worker rules for the launcher: the build writes them to dist/worker-rules.json (scripts/bundle.mjs). */
export function launcherWorkerRules(): ReturnType<typeof workerRules> {
  return workerRules(TOP_LEVEL);
}
