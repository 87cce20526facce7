// The whole run, hermetic: before any test file starts, HOME and the XDG base
// directories point into one temporary directory of this run (removed after it),
// and the developer's own PARTNER_* variables and D-Bus session (the road to
// their keyring) are gone, so every CLI a test
// spawns with this process's environment, and every path partner derives from
// it, lands there. test/setup/worker.ts does the same in each test worker and
// points the passwd entry's home (os.userInfo) there for in-process contexts
// built without a HOME.
//
// And the guard: partner's directories under the real home (and those the
// starting environment names) are snapshot before the run and compared after
// it; any change fails the run, naming the paths.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { changes, snapshot, watchedDirs } from './home-watch.js';
import { runEnv } from './run-env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's home (test/setup/worker.ts points os.userInfo().homedir there). */
    runHome: string;
  }
}

export default function setup(project: TestProject): () => void {
  const watched = watchedDirs(process.env);
  const before = snapshot(watched);
  const root = mkdtempSync(join(tmpdir(), 'partner-run-'));
  const home = join(root, 'home');
  const vars = runEnv(home);
  for (const dir of Object.values(vars)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const k of Object.keys(process.env)) if (k.startsWith('PARTNER_') || k === 'DBUS_SESSION_BUS_ADDRESS') delete process.env[k];
  Object.assign(process.env, vars);
  project.provide('runHome', home);
  return () => {
    rmSync(root, { recursive: true, force: true });
    const changed = changes(before, snapshot(watched));
    if (changed.length > 0) {
      // vitest reports an error thrown here ("error during close") but still exits 0: the run fails by its exit code.
      process.exitCode = 1;
      throw new Error(`The test run changed partner's directories outside its own temporary directories (a test derived a path from the real home):\n${changed.slice(0, 50).join('\n')}`);
    }
  };
}
