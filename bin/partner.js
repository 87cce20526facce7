#!/usr/bin/env node
// Launcher only: the CLI lives in the built output (npm ci builds it).
// A bare `--version` is answered here, and help from dist/help.cjs (one
// script, no commander), so scripts that probe the version and people who ask
// for help pay for little more than Node's own start-up. CommonJS
// (bin/package.json): Node starts a CommonJS script without setting up its ES
// module loader, which a bare --version then never pays for (0.87x the wall
// time of the same script as an ES module on Node 24, 30 interleaved runs); the
// CLI itself is one CommonJS script (dist/cli.cjs), help another (dist/help.cjs).
'use strict';
const { readFileSync, writeSync } = require('node:fs');

const args = process.argv.slice(2);
launch().catch(reportWriteFailure);

async function launch() {
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    writeAll(`${versionLine()}\n`);
    return;
  }
  // Everything but the version runs dist/: compiled once, then from V8's cache (bin/code-cache.js for
  // partner's own scripts, bin/compile-cache.js for the workers' ES modules).
  require('./compile-cache.js').enableCompileCache();
  const helpAsked = args.length <= 1 || args.includes('--help') || args.includes('-h') || args[0] === 'help';
  const { loadScript } = require('./code-cache.js');
  if (helpAsked && loadScript('help').printHelp(args)) return;
  // An export of every page runs on a worker thread (src/command-worker.ts): started now, it loads
  // while this thread loads the CLI and parses the arguments.
  const workers = require('./command-worker.js');
  const early = workers.looksLikeWorkerCommand(args) ? workers.startWorker() : undefined;
  await loadScript('cli').main(args, undefined, undefined, { early });
}

/**
 * Only the two answers above get here (main reports its own failures): stdout could not be
 * written (a full disk, /dev/full). One line, as the CLI says it (src/errors.ts, OutputWriteError).
 */
function reportWriteFailure(err) {
  process.stderr.write(`Error: ${err?.code === 'OUTPUT_WRITE' ? err.message : `Could not write the output to stdout: ${err?.code ?? err}; what was written is incomplete`}\n`);
  process.exitCode = 1;
}

/** "0.1.0 (commit 1a2b3c4d5e6f, built 2026-11-28)" from dist/build-info.json (src/version.ts versionLine, kept here so --version loads no module); the package version alone without it. */
function versionLine() {
  try {
    const { version, commit, date } = JSON.parse(readFileSync(`${__dirname}/../dist/build-info.json`, 'utf8'));
    if (version && commit && date) return `${version} (commit ${commit}, built ${date})`;
  } catch {
    // Not built: the package's version alone.
  }
  return JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).version;
}

/** The version, written whole (a short write finished) or failing; a reader that went away (`| head`) is not a failure. */
function writeAll(text) {
  const buf = Buffer.from(text);
  let at = 0;
  try {
    while (at < buf.length) at += writeSync(1, buf, at, buf.length - at);
  } catch (err) {
    if (err.code === 'EAGAIN') process.stdout.write(buf.subarray(at)); // a non-blocking pipe: Node's stream waits for it
    else if (err.code !== 'EPIPE') throw err;
  }
}
