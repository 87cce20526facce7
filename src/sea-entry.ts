// The entry of the single-file executable (scripts/build-binary.mjs): a few
// lines, so that starting the executable compiles almost nothing. A bare
// `--version` is answered here; anything else runs the CLI, which the
// executable carries as an asset (src/sea-cli.ts bundled as one CommonJS
// script) with V8's code cache for it, made by the same Node at build time:
// the CLI's 5 MB are compiled only when a command runs, and then from that
// cache. A cache V8 does not accept (another V8) is ignored and the script
// compiled from source: a slower start, never a different behaviour.
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { buildInfo, versionLine } from './version.js';
import { builtinRequire, runningSea } from './runtime/sea-assets.js';

/** The asset keys of the CLI's script and its code cache (scripts/build-binary.mjs writes them). */
const CLI_ASSET = 'js/cli.cjs';
const CLI_CACHE_ASSET = 'js/cli.cache';
/** The CLI script's name in stack traces and the code cache (scripts/build-binary.mjs makes the cache under the same name). */
const CLI_FILENAME = 'partner-cli.cjs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${versionLine(buildInfo())}\n`);
} else {
  const sea = runningSea();
  if (!sea) throw new Error('src/sea-entry.ts runs only inside the single executable');
  // The asset is the bundle wrapped as a function of (exports, require, module, __filename, __dirname): what require() does for a file.
  const script = new Script(sea.getAsset(CLI_ASSET, 'utf8'), {
    filename: CLI_FILENAME,
    cachedData: Buffer.from(sea.getRawAsset(CLI_CACHE_ASSET)),
  });
  const module = { exports: {} as { run(args: string[]): void } };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, builtinRequire, module, process.execPath, dirname(process.execPath));
  module.exports.run(args);
}
