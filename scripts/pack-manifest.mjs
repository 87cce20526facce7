// npm's `prepack` (after the build) and `postpack`: the packed package.json
// has no `prepare` script. `prepare` builds dist/ in a clone (`npm ci`); a
// tarball already holds dist/, and npm 11 lists a tarball's `prepare` among
// the install scripts "not yet covered by allowScripts" when it installs it,
// although it never runs it there: a warning about a build that does not
// happen. `strip` (prepack) keeps the real file as .package.json.prepack and
// writes the one to pack; `restore` (postpack) puts it back. A pack stopped
// halfway leaves the copy: the next strip or restore puts it back first.
// prepack builds dist/ before it strips: npm pack reads the package.json left
// by prepack to find `prepare`, so the stripped one builds nothing.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const file = fileURLToPath(new URL('../package.json', import.meta.url));
const kept = fileURLToPath(new URL('../.package.json.prepack', import.meta.url));

export function restore() {
  if (existsSync(kept)) renameSync(kept, file);
}

/** package.json's text without the prepare script, or undefined when it has none. */
export function withoutPrepare(text) {
  const pkg = JSON.parse(text);
  if (!pkg.scripts?.prepare) return undefined;
  delete pkg.scripts.prepare;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function strip() {
  restore();
  const text = readFileSync(file, 'utf8');
  const packed = withoutPrepare(text);
  if (packed === undefined) return;
  writeFileSync(kept, text);
  writeFileSync(file, packed);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const action = { strip, restore }[process.argv[2]];
  if (!action) {
    process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
    process.exit(2);
  }
  action();
}
