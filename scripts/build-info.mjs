// What build this is (`partner --version`): the package version, the commit
// it was built from and that commit's date (the same commit always says the
// same date, so builds stay reproducible). Outside a git checkout (a tarball
// unpacked by hand) the commit is "unknown" and the date today's.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function buildInfo(root) {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const git = (args) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const commit = git(['rev-parse', '--short=12', 'HEAD']);
  // A checkout with uncommitted changes to tracked files is not that commit.
  const dirty = commit && git(['status', '--porcelain', '--untracked-files=no']) ? '-dirty' : '';
  const date = (commit && git(['log', '-1', '--format=%cs', 'HEAD'])) || new Date().toISOString().slice(0, 10);
  return { version: pkg.version, commit: commit ? `${commit}${dirty}` : 'unknown', date };
}
